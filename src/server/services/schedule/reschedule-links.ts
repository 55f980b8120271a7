import { createHash, randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, rescheduleLinks } from '../../../../db/schema.ts';
import { addDays } from '../../../domain/format.ts';
import { installationDay, londonDate } from '../../../domain/schedule.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { lockDate } from '../bookings/availability.ts';
import { displayName, loadSchedule } from './schedule-days.ts';
import { isMovable, moveBookingToDay, validateMoveDate } from './move-booking.ts';

// The customer's own choice after a rain day (GET/POST /api/reschedule/{token}): the link from the
// weather e-mail names one booking, works once, and ends on the booking's installation day.

export const RESCHEDULE_LINK_MESSAGES = {
  unknown: 'This link is not valid. Please use the link in your e-mail, or call us.',
  ended: 'This link has already been used or has ended. Please call us to change the day.',
  filled: 'That day has just filled up. Please choose another of the days below.',
  notOffered: 'Please choose one of the days offered.',
} as const;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32}$/;

const hash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function newRescheduleToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hash(token) };
}

export function rescheduleUrl(siteUrl: string, token: string): string {
  const url = new URL('/reschedule', siteUrl);
  url.hash = token;
  return url.href;
}

export interface RescheduleChoice {
  bookingId: number;
  businessName: string;
  currentDate: string;
  dates: string[];
}

interface Rules {
  now: Date;
  capacity: number;
  windowDays: number;
}

/** The link's booking, or 404 (unknown) / 410 (used, ended on its day, or no longer movable). */
async function openLink(db: Database, token: string, now: Date, lock = false) {
  const query = db
    .select({ link: rescheduleLinks, booking: bookings, name: displayName })
    .from(rescheduleLinks)
    .innerJoin(bookings, eq(bookings.id, rescheduleLinks.bookingId))
    .where(eq(rescheduleLinks.tokenHash, hash(TOKEN_SHAPE.test(token) ? token : '')));
  const [found] = lock ? await query.for('update') : await query;
  if (!found) throw notFound(RESCHEDULE_LINK_MESSAGES.unknown);
  const day = installationDay(found.booking);
  if (found.link.usedAt || londonDate(now) >= day || !isMovable(found.booking)) throw new AppError(410, RESCHEDULE_LINK_MESSAGES.ended);
  return { ...found, day };
}

/** The days with room for the booking in the next `windowDays`, its own day left out. */
async function daysWithRoom(db: Database, booking: typeof bookings.$inferSelect, day: string, { now, capacity, windowDays }: Rules): Promise<string[]> {
  const today = londonDate(now);
  const dates = Array.from({ length: windowDays }, (_, index) => addDays(today, index + 1));
  const schedule = await loadSchedule(db, dates, { capacity });
  return schedule
    .filter(
      (entry) =>
        entry.date !== day &&
        !entry.closed &&
        !(booking.region && entry.closedRegions?.includes(booking.region)) &&
        entry.capacity - entry.held >= booking.quantity,
    )
    .map((entry) => entry.date);
}

export async function readRescheduleChoice(db: Database, token: string, rules: Rules): Promise<RescheduleChoice> {
  const { booking, name, day } = await openLink(db, token, rules.now);
  return {
    bookingId: booking.id,
    businessName: name,
    currentDate: day,
    dates: await daysWithRoom(db, booking, day, rules),
  };
}

/**
 * The customer's tap: the booking moves to `date` (one e-mail with the updated invite) and the link
 * is spent, in one transaction. A day that filled meanwhile is a 409 carrying the fresh list.
 */
export async function chooseRescheduleDay(
  db: Database,
  token: string,
  date: unknown,
  rules: Rules & { siteUrl: string },
): Promise<{ date: string; mailKey: string | null }> {
  const chosen = validateMoveDate(date, rules.now);
  try {
    return await db.transaction(async (tx) => {
      const executor = tx as unknown as Database;
      // The date's lock before the rows', the order every move keeps (moveBookingToDay).
      await lockDate(executor, chosen);
      const { link, booking, day } = await openLink(executor, token, rules.now, true);
      const window = addDays(londonDate(rules.now), rules.windowDays);
      if (chosen <= londonDate(rules.now) || chosen > window || chosen === day) throw new AppError(409, RESCHEDULE_LINK_MESSAGES.notOffered);
      const moved = await moveBookingToDay(tx, booking.id, chosen, { ...rules, actor: 'customer', cause: 'customer' });
      await tx.update(rescheduleLinks).set({ usedAt: rules.now }).where(eq(rescheduleLinks.tokenHash, link.tokenHash));
      return { date: chosen, mailKey: moved.mailKey };
    });
  } catch (error) {
    // The answer to a refused day carries the days that have room now, so the page can offer them.
    if (error instanceof AppError && error.status === 409) {
      const { booking, day } = await openLink(db, token, rules.now);
      const message = error.message === RESCHEDULE_LINK_MESSAGES.notOffered ? error.message : RESCHEDULE_LINK_MESSAGES.filled;
      throw new AppError(409, message, undefined, undefined, { dates: await daysWithRoom(db, booking, day, rules) });
    }
    throw error;
  }
}
