import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { channelLogs, emailOutbox } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';

// api.md "Staff messages": what the site wrote, per booking and in all, as sent, and Resend.

const ctx = await createTestContext();
const db = ctx.deps.db;
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(ctx);
});

let day = 0;
const nextDate = () => addDays('2027-10-01', (day += 2));

async function book(email = 'amira@northernroasters.co.uk'): Promise<number> {
  const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: nextDate(), email })), freshClient());
  expect(response.status).toBe(201);
  return (await response.json()).id;
}

const get = (path: string) => ctx.app.request(path, adminRequest(cookie));
const resend = (id: number, headers: Record<string, string> = {}) =>
  ctx.app.request(`/api/admin/messages/${id}/resend`, { method: 'POST', headers: { Cookie: cookie, Origin: TEST_ORIGIN, ...headers } });

async function confirmationOf(bookingId: number) {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `booking-confirmation:${bookingId}`));
  return row!;
}

describe('GET /api/admin/bookings/{id}/messages', () => {
  it('answers 401 without a session and 404 for an unknown booking', async () => {
    expect((await ctx.app.request('/api/admin/bookings/1/messages')).status).toBe(401);
    const unknown = await get('/api/admin/bookings/999999/messages');
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe('Booking not found');
    expect((await get('/api/admin/bookings/abc/messages')).status).toBe(404);
  });

  it("lists the booking's own e-mails, oldest first, with kind, recipient, status and attempts", async () => {
    const id = await book();
    const other = await book('someone@elsewhere.co.uk');
    const response = await get(`/api/admin/bookings/${id}/messages`);
    expect(response.status).toBe(200);
    const messages = await response.json();
    expect(messages).toEqual([
      {
        id: expect.any(Number),
        kind: 'booking-confirmation',
        to: 'amira@northernroasters.co.uk',
        subject: expect.stringContaining(`#${id}`),
        // Delivered after the answer; without SendGrid the outbox row is the delivery.
        status: 'sent',
        provider: 'outbox',
        createdAt: expect.any(String),
        sentAt: expect.any(String),
        attempts: 1,
        bookingId: id,
      },
    ]);
    expect(JSON.stringify(messages)).not.toContain(`#${other}`);
  });

  it('shows a failed delivery with its error', async () => {
    const id = await book();
    const row = await confirmationOf(id);
    await db.update(emailOutbox).set({ status: 'failed', error: 'SendGrid answered 401: bad key', attempts: 3 }).where(eq(emailOutbox.id, row.id));
    const [message] = await (await get(`/api/admin/bookings/${id}/messages`)).json();
    expect(message).toMatchObject({ status: 'failed', attempts: 3, error: 'SendGrid answered 401: bad key' });
  });
});

describe('GET /api/admin/messages/{id} and its attachments', () => {
  it('answers 401 without a session and 404 for an unknown message or attachment', async () => {
    expect((await ctx.app.request('/api/admin/messages/1')).status).toBe(401);
    expect((await ctx.app.request('/api/admin/messages/1/attachments/0')).status).toBe(401);
    expect((await get('/api/admin/messages/999999')).status).toBe(404);
    expect((await get('/api/admin/messages/999999/attachments/0')).status).toBe(404);
    const row = await confirmationOf(await book());
    const missing = await get(`/api/admin/messages/${row.id}/attachments/1`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe('Attachment not found');
  });

  it('gives the message as sent: subject, both parts and what was attached', async () => {
    const row = await confirmationOf(await book());
    const response = await get(`/api/admin/messages/${row.id}`);
    expect(response.status).toBe(200);
    const message = await response.json();
    expect(message).toMatchObject({ id: row.id, subject: row.subject, text: row.text, html: row.html, kind: 'booking-confirmation' });
    expect(message.text).toContain('TRACK YOUR PROJECT');
    // The confirmation carries the installation's calendar invite.
    expect(message.attachments).toEqual([{ filename: 'installation.ics', contentType: expect.stringContaining('text/calendar'), size: expect.any(Number) }]);
    expect(message.attachments[0].size).toBe(Buffer.from(row.attachments![0]!.content, 'base64').length);
  });

  it('downloads an attachment as a file, never as a page', async () => {
    const row = await confirmationOf(await book());
    const response = await get(`/api/admin/messages/${row.id}/attachments/0`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="installation.ics"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toContain('text/calendar');
    const body = await response.text();
    expect(body).toContain('BEGIN:VCALENDAR');
    expect(body).toBe(Buffer.from(row.attachments![0]!.content, 'base64').toString('utf8'));
  });
});

describe('GET /api/admin/messages', () => {
  it('answers 401 without a session and 400 for a bad filter or cursor', async () => {
    expect((await ctx.app.request('/api/admin/messages')).status).toBe(401);
    expect((await get('/api/admin/messages?kind=%3Cscript%3E')).status).toBe(400);
    expect((await get('/api/admin/messages?limit=0')).status).toBe(400);
    expect((await get('/api/admin/messages?cursor=nonsense')).status).toBe(400);
  });

  it('lists messages with no booking (enquiries, workers) with the rest, newest first', async () => {
    const enquiry = await ctx.app.request(
      '/api/contacts',
      jsonRequest({ firstName: 'Ola', lastName: 'Berg', email: 'ola@bergbakes.co.uk', inquiryType: 'Custom Quote', message: 'Twelve patches in York, please.', website: '' }),
      freshClient(),
    );
    expect(enquiry.status).toBe(201);
    const bookingId = await book('ola@bergbakes.co.uk');
    const response = await get('/api/admin/messages?to=OLA@bergbakes.co.uk');
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('2');
    const messages = await response.json();
    expect(messages.map((message: { kind: string }) => message.kind)).toEqual(['booking-confirmation', 'enquiry-acknowledgement']);
    expect(messages[0].bookingId).toBe(bookingId);
    expect(messages[1]).not.toHaveProperty('bookingId');

    const acknowledgements = await (await get('/api/admin/messages?kind=enquiry-acknowledgement&to=ola@bergbakes.co.uk')).json();
    expect(acknowledgements).toHaveLength(1);
  });

  it('pages by cursor without repeating or skipping a message', async () => {
    const to = 'pages@northernroasters.co.uk';
    for (let index = 0; index < 5; index += 1) await book(to);
    const seen: number[] = [];
    let url: string | null = `/api/admin/messages?to=${to}&limit=2`;
    let pages = 0;
    while (url) {
      const response: Response = await get(url);
      expect(response.status).toBe(200);
      seen.push(...(await response.json()).map((message: { id: number }) => message.id));
      const next = response.headers.get('x-next-cursor');
      url = next ? `/api/admin/messages?to=${to}&limit=2&cursor=${encodeURIComponent(next)}` : null;
      pages += 1;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(5);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
  });
});

describe('POST /api/admin/messages/{id}/resend', () => {
  it('answers 401 without a session and 404 for an unknown message', async () => {
    expect((await ctx.app.request('/api/admin/messages/1/resend', { method: 'POST', headers: { Origin: TEST_ORIGIN } })).status).toBe(401);
    expect((await resend(999999)).status).toBe(404);
  });

  it('queues the same message again as a new row, sends it, and logs who asked', async () => {
    const bookingId = await book();
    const original = await confirmationOf(bookingId);
    const response = await resend(original.id, { 'Idempotency-Key': crypto.randomUUID() });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body).toEqual({ id: expect.any(Number), resendOf: original.id, status: 'queued' });
    const [copy] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, body.id));
    expect(copy).toMatchObject({
      kind: original.kind,
      to: original.to,
      subject: original.subject,
      text: original.text,
      html: original.html,
      attachments: original.attachments,
      bookingId,
      resendOf: original.id,
      // Sent after the answer, like a booking's own mail.
      status: 'logged',
    });
    const [log] = await db.select().from(channelLogs).where(eq(channelLogs.action, 'email_resent'));
    expect(log).toMatchObject({ channel: 'admin', entityType: 'email', entityId: String(body.id) });
    // The account's id (api.md "Staff accounts"), whose name the Logs tab shows.
    expect(log!.userId).toMatch(/^\d+$/);
    expect(log!.details).not.toContain(original.to);
    const listed = await (await get(`/api/admin/bookings/${bookingId}/messages`)).json();
    expect(listed.map((message: { id: number }) => message.id)).toEqual([original.id, body.id]);
  });

  it('a double click (the same Idempotency-Key twice) queues one copy', async () => {
    const original = await confirmationOf(await book());
    const key = crypto.randomUUID();
    const [first, second] = await Promise.all([resend(original.id, { 'Idempotency-Key': key }), resend(original.id, { 'Idempotency-Key': key })]);
    expect([first.status, second.status]).toEqual([202, 202]);
    expect((await second.json()).id).toBe((await first.json()).id);
    const copies = await db.select().from(emailOutbox).where(eq(emailOutbox.resendOf, original.id));
    expect(copies).toHaveLength(1);
  });

  it('refuses a second resend while the first is still queued', async () => {
    const original = await confirmationOf(await book());
    // A copy still waiting for its delivery run.
    await db.insert(emailOutbox).values({ kind: original.kind, to: original.to, subject: original.subject, text: original.text, resendOf: original.id });
    const refused = await resend(original.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe('This message is already queued to be sent again. Please wait until it has gone out.');
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.resendOf, original.id))).toHaveLength(1);
  });
});

describe('the migration links mail written before bookings were recorded on it', () => {
  it('recovers the booking from the dedupe key, and leaves mail about no booking alone', async () => {
    const bookingId = await book();
    const [legacy] = await db
      .insert(emailOutbox)
      .values({ kind: 'payment-receipt', to: 'a@b.co.uk', subject: 's', text: 't', dedupeKey: `payment-receipt:${bookingId}` })
      .returning();
    const [worker] = await db
      .insert(emailOutbox)
      .values({ kind: 'worker-routes', to: 'w@b.co.uk', subject: 's', text: 't', dedupeKey: `worker-routes:2027-10-01:${bookingId}` })
      .returning();
    const [gone] = await db
      .insert(emailOutbox)
      .values({ kind: 'completion', to: 'c@b.co.uk', subject: 's', text: 't', dedupeKey: 'completion:999999:x' })
      .returning();
    const migration = await readFile(new URL('../../db/migrations/0018_staff-messages.sql', import.meta.url), 'utf8');
    const backfill = migration.split('--> statement-breakpoint').at(-1)!;
    await db.execute(sql.raw(backfill));
    const byId = async (id: number) => (await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)))[0]!.bookingId;
    expect(await byId(legacy!.id)).toBe(bookingId);
    expect(await byId(worker!.id)).toBeNull();
    expect(await byId(gone!.id)).toBeNull();
  });
});

describe('resend limits', () => {
  it('sends 10 sequential and 10 concurrent resends of one message at most three times an hour', async () => {
    ctx.setNow('2027-01-10T09:00:00Z');
    cookie = await adminCookie(ctx);
    const original = await confirmationOf(await book());
    // Concurrent: a copy is queued only when none waits (409 otherwise) and the hour has room;
    // the original's row lock lines them up, so a copy can follow one that has already gone out.
    const together = await Promise.all(Array.from({ length: 10 }, () => resend(original.id)));
    const queued = together.filter((response) => response.status === 202).length;
    expect(queued).toBeGreaterThanOrEqual(1);
    expect(queued).toBeLessThanOrEqual(3);
    expect(together.every((response) => [202, 409, 429].includes(response.status))).toBe(true);
    // Sequential, each after the previous copy went out: up to three in the hour, then 429.
    const statuses: number[] = [];
    for (let n = 0; n < 10; n += 1) {
      ctx.setNow(new Date(Date.parse('2027-01-10T09:01:00Z') + n * 60_000));
      const response = await resend(original.id);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(await response.json()).toMatchObject({ error: 'This message was already resent 3 times in the last hour. Please try again later.' });
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([...Array<number>(3 - queued).fill(202), ...Array<number>(7 + queued).fill(429)]);
    // Twenty requests, three copies: the customer gets at most three more e-mails an hour.
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.resendOf, original.id))).toHaveLength(3);
    // An hour after the first copy, one more may go.
    ctx.setNow('2027-01-10T10:00:30Z');
    cookie = await adminCookie(ctx);
    expect((await resend(original.id)).status).toBe(202);
  });
});
