import { and, eq, gt, gte, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { UNPAID_HOLD_MINUTES } from '../../../domain/booking-limits.ts';
import type { Database } from '../../../../db/client.ts';
import { blockedDates, bookings } from '../../../../db/schema.ts';

/**
 * Which dates can still be booked ("Availability"). A date is unavailable when an admin
 * blocked it or when the patches booked on it reach the daily capacity (DAILY_PATCH_CAPACITY).
 * One rule for GET /api/bookings/unavailable-dates and for booking creation.
 *
 * The customer who pays first gets the day (api.md "Abuse and availability": no date is kept
 * unavailable by promises): a booking holds capacity while it is neither cancelled nor archived
 * and is paid or being paid. An unpaid booking holds nothing, so a stranger's unpaid bookings
 * never make a date unavailable for the next customer; the date's room is judged again when
 * payment starts (payment-intent.ts: 409 when paid bookings already fill it, the customer's
 * booking kept) and when a payment lands anyway (payment-success.ts: payment_over_capacity).
 */
export { UNPAID_HOLD_MINUTES } from '../../../domain/booking-limits.ts';

/**
 * One client holds at most UNPAID_HOLDS_PER_CLIENT (2) unpaid bookings made within
 * UNPAID_HOLD_MINUTES (bookings.ts; counted under clientKey, one IPv4 address or IPv6 /64).
 */
/** The 429 for a client at its limit of unpaid holds (UNPAID_HOLDS_PER_CLIENT, 2 by api.md). */
export const tooManyHolds = (limit: number) =>
  `You already have ${limit} unpaid bookings waiting for payment. Please pay for one of them, or wait an hour until its hold ends, before booking again.`;

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

/**
 * The bookings that hold a share of their date's capacity: paid or being paid (see above).
 * `_now` is kept for the callers: what holds no longer depends on the time.
 */
export function holdsCapacity(_now: Date): SQL {
  return and(ne(bookings.status, 'cancelled'), eq(bookings.archived, false), inArray(bookings.paymentStatus, ['paid', 'processing']))!;
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
  { date, quantity, now, capacity, clients = [] }: AvailabilityRules & { date: string; quantity: number; clients?: string[] },
): Promise<DateAvailability & { clientHolds: number }> {
  await lockDate(tx, date, clients[0]);
  // One statement after the lock (which must come first: a statement reads the rows committed
  // before it starts, so this one sees every booking made while it waited for the lock).
  const holdStart = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  const clientHolds = clients.length
    ? sql<number>`(select cast(count(*) as integer) from ${bookings} where ${and(
        inArray(bookings.holdClient, clients),
        eq(bookings.paymentStatus, 'unpaid'),
        ne(bookings.status, 'cancelled'),
        eq(bookings.archived, false),
        gt(bookings.createdAt, holdStart),
      )})`
    : sql<number>`0`;
  const [row] = await tx
    .select({
      isBlocked: sql<boolean>`exists (select 1 from ${blockedDates} where ${blockedDates.date} = ${date})`,
      patches: bookedPatches,
      clientHolds: clientHolds.mapWith(Number),
    })
    .from(bookings)
    .where(and(eq(bookings.preferredDate, date), holdsCapacity(now)));
  const judged = judgeAvailability({ isBlocked: Boolean(row?.isBlocked), bookedPatches: row?.patches ?? 0, quantity, capacity });
  return { ...judged, clientHolds: row?.clientHolds ?? 0 };
}

/** The patches that bookings hold on `date` at `now` (see holdsCapacity). */
export async function heldPatches(db: Database, date: string, now: Date): Promise<number> {
  const [held] = await db
    .select({ patches: bookedPatches })
    .from(bookings)
    .where(and(eq(bookings.preferredDate, date), holdsCapacity(now)));
  return held?.patches ?? 0;
}

/**
 * Serialises bookings for one date until the transaction ends (PostgreSQL advisory lock), and,
 * given a client, that client's bookings too (so parallel requests cannot pass its hold count
 * together). The client's lock is always taken first, in the same statement, so two bookings
 * never wait on each other in opposite orders.
 */
export async function lockDate(tx: Database, date: string, client?: string): Promise<void> {
  const dateLock = sql`pg_advisory_xact_lock(hashtext(${`booking-date:${date}`}))`;
  await tx.execute(
    client
      ? sql`select pg_advisory_xact_lock(hashtext(${`booking-client:${client}`})), ${dateLock}`
      : sql`select ${dateLock}`,
  );
}
