import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { scheduleDays, bookings } from '../../db/schema.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';

// The unavailable dates with the instance's memo on, as the site runs it.
const ctx = await createTestContext({ UNAVAILABLE_DATES_CACHE_SECONDS: 10, DAILY_PATCH_CAPACITY: 20 });
const NOW = new Date('2027-06-01T09:00:00Z');
ctx.setNow(NOW);
const secondsLater = (seconds: number) => ctx.setNow(new Date(NOW.getTime() + seconds * 1000));

async function unavailableDates(): Promise<string[]> {
  const response = await ctx.app.request('/api/bookings/unavailable-dates');
  expect(response.status).toBe(200);
  return (await response.json()).unavailableDates;
}

const book = (date: string, quantity: number) =>
  ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: date, quantity })), freshClient());

describe('GET /api/bookings/unavailable-dates caching', () => {
  it('lets browsers and the CDN keep the answer briefly, and refresh it in the background', async () => {
    const response = await ctx.app.request('/api/bookings/unavailable-dates');
    expect(response.headers.get('cache-control')).toBe('public, max-age=15, s-maxage=15, stale-while-revalidate=30');
    expect(response.headers.get('netlify-cdn-cache-control')).toBe('public, durable, s-maxage=15, stale-while-revalidate=30');
    // Everything else the API answers stays uncached.
    const refused = await book('2027-01-05', 10);
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('shows a date as soon as a change through this server follows the payment that filled it', async () => {
    // Only paid bookings fill a date; a payment arrives as Stripe's webhook, a POST like any other.
    const paid = async (response: Response) =>
      ctx.deps.db.update(bookings).set({ paymentStatus: 'paid' }).where(eq(bookings.id, (await response.json()).id));
    expect(await unavailableDates()).not.toContain('2027-07-10');
    const first = await book('2027-07-10', 10);
    expect(first.status).toBe(201);
    await paid(first);
    const second = await book('2027-07-10', 10);
    expect(second.status).toBe(201);
    await paid(second);
    expect(await unavailableDates()).toContain('2027-07-10');
  });

  it('shows a date blocked by an admin at once', async () => {
    const cookie = await adminCookie(ctx);
    expect(await unavailableDates()).not.toContain('2027-07-11');
    const blocked = await ctx.app.request(
      '/api/admin/blocked-dates',
      adminRequest(cookie, { body: { date: '2027-07-11' } }),
    );
    expect(blocked.status).toBeLessThan(300);
    expect(await unavailableDates()).toContain('2027-07-11');
  });

  it('sees changes made elsewhere (another instance) once its copy is 10 seconds old', async () => {
    ctx.setNow(NOW);
    const before = await unavailableDates();
    expect(before).not.toContain('2027-07-12');
    // Written straight to the database, as another function instance would.
    await ctx.deps.db.insert(scheduleDays).values({ date: '2027-07-12', capacity: 0 });
    secondsLater(9);
    expect(await unavailableDates()).toEqual(before);
    secondsLater(10);
    expect(await unavailableDates()).toContain('2027-07-12');
  });

  it('still refuses a booking for a date that filled up elsewhere while the copy was fresh', async () => {
    ctx.setNow(NOW);
    expect(await unavailableDates()).not.toContain('2027-07-13');
    await ctx.deps.db.insert(bookings).values({
      firstName: 'Omar', lastName: 'Patel', email: 'omar@patelprint.co.uk', phone: '0113 496 0000', quantity: 20,
      locationAddress: 'Briggate, Leeds LS1 6HD', workType: 'day', preferredDate: '2027-07-13', totalPricePence: 99_900,
      createdAt: NOW, paymentStatus: 'paid',
    });
    expect(await unavailableDates()).not.toContain('2027-07-13');
    const refused = await book('2027-07-13', 5);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error).toBe('Date Unavailable');
  });
});
