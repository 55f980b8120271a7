import { describe, expect, it } from 'vitest';
import { scheduleDays, bookings } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { judgeAvailability, londonToday } from '../../src/server/services/bookings/availability.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const NOW = new Date('2027-07-01T09:00:00Z');
ctx.setNow(NOW);

const hoursAfter = (hours: number) => new Date(NOW.getTime() + hours * 3_600_000);

interface Held {
  date: string;
  quantity: number;
  createdAt?: Date;
  paymentStatus?: 'unpaid' | 'processing' | 'paid' | 'failed';
  status?: string;
  archived?: boolean;
}

// Paid unless a test says otherwise: only paid (or processing) bookings hold a date.
async function insertBooking({ date, quantity, createdAt = NOW, paymentStatus = 'paid', status = 'pending', archived = false }: Held) {
  await db.insert(bookings).values({
    firstName: 'Omar',
    lastName: 'Patel',
    email: 'omar@patelprint.co.uk',
    phone: '0113 496 0000',
    quantity,
    locationAddress: 'Briggate, Leeds LS1 6HD',
    workType: 'day',
    preferredDate: date,
    totalPricePence: 59_900,
    status,
    paymentStatus,
    archived,
    createdAt,
  });
}

async function unavailableDates(app = ctx.app): Promise<string[]> {
  const response = await app.request('/api/bookings/unavailable-dates');
  expect(response.status).toBe(200);
  return (await response.json()).unavailableDates;
}

async function reset() {
  await db.delete(bookings);
  await db.delete(scheduleDays);
  ctx.setNow(NOW);
}

describe('GET /api/bookings/unavailable-dates', () => {
  it('answers an empty list when nothing is blocked or full', async () => {
    await reset();
    const response = await ctx.app.request('/api/bookings/unavailable-dates');
    expect(await response.json()).toEqual({ unavailableDates: [] });
  });

  it('lists admin-blocked dates from today on, sorted, and not past ones', async () => {
    await reset();
    await db.insert(scheduleDays).values([
      { date: '2027-07-20', capacity: 0, reason: 'Team holiday' },
      { date: '2027-07-01', capacity: 0, reason: 'Today' },
      { date: '2027-06-30', capacity: 0, reason: 'Yesterday' },
      { date: '2027-07-05', capacity: 0 },
    ]);
    expect(await unavailableDates()).toEqual(['2027-07-01', '2027-07-05', '2027-07-20']);
  });

  it('lists a date once its booked patches reach the daily capacity (40)', async () => {
    await reset();
    await insertBooking({ date: '2027-07-10', quantity: 30 });
    await insertBooking({ date: '2027-07-10', quantity: 9 });
    expect(await unavailableDates()).toEqual([]);
    await insertBooking({ date: '2027-07-10', quantity: 1 });
    expect(await unavailableDates()).toEqual(['2027-07-10']);
  });

  it('lists a date that is both blocked and full once', async () => {
    await reset();
    await insertBooking({ date: '2027-07-11', quantity: 40 });
    await db.insert(scheduleDays).values({ date: '2027-07-11', capacity: 0 });
    expect(await unavailableDates()).toEqual(['2027-07-11']);
  });

  it('leaves out full dates in the past', async () => {
    await reset();
    await insertBooking({ date: '2027-06-15', quantity: 40, paymentStatus: 'paid' });
    expect(await unavailableDates()).toEqual([]);
  });

  it('does not count cancelled or archived bookings', async () => {
    await reset();
    await insertBooking({ date: '2027-07-12', quantity: 40, status: 'cancelled' });
    await insertBooking({ date: '2027-07-12', quantity: 40, archived: true, paymentStatus: 'paid' });
    expect(await unavailableDates()).toEqual([]);
  });

  it('follows the DAILY_PATCH_CAPACITY setting', async () => {
    await reset();
    await insertBooking({ date: '2027-07-13', quantity: 10 });
    const small = createApp({ ...ctx.deps, env: { ...ctx.deps.env, DAILY_PATCH_CAPACITY: 10 } });
    expect(await unavailableDates(small)).toEqual(['2027-07-13']);
    expect(await unavailableDates()).toEqual([]);
  });
});

describe('the customer who pays first gets the day: unpaid bookings hold nothing', () => {
  it('leaves a date bookable whatever unpaid bookings it has', async () => {
    await reset();
    await insertBooking({ date: '2027-07-14', quantity: 40, paymentStatus: 'unpaid' });
    await insertBooking({ date: '2027-07-14', quantity: 40, paymentStatus: 'failed' });
    expect(await unavailableDates()).toEqual([]);
  });

  it('five addresses booking a whole day at once never make it unavailable for the next customer', async () => {
    await reset();
    const date = '2027-07-21';
    const strangers = Array.from({ length: 5 }, () => freshClient());
    const responses = await Promise.all(
      strangers.map((client, index) =>
        ctx.app.request(
          '/api/bookings',
          jsonRequest(bookingPayload({ preferredDate: date, quantity: 40, email: `stranger${index}@mailinator.co.uk` })),
          client,
        ),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([201, 201, 201, 201, 201]);
    expect(await unavailableDates()).toEqual([]);
    const customer = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: date, quantity: 10 })), freshClient());
    expect(customer.status).toBe(201);
  });

  it('keeps paid and processing bookings holding their date', async () => {
    await reset();
    await insertBooking({ date: '2027-07-15', quantity: 40, paymentStatus: 'paid' });
    await insertBooking({ date: '2027-07-16', quantity: 40, paymentStatus: 'processing' });
    await insertBooking({ date: '2027-07-17', quantity: 40, paymentStatus: 'failed' });
    ctx.setNow(hoursAfter(72));
    expect(await unavailableDates()).toEqual(['2027-07-15', '2027-07-16']);
  });

  it('refuses a booking only for the room paid bookings took', async () => {
    await reset();
    const book = () =>
      ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-07-18', quantity: 10 })), freshClient());
    await insertBooking({ date: '2027-07-18', quantity: 35, paymentStatus: 'unpaid' });
    expect((await book()).status).toBe(201);
    await insertBooking({ date: '2027-07-18', quantity: 35 });
    expect((await book()).status).toBe(409);
  });
});

describe('judgeAvailability: does a booking fit its date? (capacity 40)', () => {
  it.each([
    // isBlocked, booked, quantity → available / reason, free patches
    [false, 0, 40, 'available', 40],
    [false, 35, 5, 'available', 5],
    [false, 35, 6, 'not-enough-room', 5],
    [false, 38, 5, 'not-enough-room', 2],
    [false, 0, 41, 'over-daily-capacity', 40],
    [false, 10, 41, 'over-daily-capacity', 30],
    [false, 40, 5, 'full', 0],
    // Bookings made before the capacity was lowered can take a day past it.
    [false, 45, 5, 'full', 0],
    [false, 40, 41, 'full', 0],
    [true, 0, 5, 'blocked', 40],
    [true, 0, 41, 'blocked', 40],
  ] as const)('blocked %s, %i booked, %i more → %s with %i free', (isBlocked, bookedPatches, quantity, outcome, free) => {
    const answer = judgeAvailability({ isBlocked, bookedPatches, quantity, capacity: 40 });
    expect(answer.available ? 'available' : answer.reason).toBe(outcome);
    expect(answer.freePatches).toBe(free);
  });
});

describe('londonToday', () => {
  it.each([
    ['2027-07-01T09:00:00Z', '2027-07-01'],
    // British Summer Time: UTC+1.
    ['2027-07-09T23:30:00Z', '2027-07-10'],
    ['2027-07-09T22:59:59Z', '2027-07-09'],
    // Greenwich Mean Time in winter.
    ['2026-12-31T23:30:00Z', '2026-12-31'],
    ['2027-01-01T00:00:00Z', '2027-01-01'],
    // The spring change: 01:00 UTC on 28 March 2027 becomes 02:00 BST.
    ['2027-03-27T23:59:00Z', '2027-03-27'],
  ])('%s → %s', (instant, date) => {
    expect(londonToday(new Date(instant))).toBe(date);
  });
});
