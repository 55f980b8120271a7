import { and, asc, eq, gte, inArray, ne } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, scheduleDays } from '../../../../db/schema.ts';
import { isIsoDate } from '../../../domain/format.ts';
import { badRequest } from '../../app/errors.ts';
import { bookingDay, bookingDayText, londonToday, lockDate } from './availability.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import type { AdminAction } from './admin-bookings.ts';

/**
 * Dates the admin closes to new bookings: a blocked date is a closed day (schedule_days with
 * capacity 0 and the reason; api.md "Schedule and weather days"), so the Schedule tab and these
 * calls read and write one fact. A block only stops new bookings: the bookings already
 * on the date stay booked (nobody's paid slot is cancelled by a click), and the answer lists them
 * so the dashboard can say so. Dates are UK calendar dates.
 */
export const BLOCK_DATE_MESSAGES = {
  invalidDate: 'Please enter a date as YYYY-MM-DD.',
  pastDate: 'Please choose today or a later date.',
} as const;

export const MAX_BLOCK_REASON_LENGTH = 200;

export interface BookingOnDate {
  id: number;
  name: string;
  quantity: number;
}

export interface BlockedDateJson {
  date: string;
  reason: string | null;
  createdAt: string;
  bookings: BookingOnDate[];
}

/** Bookings that still count on those dates: neither cancelled nor archived. */
async function activeBookingsOn(db: Database, dates: string[]): Promise<Map<string, BookingOnDate[]>> {
  const byDate = new Map<string, BookingOnDate[]>();
  if (dates.length === 0) return byDate;
  const rows = await db
    .select({ id: bookings.id, firstName: bookings.firstName, lastName: bookings.lastName, quantity: bookings.quantity, date: bookingDayText() })
    .from(bookings)
    .where(and(inArray(bookingDay(), dates), eq(bookings.archived, false), ne(bookings.status, 'cancelled')))
    .orderBy(asc(bookings.id));
  for (const row of rows) {
    const list = byDate.get(row.date) ?? [];
    list.push({ id: row.id, name: `${row.firstName} ${row.lastName}`, quantity: row.quantity });
    byDate.set(row.date, list);
  }
  return byDate;
}

/** Today's and later blocks, soonest first (past ones no longer matter to anyone). */
export async function listBlockedDates(db: Database, now: Date): Promise<BlockedDateJson[]> {
  const rows = await db
    .select()
    .from(scheduleDays)
    .where(and(gte(scheduleDays.date, londonToday(now)), eq(scheduleDays.capacity, 0)))
    .orderBy(asc(scheduleDays.date));
  const onDates = await activeBookingsOn(db, rows.map((row) => row.date));
  return rows.map((row) => ({
    date: row.date,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
    bookings: onDates.get(row.date) ?? [],
  }));
}

export function validateBlockDate(date: string, now: Date): string {
  if (!isIsoDate(date)) throw badRequest(BLOCK_DATE_MESSAGES.invalidDate, { date: BLOCK_DATE_MESSAGES.invalidDate });
  if (date < londonToday(now)) throw badRequest(BLOCK_DATE_MESSAGES.pastDate, { date: BLOCK_DATE_MESSAGES.pastDate });
  return date;
}

/**
 * Blocks a date; blocking it again only updates the reason. Taken under the date's booking lock,
 * so a booking being made at the same moment either lands before the block (and is listed) or
 * sees the block and is refused.
 */
export async function blockDate(
  db: Database,
  input: { date: string; reason: string | null },
  { actor, now }: AdminAction,
): Promise<BlockedDateJson> {
  const date = validateBlockDate(input.date, now);
  return db.transaction(async (tx) => {
    await lockDate(tx, date);
    const [row] = await tx
      .insert(scheduleDays)
      .values({ date, capacity: 0, reason: input.reason, updatedBy: actor, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: scheduleDays.date, set: { capacity: 0, reason: input.reason, updatedBy: actor, updatedAt: now } })
      .returning();
    const onDate = (await activeBookingsOn(tx, [date])).get(date) ?? [];
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'date_blocked',
      entityType: 'blocked_date',
      entityId: date,
      userId: actor,
      details:
        `Date ${date} blocked for new bookings${input.reason ? ` (${input.reason})` : ''}` +
        (onDate.length ? `; ${onDate.length} booking(s) already on it stay booked` : ''),
      metadata: { reason: input.reason, bookingIds: onDate.map((booking) => booking.id) },
    });
    return { date: row!.date, reason: row!.reason, createdAt: row!.createdAt.toISOString(), bookings: onDate };
  });
}

/**
 * Opens a blocked date again, at the default capacity; unblocking a date that is not closed
 * changes nothing (a day with a reduced capacity keeps it).
 */
export async function unblockDate(db: Database, date: string, { actor }: AdminAction): Promise<void> {
  if (!isIsoDate(date)) throw badRequest(BLOCK_DATE_MESSAGES.invalidDate, { date: BLOCK_DATE_MESSAGES.invalidDate });
  await db.transaction(async (tx) => {
    const removed = await tx
      .delete(scheduleDays)
      .where(and(eq(scheduleDays.date, date), eq(scheduleDays.capacity, 0)))
      .returning({ date: scheduleDays.date });
    if (removed.length === 0) return;
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'date_unblocked',
      entityType: 'blocked_date',
      entityId: date,
      userId: actor,
      details: `Date ${date} open for bookings again`,
    });
  });
}
