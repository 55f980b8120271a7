import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, scheduleDays, weatherDays } from '../../../../db/schema.ts';
import { addDays, isIsoDate } from '../../../domain/format.ts';
import { badRequest, conflict } from '../../app/errors.ts';
import { HOLDING_PAYMENT_STATES, bookingDay, bookingDayText, holdsCapacity, isOnSchedule, lockDate } from '../bookings/availability.ts';
import { writeChannelLog } from '../messages/channel-log.ts';

// The schedule's days (api.md "Schedule and weather days"): each day's capacity (its own row in
// schedule_days, else DAILY_PATCH_CAPACITY; 0 closes it), the weather days that closed it for some
// regions, and the bookings that hold its capacity, counted by the booking's one day.

export const MAX_SCHEDULE_DAYS = 62;
export const MAX_DAY_CAPACITY = 1000;
export const MAX_DAY_REASON_LENGTH = 200;

export const SCHEDULE_MESSAGES = {
  invalidDate: 'Please enter a date as YYYY-MM-DD.',
  invalidRange: `Please give from and to as YYYY-MM-DD, to on or after from, at most ${MAX_SCHEDULE_DAYS} days.`,
  invalidCapacity: `Capacity must be a whole number of patches from 0 to ${MAX_DAY_CAPACITY}.`,
  reasonTooLong: `Please keep the reason under ${MAX_DAY_REASON_LENGTH} characters.`,
  belowPaid: (paid: number, capacity: number) =>
    `This day already has ${paid} paid patches, more than a capacity of ${capacity}. Move ${paid - capacity} paid patches to another day first.`,
} as const;

export interface ScheduleBooking {
  id: number;
  businessName: string;
  quantity: number;
  workType: 'day' | 'night';
  step: number;
  paymentStatus: string;
  region: string | null;
  /** The outward code ('M4'): where the forecast is asked for. */
  postcode: string | null;
}

export interface ScheduleDay {
  date: string;
  capacity: number;
  /** Patches of every booking on the day's work, unpaid ones included. */
  booked: number;
  paid: number;
  unpaid: number;
  /** Patches holding the day's capacity (paid or being paid): the day's room is capacity − held. */
  held: number;
  closed: boolean;
  reason?: string;
  /** Regions a weather day closed this date for (the whole day when `closed`). */
  closedRegions?: string[];
  forecast?: Record<string, { precipitationProbability: number | null; precipitationMm: number | null }>;
  bookings: ScheduleBooking[];
}

/** The dates from `from` to `to`, both included (400 past MAX_SCHEDULE_DAYS). */
export function scheduleRange(from: string | undefined, to: string | undefined): string[] {
  if (!from || !to || !isIsoDate(from) || !isIsoDate(to) || to < from) throw badRequest(SCHEDULE_MESSAGES.invalidRange);
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    dates.push(date);
    if (dates.length > MAX_SCHEDULE_DAYS) throw badRequest(SCHEDULE_MESSAGES.invalidRange);
  }
  return dates;
}

/** What a day's name says about its customer: the business, else the person. */
export const displayName = sql<string>`coalesce(nullif(${bookings.businessName}, ''), ${bookings.firstName} || ' ' || ${bookings.lastName})`;

/**
 * Every date of the range with its capacity, the patches booked on it (paid and not yet), whether
 * it is closed and why, and its bookings. Three indexed reads whatever the range.
 */
export async function loadSchedule(
  db: Database,
  dates: readonly string[],
  { capacity, inTransaction = false }: { capacity: number; inTransaction?: boolean },
): Promise<ScheduleDay[]> {
  const from = dates[0]!;
  const to = dates.at(-1)!;
  const own = () => db.select().from(scheduleDays).where(and(gte(scheduleDays.date, from), lte(scheduleDays.date, to)));
  const weather = () =>
    db
      .select({ date: weatherDays.date, regions: weatherDays.regions })
      .from(weatherDays)
      .where(and(gte(weatherDays.date, from), lte(weatherDays.date, to)));
  const held = () =>
    db
      .select({
        id: bookings.id,
        day: bookingDayText(),
        businessName: displayName,
        quantity: bookings.quantity,
        workType: bookings.workType,
        step: bookings.currentStep,
        paymentStatus: bookings.paymentStatus,
        region: bookings.region,
        postcode: bookings.postcode,
      })
      .from(bookings)
      .where(and(gte(bookingDay(), from), lte(bookingDay(), to), isOnSchedule()))
      .orderBy(asc(bookings.region), asc(bookings.id));
  // Side by side on the pool; one after another inside a transaction (a rain day's plan), whose
  // statements share one connection.
  const [ownRows, weatherRows, heldRows] = inTransaction
    ? [await own(), await weather(), await held()]
    : await Promise.all([own(), weather(), held()]);
  const byDate = new Map(dates.map((date): [string, ScheduleDay] => [date, { date, capacity, booked: 0, paid: 0, unpaid: 0, held: 0, closed: false, bookings: [] }]));
  for (const row of ownRows) {
    const day = byDate.get(row.date)!;
    day.capacity = row.capacity;
    day.closed = row.capacity === 0;
    if (row.reason) day.reason = row.reason;
  }
  for (const row of weatherRows) {
    const day = byDate.get(row.date)!;
    if (row.regions.length === 0) {
      day.closed = true;
      day.reason ??= 'weather';
    } else {
      day.closedRegions = [...new Set([...(day.closedRegions ?? []), ...row.regions])].sort();
      day.reason ??= 'weather';
    }
  }
  for (const { day: date, ...booking } of heldRows) {
    const day = byDate.get(date)!;
    day.bookings.push(booking);
    day.booked += booking.quantity;
    if (booking.paymentStatus === 'paid') day.paid += booking.quantity;
    if ((HOLDING_PAYMENT_STATES as readonly string[]).includes(booking.paymentStatus)) day.held += booking.quantity;
    else day.unpaid += booking.quantity;
  }
  return [...byDate.values()];
}

/** Why a date is closed: its own reason, else 'weather' for a weather day; null when it has none. */
export async function dayReason(db: Database, date: string): Promise<string | null> {
  const [own] = await db.select({ reason: scheduleDays.reason }).from(scheduleDays).where(eq(scheduleDays.date, date));
  if (own?.reason) return own.reason;
  const [weather] = await db.select({ id: weatherDays.id }).from(weatherDays).where(eq(weatherDays.date, date)).limit(1);
  return weather ? 'weather' : null;
}

/** Patches already paid for on `date` (what a new capacity may not go below). */
export async function paidPatches(db: Database, date: string): Promise<number> {
  const [row] = await db
    .select({ patches: sql<number>`cast(coalesce(sum(${bookings.quantity}), 0) as integer)`.mapWith(Number) })
    .from(bookings)
    .where(and(eq(bookingDay(), date), holdsCapacity(), eq(bookings.paymentStatus, 'paid')));
  return row?.patches ?? 0;
}

/**
 * PUT /api/admin/schedule/days/{date}: the day's own capacity (0 closes it) and reason, under the
 * date's booking lock so a payment or booking at the same moment is counted. Never below the
 * patches already paid for that day (409 saying how many to move first). Setting the default
 * capacity with no reason removes the day's own row: the default applies again.
 */
export async function setDayCapacity(
  db: Database,
  input: { date: string; capacity: number; reason: string | null },
  { actor, now, defaultCapacity }: { actor: string; now: Date; defaultCapacity: number },
): Promise<ScheduleDay> {
  if (!isIsoDate(input.date)) throw badRequest(SCHEDULE_MESSAGES.invalidDate, { date: SCHEDULE_MESSAGES.invalidDate });
  const { date, capacity, reason } = input;
  await db.transaction(async (tx) => {
    const executor = tx as unknown as Database;
    await lockDate(executor, date);
    const paid = await paidPatches(executor, date);
    if (capacity < paid) throw conflict(SCHEDULE_MESSAGES.belowPaid(paid, capacity), { capacity: SCHEDULE_MESSAGES.belowPaid(paid, capacity) });
    if (capacity === defaultCapacity && !reason) {
      await tx.delete(scheduleDays).where(eq(scheduleDays.date, date));
    } else {
      await tx
        .insert(scheduleDays)
        .values({ date, capacity, reason, updatedBy: actor, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: scheduleDays.date, set: { capacity, reason, updatedBy: actor, updatedAt: now } });
    }
    await writeChannelLog(executor, {
      channel: 'admin',
      action: 'schedule_day_set',
      entityType: 'schedule_day',
      entityId: date,
      userId: actor,
      details: `${date}: capacity ${capacity} patches${capacity === 0 ? ' (closed)' : ''}${reason ? `, ${reason}` : ''}`,
      metadata: { capacity, reason, paid },
    });
  });
  const [day] = await loadSchedule(db, [date], { capacity: defaultCapacity });
  return day!;
}
