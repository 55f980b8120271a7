import { and, eq, gt, gte, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { blockedDates, bookings } from '../../../../db/schema.ts';

/**
 * Which dates can still be booked ("Availability"). A date is unavailable when an admin
 * blocked it or when the patches booked on it reach the daily capacity (DAILY_PATCH_CAPACITY).
 * One rule for GET /api/bookings/unavailable-dates and for booking creation.
 *
 * A booking holds capacity while it is neither cancelled nor archived and is either paid (or
 * being paid) or younger than UNPAID_HOLD_MINUTES. The hold is short because booking costs a
 * stranger nothing: an anonymous, unpaid booking of a whole day's patches blocks that date for
 * others only until the hold ends, long enough to pay by card, and an abandoned checkout frees
 * its date within the hour. A booking whose hold lapsed can still be paid while its date has
 * room (payments.ts, isDateStillHeld); otherwise checkout answers the date's 409.
 */
export const UNPAID_HOLD_MINUTES = 60;

const LONDON_DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar date in the UK at an instant, 'YYYY-MM-DD' (the business works on UK dates). */
export function londonToday(now: Date): string {
  const parts = Object.fromEntries(LONDON_DATE.formatToParts(now).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The bookings that hold a share of their date's capacity at `now`. */
export function holdsCapacity(now: Date): SQL {
  const holdStart = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  return and(
    ne(bookings.status, 'cancelled'),
    eq(bookings.archived, false),
    or(inArray(bookings.paymentStatus, ['paid', 'processing']), gt(bookings.createdAt, holdStart)),
  )!;
}

const bookedPatches = sql<number>`cast(coalesce(sum(${bookings.quantity}), 0) as integer)`.mapWith(Number);

export interface AvailabilityRules {
  now: Date;
  /** DAILY_PATCH_CAPACITY */
  capacity: number;
}

/** Today-or-later dates that are blocked or full, sorted. */
export async function listUnavailableDates(db: Database, { now, capacity }: AvailabilityRules): Promise<string[]> {
  const today = londonToday(now);
  const [blocked, full] = await Promise.all([
    db.select({ date: blockedDates.date }).from(blockedDates).where(gte(blockedDates.date, today)),
    db
      .select({ date: bookings.preferredDate })
      .from(bookings)
      .where(and(gte(bookings.preferredDate, today), holdsCapacity(now)))
      .groupBy(bookings.preferredDate)
      .having(sql`sum(${bookings.quantity}) >= ${capacity}`),
  ]);
  return [...new Set([...blocked, ...full].map((row) => row.date))].sort();
}

/**
 * Why a booking does not fit its date. `blocked` and `full` are the date's own state (it is in
 * the unavailable list); `not-enough-room` means the date still has `freePatches` but fewer than
 * asked; `over-daily-capacity` means no date could take that many patches.
 */
export type UnavailableReason = 'blocked' | 'full' | 'not-enough-room' | 'over-daily-capacity';

export type DateAvailability =
  | { available: true; bookedPatches: number; freePatches: number }
  | { available: false; reason: UnavailableReason; bookedPatches: number; freePatches: number };

/** Pure: how `quantity` more patches fit a date with `bookedPatches` already held. */
export function judgeAvailability({
  isBlocked,
  bookedPatches,
  quantity,
  capacity,
}: {
  isBlocked: boolean;
  bookedPatches: number;
  quantity: number;
  capacity: number;
}): DateAvailability {
  const freePatches = Math.max(0, capacity - bookedPatches);
  const refuse = (reason: UnavailableReason) => ({ available: false as const, reason, bookedPatches, freePatches });
  if (isBlocked) return refuse('blocked');
  if (freePatches === 0) return refuse('full');
  if (quantity > capacity) return refuse('over-daily-capacity');
  if (quantity > freePatches) return refuse('not-enough-room');
  return { available: true, bookedPatches, freePatches };
}

/**
 * Whether `quantity` more patches fit on `date`: not blocked, and the patches already held plus
 * these stay within the capacity. It first takes the date's lock for the rest of the caller's
 * transaction (so call it inside one), so two requests for the same date cannot both read the
 * same remaining room and both take it.
 */
export async function checkDateAvailability(
  tx: Database,
  { date, quantity, now, capacity }: AvailabilityRules & { date: string; quantity: number },
): Promise<DateAvailability> {
  await lockDate(tx, date);
  // One statement after the lock (which must come first: a statement reads the rows committed
  // before it starts, so this one sees every booking made while it waited for the lock).
  const [row] = await tx
    .select({
      isBlocked: sql<boolean>`exists (select 1 from ${blockedDates} where ${blockedDates.date} = ${date})`,
      patches: bookedPatches,
    })
    .from(bookings)
    .where(and(eq(bookings.preferredDate, date), holdsCapacity(now)));
  return judgeAvailability({ isBlocked: Boolean(row?.isBlocked), bookedPatches: row?.patches ?? 0, quantity, capacity });
}

/** The patches that bookings hold on `date` at `now` (see holdsCapacity). */
export async function heldPatches(db: Database, date: string, now: Date): Promise<number> {
  const [held] = await db
    .select({ patches: bookedPatches })
    .from(bookings)
    .where(and(eq(bookings.preferredDate, date), holdsCapacity(now)));
  return held?.patches ?? 0;
}

/** Serialises bookings for one date until the transaction ends (PostgreSQL advisory lock). */
export async function lockDate(tx: Database, date: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`booking-date:${date}`}))`);
}
