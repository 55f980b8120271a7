import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, channelLogs, progressLogs } from '../../db/schema.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { insertBrandFile } from '../fixtures/booking-files.ts';
import { NOT_SIGNED_IN } from '../../src/server/api/middleware/admin-auth.ts';
import { INVALID_STATUS } from '../../src/server/api/routes/admin-bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const cookie = await adminCookie(ctx);
const BASE = new Date('2026-11-20T10:00:00Z');

interface Seed {
  firstName?: string;
  lastName?: string;
  email?: string;
  businessName?: string | null;
  postcode?: string | null;
  archived?: boolean;
  isTest?: boolean;
  status?: string;
  /** Minutes after BASE: bigger is newer. */
  minute?: number;
  createdAt?: Date;
}

async function insertBooking(seed: Seed = {}) {
  const [row] = await db
    .insert(bookings)
    .values({
      firstName: seed.firstName ?? 'Omar',
      lastName: seed.lastName ?? 'Patel',
      businessName: seed.businessName === undefined ? 'Patel Print' : seed.businessName,
      email: seed.email ?? 'omar@patelprint.co.uk',
      phone: '0113 496 0000',
      quantity: 5,
      locationAddress: seed.postcode === 'M1' ? 'Piccadilly, Manchester M1 1RG' : 'Briggate, Leeds LS1 6HD',
      postcode: seed.postcode === undefined ? 'LS1' : seed.postcode,
      workType: 'day',
      preferredDate: '2027-07-14',
      totalPricePence: 34_900,
      status: seed.status ?? 'pending',
      archived: seed.archived ?? false,
      isTest: seed.isTest ?? false,
      createdAt: seed.createdAt ?? new Date(BASE.getTime() + (seed.minute ?? 0) * 60_000),
    })
    .returning();
  return row!;
}

async function reset() {
  await db.delete(bookings);
  await db.delete(channelLogs);
}

const get = (path: string, withCookie = true) => ctx.app.request(path, withCookie ? adminRequest(cookie) : {});
const patch = (path: string, body?: unknown, withCookie = true) =>
  ctx.app.request(path, withCookie ? adminRequest(cookie, { method: 'PATCH', body }) : jsonRequest(body ?? {}, { method: 'PATCH' }));

async function adminLogs(action: string) {
  return db.select().from(channelLogs).where(and(eq(channelLogs.channel, 'admin'), eq(channelLogs.action, action)));
}

describe('admin booking calls without a session', () => {
  it.each([
    ['GET', '/api/bookings'],
    ['GET', '/api/bookings?archived=true'],
    ['PATCH', '/api/bookings/1/status'],
    ['PATCH', '/api/bookings/1/archive'],
    ['PATCH', '/api/bookings/1/unarchive'],
    ['POST', '/api/admin/bookings/archive-tests'],
  ])('%s %s answers 401', async (method, path) => {
    const init = method === 'GET' ? { headers: { Origin: 'http://localhost:8888' } } : jsonRequest({ status: 'confirmed' }, { method });
    const response = await ctx.app.request(path, init);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: NOT_SIGNED_IN });
  });

  it('leaves the public booking calls public', async () => {
    expect((await ctx.app.request('/api/bookings/unavailable-dates')).status).toBe(200);
    const created = await ctx.app.request(
      '/api/bookings',
      jsonRequest(bookingPayload(), { headers: { 'Idempotency-Key': crypto.randomUUID() } }),
      freshClient(),
    );
    expect(created.status).toBe(201);
  });
});

describe('GET /api/bookings', () => {
  it('lists bookings newest first with their files and progress history, filtered by archived', async () => {
    await reset();
    const older = await insertBooking({ firstName: 'Older', minute: 1 });
    const newer = await insertBooking({ firstName: 'Newer', minute: 2 });
    const archived = await insertBooking({ firstName: 'Archived', minute: 3, archived: true });
    await insertBrandFile(db, { fileName: 'abc.png', originalName: 'logo.png', fileSize: 10, mimeType: 'image/png', storage: 'disk' }, newer.id);
    await db.insert(progressLogs).values({ bookingId: newer.id, step: 1, stepName: 'Design Consultation', status: 'consultation', notes: 'Called' });

    const all = await get('/api/bookings');
    expect(all.status).toBe(200);
    expect(all.headers.get('X-Total-Count')).toBe('3');
    expect(all.headers.get('X-Next-Cursor')).toBeNull();
    const allBody = await all.json();
    expect(allBody.map((b: { id: number }) => b.id)).toEqual([archived.id, newer.id, older.id]);
    expect(allBody[1]).toMatchObject({
      firstName: 'Newer',
      totalPrice: 349,
      isTest: false,
      uploadedFiles: [{ fileName: 'abc.png', originalName: 'logo.png' }],
      progressLogs: [{ step: 1, stepName: 'Design Consultation', status: 'consultation', notes: 'Called' }],
    });
    expect(allBody[2]).toMatchObject({ uploadedFiles: [], progressLogs: [] });

    const active = await (await get('/api/bookings?archived=false')).json();
    expect(active.map((b: { id: number }) => b.id)).toEqual([newer.id, older.id]);
    const onlyArchived = await (await get('/api/bookings?archived=true')).json();
    expect(onlyArchived.map((b: { id: number }) => b.id)).toEqual([archived.id]);

    expect((await get('/api/bookings?archived=maybe')).status).toBe(400);
  });

  it('searches name, e-mail, business, postcode and id, with wildcards taken literally', async () => {
    await reset();
    const ada = await insertBooking({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@engines.co.uk', businessName: 'Analytical Coffee', postcode: 'M1' });
    const grace = await insertBooking({ firstName: 'Grace', lastName: 'Hopper', email: 'grace_h@compilers.co.uk', businessName: '100% Cotton', postcode: 'LS1' });
    const ids = async (q: string) => ((await (await get(`/api/bookings?q=${encodeURIComponent(q)}`)).json()) as { id: number }[]).map((b) => b.id);

    expect(await ids('ada lovelace')).toEqual([ada.id]);
    expect(await ids('ENGINES')).toEqual([ada.id]);
    expect(await ids('analytical')).toEqual([ada.id]);
    expect(await ids('ls1')).toEqual([grace.id]);
    expect(await ids(String(grace.id))).toContain(grace.id);
    // '%' and '_' are characters to find, not wildcards.
    expect(await ids('100%')).toEqual([grace.id]);
    expect(await ids('e_h')).toEqual([grace.id]);
    expect(await ids('%')).toEqual([grace.id]);
    expect(await ids('nobody here')).toEqual([]);
    // Each field is searched on its own (first and last name together): no match across two.
    expect(await ids('lovelace ada@')).toEqual([]);
    expect(await ids('coffee m1')).toEqual([]);
    const response = await get('/api/bookings?q=hopper');
    expect(response.headers.get('X-Total-Count')).toBe('1');
  });

  it('pages with a cursor: no row twice, none skipped, even within one millisecond', async () => {
    await reset();
    // Five bookings in the same millisecond but distinct microseconds, and three others.
    const created: number[] = [];
    for (let i = 0; i < 5; i++) {
      const row = await insertBooking({ firstName: `Same${i}`, createdAt: new Date('2026-11-20T10:00:00.123Z') });
      created.push(row.id);
    }
    for (let i = 0; i < 3; i++) created.push((await insertBooking({ firstName: `Later${i}`, minute: 10 + i })).id);

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/api/bookings?limit=3${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(response.headers.get('X-Total-Count')).toBe('8');
      const page = (await response.json()) as { id: number }[];
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((b) => b.id));
      cursor = response.headers.get('X-Next-Cursor');
      pages += 1;
    } while (cursor && pages < 10);

    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(8);
    expect(seen.slice(0, 3)).toEqual(created.slice(5).reverse());
    expect(seen.slice(3).sort((a, b) => a - b)).toEqual(created.slice(0, 5));
  });

  it('refuses a bad limit or cursor with 400', async () => {
    for (const query of ['limit=0', 'limit=201', 'limit=abc', 'cursor=not-a-cursor']) {
      const response = await get(`/api/bookings?${query}`);
      expect(response.status, query).toBe(400);
    }
    expect((await get('/api/bookings?limit=200')).status).toBe(200);
  });
});

describe('PATCH /api/bookings/:id/status', () => {
  it.each(['pending', 'confirmed', 'completed', 'cancelled'])('sets %s from any status and logs who did it', async (status) => {
    await reset();
    const booking = await insertBooking({ status: status === 'completed' ? 'pending' : 'completed' });
    const response = await patch(`/api/bookings/${booking.id}/status`, { status });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: booking.id, status, uploadedFiles: [], progressLogs: [] });
    const [row] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row!.status).toBe(status);
    const [log] = await adminLogs('booking_status_changed');
    expect(log).toMatchObject({ entityType: 'booking', entityId: String(booking.id), metadata: { to: status } });
    // The account's id (api.md "Staff accounts"), whose name the Logs tab shows.
    expect(log!.userId).toMatch(/^\d+$/);
  });

  it('refuses any other status with 400 and changes nothing', async () => {
    await reset();
    const booking = await insertBooking();
    for (const status of ['installation_complete', 'PENDING', '', 5, null]) {
      const response = await patch(`/api/bookings/${booking.id}/status`, { status });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: INVALID_STATUS });
    }
    const [row] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row!.status).toBe('pending');
    expect(await adminLogs('booking_status_changed')).toEqual([]);
  });

  it('answers 404 for a booking that does not exist', async () => {
    expect((await patch('/api/bookings/999999/status', { status: 'confirmed' })).status).toBe(404);
    expect((await patch('/api/bookings/abc/status', { status: 'confirmed' })).status).toBe(404);
  });
});

describe('archive and unarchive', () => {
  it('moves a booking between the active and archived lists, with a log each way', async () => {
    await reset();
    const booking = await insertBooking();
    const archived = await patch(`/api/bookings/${booking.id}/archive`);
    expect(archived.status).toBe(200);
    expect(await archived.json()).toMatchObject({ id: booking.id, archived: true });
    expect(await (await get('/api/bookings?archived=false')).json()).toEqual([]);
    expect((await (await get('/api/bookings?archived=true')).json())[0]).toMatchObject({ id: booking.id });
    expect(await adminLogs('booking_archived')).toMatchObject([{ entityId: String(booking.id) }]);

    const restored = await patch(`/api/bookings/${booking.id}/unarchive`);
    expect(await restored.json()).toMatchObject({ id: booking.id, archived: false });
    expect((await (await get('/api/bookings?archived=false')).json())[0]).toMatchObject({ id: booking.id });
    expect(await adminLogs('booking_unarchived')).toMatchObject([{ entityId: String(booking.id) }]);

    expect((await patch('/api/bookings/999999/archive')).status).toBe(404);
  });
});

describe('POST /api/admin/bookings/archive-tests', () => {
  it('archives every active test booking (by words or Stripe test mode) in one go and logs the ids', async () => {
    await reset();
    // Flagged at creation by the whole-word rule, through the real booking call.
    const created = await ctx.app.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ firstName: 'Test', lastName: 'Booking' }), { headers: { 'Idempotency-Key': crypto.randomUUID() } }),
      freshClient(),
    );
    const wordTest = (await created.json()) as { id: number };
    // Flagged by a Stripe test-mode payment (the webhook's part is tested in payments.test.ts).
    const paidInTestMode = await insertBooking({ isTest: true });
    const alreadyArchived = await insertBooking({ isTest: true, archived: true });
    const real = await insertBooking();

    const response = await ctx.app.request('/api/admin/bookings/archive-tests', adminRequest(cookie, { method: 'POST' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ archived: 2 });

    const active = (await (await get('/api/bookings?archived=false')).json()) as { id: number }[];
    expect(active.map((b) => b.id)).toEqual([real.id]);
    const [log] = await adminLogs('test_bookings_archived');
    expect(log!.metadata).toEqual({ bookingIds: [wordTest.id, paidInTestMode.id].sort((a, b) => a - b) });
    expect(log!.details).not.toContain(`#${alreadyArchived.id}`);

    const again = await ctx.app.request('/api/admin/bookings/archive-tests', adminRequest(cookie, { method: 'POST' }));
    expect(await again.json()).toEqual({ archived: 0 });
  });
});
