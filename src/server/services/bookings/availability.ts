import { and, eq, gt, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import { UNPAID_HOLD_MINUTES } from '../../../domain/booking-limits.ts';
import { londonDate } from '../../../domain/schedule.ts';
import type { Database } from '../../../../db/client.ts';
import { bookingInstallationDay, bookings, scheduleDays, weatherDays } from '../../../../db/schema.ts';

/**
 * Which dates can still be booked ("Availability"). A date is unavailable when it is closed (staff
 * set its capacity to 0 or blocked it, or a weather day closed it for every region) or when the
 * patches booked on it reach its capacity (its own, else DAILY_PATCH_CAPACITY). One rule for GET
 * /api/bookings/unavailable-dates, booking creation, payments and every reschedule.
 *
 * A booking's date here is its day (db/schema.ts bookingInstallationDay: the installation date in
 * London once staff set one, else the preferred date), the same day the crews work: moving a
 * booking frees the old day and fills the new one.
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
 * The 429 for a client at its limit: one client has at most MAX_UNPAID_HOLDS_PER_CLIENT (2 by
 * api.md) unpaid bookings made within UNPAID_HOLD_MINUTES (bookings.ts; counted under clientKey,
 * one IPv4 address or IPv6 /64).
 */
export const tooManyHolds = (limit: number) =>
  `You already have ${limit} unpaid bookings waiting for payment. Please pay for one of them, or try again in an hour.`;

/** The calendar date in the UK at an instant, 'YYYY-MM-DD' (the business works on UK dates). */
export const londonToday = (now: Date): string => londonDate(now);

/** A booking's day (the one expression, indexed): what every capacity count groups by. */
export const bookingDay = (): SQL => bookingInstallationDay(bookings);
/** The same, read as 'YYYY-MM-DD' text. */
export const bookingDayText = (): SQL<string> => sql<string>`(${bookingDay()})::text`;

/**
 * The bookings on their day's work: neither cancelled nor archived, and not past step 4 (a
 * completed project is off the schedule). The Schedule lists them, unpaid ones marked, and a rain
 * day moves them.
 */
export function isOnSchedule(): SQL {
  return and(ne(bookings.status, 'cancelled'), eq(bookings.archived, false), lte(bookings.currentStep, 4))!;
}

/** Payment states that hold capacity: paid, or being paid (see above). */
export const HOLDING_PAYMENT_STATES = ['paid', 'processing'] as const;

/**
 * The bookings that hold a share of their day's capacity: the one place that says which. On the
 * schedule and paid or being paid (see above); no clock: what holds does not depend on the time.
 */
export function holdsCapacity(): SQL {
  return and(isOnSchedule(), inArray(bookings.paymentStatus, [...HOLDING_PAYMENT_STATES]))!;
}

const bookedPatches = sql<number>`cast(coalesce(sum(${bookings.quantity}), 0) as integer)`.mapWith(Number);

export interface AvailabilityRules {
  now: Date;
  /** DAILY_PATCH_CAPACITY */
  capacity: number;
}

/** A day's capacity: its own (schedule_days), else the default. */
export const dayCapacity = (date: SQL | string, defaultCapacity: number): SQL<number> =>
  sql<number>`coalesce((select ${scheduleDays.capacity} from ${scheduleDays} where ${scheduleDays.date} = ${date}), ${defaultCapacity})`.mapWith(Number);

/**
 * Whether `date` is closed for a booking in `region`: capacity 0 (closed or blocked), or a weather
 * day on it for every region or for that one.
 */
export const isDayClosed = (date: SQL | string, region: SQL | string | null): SQL<boolean> =>
  sql<boolean>`(exists (select 1 from ${scheduleDays} where ${scheduleDays.date} = ${date} and ${scheduleDays.capacity} = 0) or exists (select 1 from ${weatherDays} where ${weatherDays.date} = ${date} and (cardinality(${weatherDays.regions}) = 0${
    region === null ? sql`` : sql` or ${region} = any(${weatherDays.regions})`
  })))`;

/** Today-or-later dates that are closed or full, sorted. */
export async function listUnavailableDates(db: Database, { now, capacity }: AvailabilityRules): Promise<string[]> {
  const today = londonToday(now);
  const [closed, weather, full] = await Promise.all([
    db.select({ date: scheduleDays.date }).from(scheduleDays).where(and(gte(scheduleDays.date, today), eq(scheduleDays.capacity, 0))),
    db
      .select({ date: weatherDays.date })
      .from(weatherDays)
      .where(and(gte(weatherDays.date, today), sql`cardinality(${weatherDays.regions}) = 0`)),
    db
      .select({ date: bookingDayText() })
      .from(bookings)
      .leftJoin(scheduleDays, eq(scheduleDays.date, bookingDay()))
      .where(and(gte(bookingDay(), today), holdsCapacity()))
      .groupBy(bookingDay(), scheduleDays.capacity)
      .having(sql`sum(${bookings.quantity}) >= coalesce(${scheduleDays.capacity}, ${capacity})`),
  ]);
  return [...new Set([...closed, ...weather, ...full].map((row) => row.date))].sort();
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

/**
 * Pure: how `quantity` more patches fit a date with `bookedPatches` already held. `capacity` is
 * the default daily capacity (more than it fits no day); `dayCapacity` the date's own, when set.
 */
export function judgeAvailability({
  isBlocked,
  bookedPatches,
  quantity,
  capacity,
  dayCapacity = capacity,
}: {
  isBlocked: boolean;
  bookedPatches: number;
  quantity: number;
  capacity: number;
  dayCapacity?: number;
}): DateAvailability {
  const freePatches = Math.max(0, dayCapacity - bookedPatches);
  const refuse = (reason: UnavailableReason) => ({ available: false as const, reason, bookedPatches, freePatches });
  if (isBlocked || dayCapacity === 0) return refuse('blocked');
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
  {
    date,
    quantity,
    now,
    capacity,
    clients = [],
    region = null,
    excludeBookingId,
  }: AvailabilityRules & {
    date: string;
    quantity: number;
    clients?: string[];
    /** The booking's region: a weather day closed for it closes the date for this booking. */
    region?: string | null;
    /** A booking being moved: its own patches never count against it. */
    excludeBookingId?: number;
  },
): Promise<DateAvailability & { clientHolds: number; dayCapacity: number }> {
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
      isBlocked: isDayClosed(sql`${date}::date`, region),
      dayCapacity: dayCapacity(sql`${date}::date`, capacity),
      patches: bookedPatches,
      clientHolds: clientHolds.mapWith(Number),
    })
    .from(bookings)
    .where(and(eq(bookingDay(), date), holdsCapacity(), excludeBookingId === undefined ? undefined : ne(bookings.id, excludeBookingId)));
  const ownCapacity = row?.dayCapacity ?? capacity;
  const judged = judgeAvailability({ isBlocked: Boolean(row?.isBlocked), bookedPatches: row?.patches ?? 0, quantity, capacity, dayCapacity: ownCapacity });
  return { ...judged, clientHolds: row?.clientHolds ?? 0, dayCapacity: ownCapacity };
}

/** The patches that bookings hold on `date` (see holdsCapacity). */
export async function heldPatches(db: Database, date: string): Promise<number> {
  const [held] = await db
    .select({ patches: bookedPatches })
    .from(bookings)
    .where(and(eq(bookingDay(), date), holdsCapacity()));
  return held?.patches ?? 0;
}

/** A day's capacity in patches: its own, else `defaultCapacity`. */
export async function capacityOn(db: Database, date: string, defaultCapacity: number): Promise<number> {
  const [row] = await db.select({ capacity: dayCapacity(date, defaultCapacity) }).from(sql`(select 1) as one`);
  return row!.capacity;
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
