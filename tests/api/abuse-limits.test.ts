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

  it('an unpaid booking makes no date unavailable: the next customer books it, and paid bookings alone fill a day', async () => {
    freshHour();
    const date = nextDate();
    const stranger = freshClient();
    expect((await book(stranger, { preferredDate: date, quantity: capacity })).status).toBe(201);
    expect(await unavailable()).not.toContain(date);
    // The next customer is not turned away by a promise to pay.
    const customer = await book(freshClient(), { preferredDate: date, quantity: 5 });
    expect(customer.status).toBe(201);
    // Whoever pays first gets the day (the webhook marks it paid; payments.test.ts and
    // unpaid-holds.test.ts cover the checkout of the other one).
    await db.update(bookings).set({ paymentStatus: 'paid' }).where(sql`${bookings.id} = ${(await customer.json()).id}`);
    await db.update(bookings).set({ paymentStatus: 'paid', quantity: capacity }).where(sql`${bookings.preferredDate} = ${date} and ${bookings.quantity} = 5`);
    expect(await unavailable()).toContain(date);
    expect((await book(freshClient(), { preferredDate: date, quantity: 5 })).status).toBe(409);
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

// Part 0 of a PDF: its magic bytes, then filler to the part's exact length.
const pdfPart = (length: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(length).fill(0x20);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  return bytes;
};
/** Opens a part upload of `bytes` and sends its first part (4 MB, or all of a smaller file). */
async function sendFirstPart(bytes: number, client = freshClient()) {
  const opened = await (await openParts(bytes, client)).json();
  const part = pdfPart(Math.min(bytes, opened.partSize));
  const sent = await ctx.app.request(`/api/upload/parts/${opened.uploadId}/0`, { method: 'PUT', body: part, headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/octet-stream' } }, client);
  expect(sent.status).toBe(200);
}

describe('unclaimed uploads: a share per client and unfinished uploads counted by the bytes received', () => {
  it('a client past its share (UNCLAIMED_UPLOAD_CLIENT_MB) gets 429 saying so; another client does not', async () => {
    freshHour();
    await db.delete(uploadSessions);
    const client = freshClient();
    await sendFirstPart(5 * MB, client);
    // 4 MB received counts: 4 + 5 is past the 8 MB share.
    const refused = await openParts(5 * MB, client);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(UPLOAD_SHARE_MESSAGE);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // A small finished file still fits its share; another client is not affected at all.
    expect((await upload(client)).status).toBe(201);
    expect((await openParts(5 * MB)).status).toBe(201);
  });

  it('unfinished part uploads count their received bytes against the site quota (UNCLAIMED_UPLOAD_QUOTA_MB), until idle', async () => {
    freshHour();
    await db.delete(uploadSessions);
    // 20 MB in all: 5 clients' 4 MB parts fill it.
    const senders = Array.from({ length: 5 }, () => freshClient());
    for (const sender of senders) await sendFirstPart(4 * MB, sender);
    const refused = await openParts(1 * MB, senders[0]);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(UPLOAD_QUOTA_MESSAGE);
    // A client that stored nothing pays in work instead (abuse-hardening.test.ts solves it).
    expect((await openParts(1 * MB)).status).toBe(428);
    // Idle for 15 minutes, the unfinished ones have ended and no longer count.
    advanceMinutes(16);
    expect((await openParts(1 * MB, senders[0])).status).toBe(201);
  });
});
