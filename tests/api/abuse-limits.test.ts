import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bookings, uploadSessions } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { tooManyHolds } from '../../src/server/services/bookings/availability.ts';
import { MAX_UNPAID_HOLDS_PER_CLIENT } from '../../src/domain/booking-limits.ts';
import { parseEnv } from '../../src/server/env.ts';
import { UPLOAD_QUOTA_MESSAGE, UPLOAD_SHARE_MESSAGE } from '../../src/server/services/limits/upload-quota.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';

// api.md "Abuse and availability": unpaid holds cannot hold the calendar, and storage is bounded
// per client as well as in total, so a stranger's cheap requests never turn customers away.

const MB = 1024 * 1024;
const ctx = await createTestContext({ UNCLAIMED_UPLOAD_QUOTA_MB: 20, UNCLAIMED_UPLOAD_CLIENT_MB: 8 });
const db = ctx.deps.db;
const capacity = ctx.deps.env.DAILY_PATCH_CAPACITY;
const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));

let day = 0;
const nextDate = () => addDays('2027-09-01', (day += 1));
let hour = 0;
function freshHour() {
  hour += 30;
  ctx.setNow(new Date(Date.UTC(2026, 10, 22, 0) + hour * 3_600_000));
}
const advanceMinutes = (minutes: number) => ctx.setNow(new Date(ctx.deps.now().getTime() + minutes * 60_000));

const book = (client: ReturnType<typeof freshClient>, overrides: Record<string, unknown> = {}) =>
  ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: nextDate(), ...overrides })), client);

async function unavailable(): Promise<string[]> {
  return (await (await ctx.app.request('/api/bookings/unavailable-dates')).json()).unavailableDates;
}

const bookingCount = async () => (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(bookings))[0]!.n;

describe('unpaid holds', () => {
  it('allow 2 per client by default, the number the terms state', () => {
    expect(parseEnv({}).UNPAID_HOLDS_PER_CLIENT).toBe(MAX_UNPAID_HOLDS_PER_CLIENT);
    expect(MAX_UNPAID_HOLDS_PER_CLIENT).toBe(2);
  });

  it('one client holds at most 2 unpaid bookings: the third gets 429 saying so, others still book', async () => {
    freshHour();
    const stranger = freshClient();
    expect((await book(stranger)).status).toBe(201);
    const second = await book(stranger);
    expect(second.status).toBe(201);
    const before = await bookingCount();

    const third = await book(stranger);
    expect(third.status).toBe(429);
    expect((await third.json()).error).toBe(tooManyHolds(2));
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await bookingCount()).toBe(before);

    expect((await book(freshClient())).status).toBe(201);
    // Paying one frees a place: paid bookings are not unpaid holds.
    await db.update(bookings).set({ paymentStatus: 'paid' }).where(sql`${bookings.id} = ${(await second.json()).id}`);
    expect((await book(stranger)).status).toBe(201);
  });

  it('holds that ran out free their places', async () => {
    freshHour();
    const client = freshClient();
    expect((await book(client)).status).toBe(201);
    expect((await book(client)).status).toBe(201);
    expect((await book(client)).status).toBe(429);
    advanceMinutes(61);
    expect((await book(client)).status).toBe(201);
  });

  it('one client cannot keep a date unavailable on its own: booking it again after the hold ran out holds nothing', async () => {
    freshHour();
    const date = nextDate();
    const stranger = freshClient();
    expect((await book(stranger, { preferredDate: date, quantity: capacity })).status).toBe(201);
    expect(await unavailable()).toContain(date);
    // A customer meanwhile is told the date is taken, as for any hold.
    expect((await book(freshClient(), { preferredDate: date, quantity: 5 })).status).toBe(409);

    advanceMinutes(61);
    expect(await unavailable()).not.toContain(date);
    // The same client books the whole date again: accepted, but it does not hold the date.
    expect((await book(stranger, { preferredDate: date, quantity: capacity })).status).toBe(201);
    expect(await unavailable()).not.toContain(date);
    expect((await book(freshClient(), { preferredDate: date, quantity: 5 })).status).toBe(201);
  });

  it('a different client after a lapsed hold holds the date as usual', async () => {
    freshHour();
    const date = nextDate();
    expect((await book(freshClient(), { preferredDate: date, quantity: capacity })).status).toBe(201);
    advanceMinutes(61);
    expect((await book(freshClient(), { preferredDate: date, quantity: capacity })).status).toBe(201);
    expect(await unavailable()).toContain(date);
  });
});

/** A part upload opened (not finished) for `bytes`. */
const openParts = (bytes: number, client = freshClient()) =>
  ctx.app.request('/api/upload/parts', jsonRequest({ name: 'Brand guide.pdf', size: bytes }), client);

function upload(client = freshClient()) {
  const form = new FormData();
  form.set('file', new File([PNG], 'logo.png', { type: 'image/png' }));
  return ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, client);
}

describe('unclaimed uploads: a share per client and unfinished uploads counted', () => {
  it('a client past its share (UNCLAIMED_UPLOAD_CLIENT_MB) gets 429 saying so; another client does not', async () => {
    freshHour();
    await db.delete(uploadSessions);
    const client = freshClient();
    expect((await openParts(5 * MB, client)).status).toBe(201);
    // 5 MB still arriving counts: 5 + 4 is past the 8 MB share.
    const refused = await openParts(4 * MB, client);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(UPLOAD_SHARE_MESSAGE);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A small finished file still fits its share; another client is not affected at all.
    expect((await upload(client)).status).toBe(201);
    expect((await openParts(4 * MB)).status).toBe(201);
  });

  it('unfinished part uploads count against the site quota (UNCLAIMED_UPLOAD_QUOTA_MB)', async () => {
    freshHour();
    await db.delete(uploadSessions);
    // 20 MB in all: 4 × 5 MB opened and never sent fill it; nothing was stored yet.
    for (let index = 0; index < 4; index += 1) expect((await openParts(5 * MB)).status).toBe(201);
    const refused = await openParts(1 * MB);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(UPLOAD_QUOTA_MESSAGE);
    // A day later the unfinished ones no longer count (the hourly job removes them).
    advanceMinutes(24 * 60 + 1);
    expect((await openParts(1 * MB)).status).toBe(201);
  });
});
