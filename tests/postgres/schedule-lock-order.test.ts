/**
 * Moves and rain days take their locks in one order on PostgreSQL: the dates' booking locks first,
 * then the booking rows. A rain day locks its whole window and then the day's rows; a staff move
 * that locked its booking's row first and then waited for a date in that window would close a
 * circle, and PostgreSQL would abort one of the two (a 500). Runs in CI's PostgreSQL pass: PGlite
 * has one connection, so nothing there ever waits.
 */
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { bookings } from '../../db/schema.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext } from '../setup/test-app.ts';
import { testSettings } from '../../src/server/env.ts';

if (!testSettings().testDatabaseUrl) throw new Error('The postgres suite needs TEST_DATABASE_URL (see .ci/run)');
const ctx = await createTestContext();
const db = ctx.deps.db;
ctx.setNow('2028-08-01T09:00:00Z');

/** Requests of this database waiting for an advisory lock. */
async function waitingForDates(): Promise<number> {
  const rows = await db.execute(
    sql`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
  );
  return Number((rows as unknown as { rows: { waiting: number }[] }).rows[0]!.waiting);
}

async function untilWaiting(count: number): Promise<void> {
  for (let tries = 0; (await waitingForDates()) < count; tries++) {
    if (tries > 500) throw new Error(`never saw ${count} requests waiting for a date`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('a staff move during a rain day', () => {
  it('waits for the rain day instead of deadlocking: both answer, and the booking ends where staff put it', async () => {
    const staff = await adminCookie(ctx, 'staff');
    const rainDay = '2028-08-10';
    const target = '2028-08-12';
    const id = await insertRoutableBooking(db, { preferredDate: rainDay, paymentStatus: 'paid' });

    // Someone else holds the target date's lock, so both requests queue behind it: the rain day
    // first (holding the dates before it), then the staff move.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`booking-date:${target}`}))`);
      await released;
    });
    await untilWaiting(0);
    const rain = ctx.app.request('/api/admin/weather-days', adminRequest(staff, { method: 'POST', body: { date: rainDay } }));
    await untilWaiting(1);
    const move = ctx.app.request(`/api/admin/bookings/${id}/reschedule`, adminRequest(staff, { method: 'POST', body: { date: target } }));
    await untilWaiting(2);
    release();
    await holder;

    const [rained, moved] = await Promise.all([rain, move]);
    expect(rained.status).toBe(201);
    expect(moved.status).toBe(200);
    const [row] = await db.select({ preferredDate: bookings.preferredDate }).from(bookings).where(eq(bookings.id, id));
    expect(row!.preferredDate).toBe(target);
  });
});
