import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { bookings, uploadedFiles } from '../../db/schema.ts';
import { bookingsUsing } from '../fixtures/booking-files.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// Races as many requests at once as a busy launch day might. On PGlite they queue on one
// connection; in CI the same file runs on PostgreSQL through the production driver with a
// pool, where they truly overlap (tests/setup/test-db.ts).
const ctx = await createTestContext();

describe('concurrency', () => {
  it('50 parallel bookings for a day paid bookings have nearly filled: each fits the room paid ones left, none takes it', async () => {
    const date = '2027-07-20';
    const capacity = ctx.deps.env.DAILY_PATCH_CAPACITY;
    await ctx.deps.db.insert(bookings).values({
      firstName: 'Omar', lastName: 'Patel', email: 'omar@patelprint.co.uk', phone: '0113 496 0000', quantity: capacity - 5,
      locationAddress: 'Briggate, Leeds LS1 6HD', workType: 'day', preferredDate: date, totalPricePence: 99_900, paymentStatus: 'paid',
    });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ quantity: 5, preferredDate: date, email: `owner${index}@parallelcafe.co.uk` })), freshClient()),
      ),
    );
    // The customer who pays first gets the room (payments.test.ts); unpaid bookings hold none.
    expect(responses.map((response) => response.status).every((status) => status === 201)).toBe(true);
    const [held] = await ctx.deps.db
      .select({ patches: sql<number>`cast(sum(${bookings.quantity}) as integer)` })
      .from(bookings)
      .where(sql`${bookings.preferredDate} = ${date} and ${bookings.paymentStatus} = 'paid'`);
    expect(held!.patches).toBe(capacity - 5);
    const tooMany = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ quantity: 10, preferredDate: date })), freshClient());
    expect(tooMany.status).toBe(409);
  });

  it('10 parallel bookings naming one fresh upload: one booking gets it, the others are told it is not found', async () => {
    const fileName = 'c0ffee00-0000-4000-8000-000000000010.png';
    await ctx.deps.db.insert(uploadedFiles).values({ fileName, originalName: 'race-logo.png', fileSize: 1234, mimeType: 'image/png', storage: 'disk' });
    const file = { filename: fileName, originalName: 'race-logo.png', fileSize: 1234, mimeType: 'image/png' };
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ quantity: 5, preferredDate: `2027-08-${String(index + 10)}`, uploadedFiles: [file] })), freshClient()),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(400)]);
    const winner = responses.find((response) => response.status === 201)!;
    expect(await bookingsUsing(ctx.deps.db, fileName)).toEqual([(await winner.json()).id]);
  });

  it('20 parallel submits with one Idempotency-Key make one booking and 20 identical answers', async () => {
    const client = freshClient();
    const payload = bookingPayload({ preferredDate: '2027-07-21', email: 'double.click@parallelcafe.co.uk' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.app.request('/api/bookings', jsonRequest(payload, { headers: { 'Idempotency-Key': 'launch-day-0001' } }), client),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([...Array(19).fill(200), 201].sort());
    const bodies = await Promise.all(responses.map((response) => response.json()));
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    const rows = await ctx.deps.db.select().from(bookings).where(eq(bookings.email, 'double.click@parallelcafe.co.uk'));
    expect(rows).toHaveLength(1);
  });
});
