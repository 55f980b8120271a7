import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { londonWallClock } from '../../../domain/crew.ts';
import { formatLongDate, isIsoDate } from '../../../domain/format.ts';
import { installationDay, londonDate, londonParts } from '../../../domain/schedule.ts';
import { AppError, badRequest, conflict, notFound } from '../../app/errors.ts';
import type { BookingEmailMessage, EmailAttachment } from '../../providers/email-outbox.ts';
import { checkDateAvailability, lockDate, type DateAvailability } from '../bookings/availability.ts';
import type { BookingRow } from '../bookings/booking-view.ts';
import { queueRescheduledInvite } from '../bookings/installation-invites.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { dayReason } from './schedule-days.ts';

// Moving a booking to another day (api.md "Schedule and weather days"): staff's reschedule, a rain
// day's moves and the customer's own choice all go through `moveBookingToDay`, so each checks the
// same room, writes the day the same way and tells the customer the same way.

export const MOVE_MESSAGES = {
  invalidDate: 'Please enter a date as YYYY-MM-DD.',
  pastDate: 'Please choose today or a later date.',
  notMovable: 'This booking is cancelled, archived or already installed, so its day cannot move.',
  closed: (date: string, reason: string | null) => `${formatLongDate(date)} is closed${reason ? ` (${reason})` : ''}. Please choose another day.`,
  noRoom: (date: string, free: number, quantity: number) =>
    `${formatLongDate(date)} has room for ${free} more patches, and this booking has ${quantity}. Please choose another day.`,
} as const;

export interface MoveContext {
  now: Date;
  /** DAILY_PATCH_CAPACITY */
  capacity: number;
  siteUrl: string;
  /** Who moved it: a staff account, or 'customer' for the customer's own choice. */
  actor: string;
  /** Why, for the booking's history line ('staff', 'weather', 'customer'). */
  cause: 'staff' | 'weather' | 'customer';
  /** The e-mail carrying the updated invite, when not the plain "new date" one. */
  email?: (booking: BookingRow, sequence: number, invite: EmailAttachment | null) => BookingEmailMessage;
}

export interface MoveResult {
  booking: BookingRow;
  from: string;
  to: string;
  /** The e-mail queued in the transaction (deliver after the commit), or null (same day). */
  mailKey: string | null;
}

/** A booking can move while it still plans an installation: not cancelled or archived, before step 4. */
export const isMovable = (booking: Pick<BookingRow, 'status' | 'archived' | 'currentStep'>) =>
  booking.status !== 'cancelled' && !booking.archived && booking.currentStep < 4;

export function validateMoveDate(date: unknown, now: Date): string {
  if (typeof date !== 'string' || !isIsoDate(date)) throw badRequest(MOVE_MESSAGES.invalidDate, { date: MOVE_MESSAGES.invalidDate });
  if (date < londonDate(now)) throw badRequest(MOVE_MESSAGES.pastDate, { date: MOVE_MESSAGES.pastDate });
  return date;
}

/** The 409 for a day that cannot take the booking. */
export function refusal(date: string, quantity: number, availability: Extract<DateAvailability, { available: false }>, reason: string | null): AppError {
  return availability.reason === 'blocked'
    ? conflict(MOVE_MESSAGES.closed(date, reason))
    : conflict(MOVE_MESSAGES.noRoom(date, availability.freePatches, quantity));
}

/**
 * The booking's day written where the day lives: the installation date (same London time on the
 * new date) once staff set one, else the preferred date; so bookingInstallationDay reads `date`.
 */
export function dayFields(booking: Pick<BookingRow, 'installationDate'>, date: string) {
  if (!booking.installationDate) return { preferredDate: date };
  const { hour, minute } = londonParts(booking.installationDate);
  return { installationDate: new Date(londonWallClock(date, hour).getTime() + minute * 60_000) };
}

/**
 * Moves one booking to `date` inside the caller's transaction (the date's booking lock taken, then
 * the booking row locked): 409 when the day is closed for the booking's region or lacks room. The
 * customer gets one e-mail with the invite at the next SEQUENCE; the move is a line in the
 * booking's history. Moving a booking to the day it already has changes nothing.
 *
 * Dates before rows, as a rain day (which locks its window, then the day's bookings) and a payment
 * do: a move that held its row while it waited for a date the rain day holds would close a circle,
 * and PostgreSQL would abort one of the two. A caller that locks the row itself takes the date's
 * lock first too.
 */
export async function moveBookingToDay(tx: Transaction, bookingId: number, date: string, context: MoveContext): Promise<MoveResult> {
  await lockDate(tx as unknown as Database, date);
  const [before] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  if (!before) throw notFound('Booking not found');
  const from = installationDay(before);
  if (from === date) return { booking: before, from, to: date, mailKey: null };
  if (!isMovable(before)) throw conflict(MOVE_MESSAGES.notMovable);

  const availability = await checkDateAvailability(tx as unknown as Database, {
    date,
    quantity: before.quantity,
    now: context.now,
    capacity: context.capacity,
    region: before.region,
    excludeBookingId: before.id,
  });
  if (!availability.available) throw refusal(date, before.quantity, availability, await dayReason(tx as unknown as Database, date));

  const [after] = await tx
    .update(bookings)
    .set({ ...dayFields(before, date), updatedAt: context.now })
    .where(eq(bookings.id, before.id))
    .returning();
  const mailKey = await queueRescheduledInvite(tx, before, after!, {
    siteUrl: context.siteUrl,
    now: context.now,
    userId: context.actor,
    ...(context.email ? { email: context.email } : {}),
  });
  await writeChannelLog(tx, {
    channel: 'admin',
    action: 'booking_rescheduled',
    entityType: 'booking',
    entityId: before.id,
    userId: context.actor,
    details: `Booking #${before.id} moved from ${from} to ${date}${context.cause === 'weather' ? ' (weather)' : context.cause === 'customer' ? ' by the customer' : ''}`,
    metadata: { from, to: date, cause: context.cause },
  });
  const [stored] = await tx.select().from(bookings).where(eq(bookings.id, before.id));
  return { booking: stored!, from, to: date, mailKey };
}
