/**
 * What a hostile or careless client can do to the API and the local server, and the bounds that
 * stop it: refused bodies, stalled connections, deep nesting, odd text, forged ids, quotas.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, channelLogs, contactEnquiries, emailOutbox, pageViews, reviews, uploadedFiles } from '../../db/schema.ts';
import { createReviewInvitation } from '../../src/server/services/reviews/review-invitations.ts';
import { startLocalServer } from '../../src/server/local-server.ts';
import { createStaticSite } from '../../src/server/static-site.ts';
import type { Logger } from '../../src/server/app/logger.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';

const LOGO_PNG = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));

const ctx = await createTestContext();

/** What the app logged, level by level: a hostile request is a warning at most, never an error. */
const logged: { level: keyof Logger; message: string; extra?: Record<string, unknown> }[] = [];
ctx.deps.log = {
  info: (message, extra) => logged.push({ level: 'info', message, extra }),
  warn: (message, extra) => logged.push({ level: 'warn', message, extra }),
  error: (message, extra) => logged.push({ level: 'error', message, extra }),
};
const errorsLogged = () => logged.filter((entry) => entry.level === 'error');

describe('the local server over a real port', () => {
  let distDir: string;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    distDir = await mkdtemp(path.join(os.tmpdir(), 'cp-dist-'));
    await writeFile(path.join(distDir, 'index.html'), '<h1>Home</h1>');
    await writeFile(path.join(distDir, '404.html'), '<h1>Page not found</h1>');
    const site = createStaticSite({
      distDir,
      api: (request, env) => ctx.app.fetch(request, env as never),
      policy: ctx.deps.env,
    });
    // Short limits so the stalled-client test ends quickly; the defaults are for people.
    const { server, port } = await startLocalServer({
      fetch: site.fetch,
      port: 0,
      hostname: '127.0.0.1',
      timeouts: { headersMs: 300, requestMs: 1_000, checkIntervalMs: 100 },
    });
    base = `http://127.0.0.1:${port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(async () => {
    // Idle keep-alive sockets would hold close() open until they time out.
    await close?.();
    await rm(distDir, { recursive: true, force: true });
  });

  it('answers the request after a 413 on the same client, never "other side closed"', async () => {
    const big = JSON.stringify({ path: '/', referrer: 'x'.repeat(2 * 1024 * 1024) });
    const refused = await fetch(`${base}/api/analytics/pageview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
      body: big,
    });
    expect(refused.status).toBe(413);
    expect((await refused.json()).error).toMatch(/too large/);

    const next = await fetch(`${base}/api/health`);
    expect(next.status).toBe(200);
    expect(await next.json()).toEqual({ ok: true });
  });

  it('says "Connection: close" when it refuses a declared oversized body it will not read', async () => {
    const { text } = await rawExchange(
      base,
      'POST /api/analytics/pageview HTTP/1.1\r\nHost: localhost\r\nOrigin: ' +
        TEST_ORIGIN +
        '\r\nContent-Type: application/json\r\nContent-Length: 2097152\r\n\r\n{"path":',
    );
    expect(text).toMatch(/^HTTP\/1\.1 413/);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).not.toMatch(/keep-alive/i);
  });

  it('disconnects a client that never finishes its headers', async () => {
    const { text } = await rawExchange(base, 'GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    // Node answers 408 Request Timeout before it hangs up.
    expect(text).toMatch(/^HTTP\/1\.1 408/);
  });
});

describe('deeply nested JSON', () => {
  const deep = '['.repeat(5000) + ']'.repeat(5000);

  it.each(['/api/bookings', '/api/analytics/pageview', '/api/analytics/event'])(
    'answers %s with 400, not 500, and logs no error',
    async (route) => {
      logged.length = 0;
      const response = await ctx.app.request(route, jsonRequest(deep));
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('Request body is nested too deeply');
      expect(errorsLogged()).toEqual([]);
    },
  );

  it('still refuses a NUL character in text', async () => {
    const response = await ctx.app.request(
      '/api/analytics/event',
      jsonRequest({ eventName: 'cta_click\u0000', path: '/' }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Text must not contain NUL characters');
  });
});

describe('NUL in a query string or path', () => {
  // PostgreSQL text cannot hold U+0000: these reached a search and failed inside the database.
  it.each([
    '/api/bookings?q=%00',
    '/api/bookings?q=Amira%00',
    '/api/admin/channel-logs?search=%00',
    '/api/admin/channel-logs?action=%00',
    '/api/admin/channel-logs?channel=booking&search=a%00b',
    '/api/contacts?q=%00',
    '/api/admin/privacy/export?email=a%00%40b.co',
    '/api/bookings/%00',
  ])('answers %s with 400 and the same message, signed in, and logs no error', async (url) => {
    logged.length = 0;
    const response = await ctx.app.request(url, adminRequest(await adminCookie(ctx)));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('The address holds a character that is not allowed');
    expect(errorsLogged()).toEqual([]);
  });
});

describe('typed text is cleaned before it is checked and stored', () => {
  const postBooking = (body: unknown) => ctx.app.request('/api/bookings', jsonRequest(body), freshClient());

  it('stores names, phone and instructions without controls, line breaks, bidi or zero-width characters', async () => {
    const response = await postBooking(
      bookingPayload({
        firstName: ' Am\u200bira\u202e ',
        lastName: 'Khan\r\nBcc: someone@elsewhere.test',
        businessName: '\u2066Northern\u0007 Roasters\u2069',
        phone: '0161\t496\u00850000',
        specialInstructions: 'Near the tram stop.\r\nGate code \u202e1234\u0008',
        preferredDate: '2027-08-20',
      }),
    );
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const [row] = await ctx.deps.db.select().from(bookings).where(eq(bookings.id, id));
    expect(row).toMatchObject({
      firstName: 'Amira',
      lastName: 'Khan Bcc: someone@elsewhere.test',
      businessName: 'Northern Roasters',
      phone: '0161 496 0000',
      specialInstructions: 'Near the tram stop.\nGate code 1234',
    });
  });

  it.each([
    ['firstName', '\u200b\u200c\u200d', 'First name is required'],
    ['lastName', '\u202e\u2066\u0001', 'Last name is required'],
    ['phone', '\ufeff\r\n', 'Phone number is required'],
  ])('answers a %s that is blank once cleaned with the spec\'s "required" message', async (field, value, message) => {
    const response = await postBooking(bookingPayload({ [field]: value }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields[field]).toBe(message);
  });

  it('cleans every field of a contact enquiry, and its log line and staff e-mail subject stay one line', async () => {
    const response = await ctx.app.request(
      '/api/contacts',
      jsonRequest({
        firstName: ' Jo\u200b\u0007 ',
        lastName: 'Bloggs\r\nBcc: someone@elsewhere.test\u202e',
        email: ' jo@bloggs.co.uk\u200b',
        phone: '0161\r\n496\u00070001',
        inquiryType: 'General Inquiry',
        message: 'Line one\r\nLine two \u202eevil\u0007\u200b here',
      }),
      freshClient(),
    );
    expect(response.status).toBe(201);
    const [row] = await ctx.deps.db.select().from(contactEnquiries).where(eq(contactEnquiries.email, 'jo@bloggs.co.uk'));
    expect(row).toMatchObject({
      firstName: 'Jo',
      lastName: 'Bloggs Bcc: someone@elsewhere.test',
      phone: '0161 4960001',
      message: 'Line one\nLine two evil\u200b here',
    });
    const [log] = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.entityId, String(row!.id)));
    expect(log!.details).not.toMatch(/[\r\n\u0007\u202e]/);
    const mails = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'enquiry-staff-notification'));
    for (const mail of mails) expect(mail.subject).not.toMatch(/[\r\n\u0000-\u001f\u202a-\u202e]/);
  });

  it('cleans review text, keeping its line breaks', async () => {
    const [booking] = await ctx.deps.db
      .insert(bookings)
      .values({
        firstName: 'Amira', lastName: 'Khan', email: 'reviewer@northernroasters.co.uk', phone: '0161 496 0000', quantity: 10,
        locationAddress: 'Piccadilly Gardens, Manchester, M1 1RG', workType: 'day', preferredDate: '2026-09-14',
        totalPricePence: 79900, status: 'completed', currentStep: 5,
      })
      .returning();
    const { url } = await createReviewInvitation(ctx.deps, booking!.id);
    const token = new URL(url).searchParams.get('t')!;
    const response = await ctx.app.request(
      '/api/reviews',
      jsonRequest({ token, rating: 5, reviewText: 'Great\r\nwork \u202eevil\u0007 done\u200b' }),
      freshClient(),
    );
    expect(response.status).toBe(201);
    const [row] = await ctx.deps.db.select().from(reviews).where(eq(reviews.bookingId, booking!.id));
    expect(row!.reviewText).toBe('Great\nwork evil done\u200b');
  });

  it('cleans an uploaded file\'s original name', async () => {
    const form = new FormData();
    form.set('file', new File([LOGO_PNG], 'invoice\u202Egnp.png', { type: 'image/png' }));
    const response = await ctx.app.request(
      '/api/upload',
      { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } },
      freshClient(),
    );
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.originalName).toBe('invoicegnp.png');
    const [row] = await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, body.filename));
    expect(row?.originalName).toBe('invoicegnp.png');
  });

  it('cleans the analytics fields', async () => {
    const response = await ctx.app.request(
      '/api/analytics/pageview',
      jsonRequest({ path: '/pricing\u202e', referrer: 'https://a.test/\r\nforged: line', userAgent: 'Agent\u0001\u200b/1' }),
      freshClient(),
    );
    expect(response.status).toBeLessThan(300);
    const [row] = await ctx.deps.db.select().from(pageViews).where(eq(pageViews.path, '/pricing'));
    expect(row).toMatchObject({ referrer: 'https://a.test/ forged: line', userAgent: 'Agent/1' });
  });
});

describe('X-Request-Id', () => {
  it.each([
    ['log-like text', 'ok=1-level=error-message=forged'.padEnd(80, '-')],
    ['too short', 'abc'],
    ['hono-acceptable but with "="', 'admin=logged=in'],
    ['spaces', 'request id with spaces'],
  ])('replaces an incoming id that is %s with one of its own, in the answer and the logs', async (_label, forged) => {
    logged.length = 0;
    const response = await ctx.app.request('/api/bookings', jsonRequest('[', { headers: { 'X-Request-Id': forged } }), freshClient());
    const id = response.headers.get('x-request-id');
    expect(id).not.toBe(forged);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await response.json()).requestId).toBe(id);
    expect(JSON.stringify(logged)).not.toContain(forged);
  });

  it('keeps a well-formed incoming id so a proxy\'s id can be followed through the logs', async () => {
    const response = await ctx.app.request('/api/health', { headers: { 'X-Request-Id': '01JD5Z8Q-proxy.id_42' } });
    expect(response.headers.get('x-request-id')).toBe('01JD5Z8Q-proxy.id_42');
  });
});

describe('site-wide quota on unclaimed uploads', async () => {
  // 1 MB for the whole site: three files of about 400 KB from three different clients. They are
  // real PNGs of noise, which stay that size when the server encodes them again.
  const small = await createTestContext({ UNCLAIMED_UPLOAD_QUOTA_MB: 1 });
  const noise = new Uint8Array(
    await sharp({ create: { width: 380, height: 380, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 80 } } })
      .png()
      .toBuffer(),
  );
  const upload = (client = freshClient()) => {
    const form = new FormData();
    form.set('file', new File([noise], 'logo.png', { type: 'image/png' }));
    return small.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, client);
  };

  it('answers 429 with Retry-After once the site holds the quota to a client holding files; a fresh one pays in work (428)', async () => {
    small.setNow('2026-11-22T10:00:00Z');
    const holder = freshClient();
    expect((await upload(holder)).status).toBe(201);
    small.setNow('2026-11-22T11:00:00Z');
    expect((await upload()).status).toBe(201);

    expect((await upload()).status).toBe(428);
    const refused = await upload(holder);
    expect(refused.status).toBe(429);
    // The oldest file leaves the one-day window at 10:00 tomorrow: 23 hours from now.
    expect(refused.headers.get('retry-after')).toBe(String(23 * 3600));
    expect((await refused.json()).error).toBe(
      'We are receiving too many uploads right now. Please try again later, or send your files when we contact you.',
    );

    // A day after the first file, it no longer counts (maintenance deletes it).
    small.setNow('2026-11-23T10:00:01Z');
    expect((await upload(holder)).status).toBe(201);
  });

  it('counts only files not yet attached to a booking', async () => {
    small.setNow('2026-11-25T10:00:00Z');
    const first = await upload();
    const second = await upload();
    expect([first.status, second.status]).toEqual([201, 201]);
    expect((await upload()).status).toBe(428);

    const booked = await small.app.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ uploadedFiles: [await first.json(), await second.json()] })),
      freshClient(),
    );
    expect(booked.status).toBe(201);
    expect((await upload()).status).toBe(201);
  });
});

describe('rate limits slide, they do not reset on the hour', () => {
  it('does not accept 20 booking attempts just before the hour and 20 more just after', async () => {
    const client = freshClient();
    const attempt = () => ctx.app.request('/api/bookings', jsonRequest({}), client);
    ctx.setNow('2026-11-22T12:59:58Z');
    for (let i = 0; i < 20; i += 1) expect((await attempt()).status).toBe(400);

    ctx.setNow('2026-11-22T13:00:02Z');
    const after: number[] = [];
    for (let i = 0; i < 20; i += 1) after.push((await attempt()).status);
    expect(after.filter((status) => status === 429)).toHaveLength(20);

    // The hour's attempts fade as the window slides: half an hour on, about half are back.
    ctx.setNow('2026-11-22T14:30:00Z');
    expect((await attempt()).status).toBe(400);
    ctx.setNow('2026-11-22T10:00:00Z');
  });
});

/** Writes raw bytes to the server and resolves with everything it sent back once it hangs up. */
function rawExchange(base: string, head: string): Promise<{ text: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('error', () => {});
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('close', () => resolve({ text: Buffer.concat(received).toString() }));
    socket.write(head);
  });
}
