import { and, asc, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookingInstallationDay, bookings } from '../../../../db/schema.ts';
import { nextInviteSequence } from '../../../domain/ics.ts';
import { installationDay, londonDate } from '../../../domain/schedule.ts';
import {
  installationCancelledEmail,
  installationInviteAttachment,
  installationRescheduledEmail,
  type InviteCancelReason,
} from '../../email/templates/index.ts';
import type { AppDeps } from '../../app/deps.ts';
import { queueEmail, type BookingEmailMessage, type EmailAttachment } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import type { BookingRow } from './booking-view.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { UNPAID_HOLD_MINUTES } from './availability.ts';

// The customer's calendar event for their installation follows the booking (src/domain/ics.ts):
// TENTATIVE with the confirmation (the date is only held until paid), CONFIRMED with the payment
// receipt, moved when staff move the day, and withdrawn (METHOD:CANCEL) when the booking is
// cancelled or archived or its unpaid hold lapses. Each change takes the next SEQUENCE, kept in
// bookings.invite_sequence with what it said in bookings.invite_status.

type Executor = Transaction | Database;
export interface InviteContext {
  siteUrl: string;
  now: Date;
  /** The admin who caused it; none for the webhook and the scheduled jobs. */
  userId?: string;
}

/** A day already past in London records history: no calendar is changed for it. */
const isPast = (booking: BookingRow, now: Date) => installationDay(booking) < londonDate(now);

/**
 * After staff change a booking's installation date (inside that change's transaction): when the
 * day the customer was invited for moved, the invite goes again with the same UID and the next
 * SEQUENCE, so their calendar app moves the event. Nothing is sent when the day stays the same
 * (a new time on the same day, or the same date sent again), for a cancelled or archived booking
 * (its event was withdrawn), or for a day already past in London (a date entered afterwards
 * records history, it does not plan anything). Returns the e-mail's dedupe key, or null when
 * nothing was queued.
 */
export async function queueRescheduledInvite(
  tx: Transaction,
  before: BookingRow,
  after: BookingRow,
  context: {
    siteUrl: string;
    now: Date;
    userId: string;
    /** The e-mail that carries the invite; the plain "new date" one unless a caller says (a rain day's). */
    email?: (booking: BookingRow, sequence: number, invite: EmailAttachment | null) => BookingEmailMessage;
  },
): Promise<string | null> {
  const previousDate = installationDay(before);
  const date = installationDay(after);
  const sequence = nextInviteSequence({ sequence: before.inviteSequence, date: previousDate }, date);
  if (sequence === before.inviteSequence) return null;
  if (after.status === 'cancelled' || after.archived || after.inviteStatus === 'cancelled' || isPast(after, context.now)) return null;

  const [stored] = await tx.update(bookings).set({ inviteSequence: sequence }).where(eq(bookings.id, after.id)).returning();
  const invite = installationInviteAttachment(stored!, sequence, context.siteUrl, context.now);
  const message = (context.email ?? installationRescheduledEmail)(stored!, sequence, invite);
  await queueEmail(tx, message);
  await writeChannelLog(tx, {
    channel: 'email',
    action: 'installation_invite_updated',
    entityType: 'booking',
    entityId: after.id,
    userId: context.userId,
    details: `Updated calendar invite queued for booking #${after.id}: installation moved from ${previousDate} to ${date} (SEQUENCE ${sequence})`,
    metadata: { from: previousDate, to: date, sequence, invite: Boolean(invite) },
  });
  return message.dedupeKey!;
}

/**
 * A payment has just been recorded (inside the webhook's transaction, booking row locked): the
 * customer's TENTATIVE event becomes CONFIRMED with the next SEQUENCE. Returns the invite for the
 * payment receipt to carry, or null when there is nothing to confirm: already confirmed, a
 * cancelled or archived booking (staff decide what the money means), or a day already past.
 * A booking whose lapsed hold withdrew the event gets it back confirmed: it is paid now.
 */
export async function confirmInvite(tx: Executor, booking: BookingRow, context: InviteContext): Promise<EmailAttachment | null> {
  if (booking.inviteStatus === 'confirmed' || booking.status === 'cancelled' || booking.archived || isPast(booking, context.now)) {
    return null;
  }
  const sequence = booking.inviteSequence + 1;
  const [stored] = await tx
    .update(bookings)
    .set({ inviteStatus: 'confirmed', inviteSequence: sequence })
    .where(eq(bookings.id, booking.id))
    .returning();
  return installationInviteAttachment(stored!, sequence, context.siteUrl, context.now);
}

/**
 * Withdraws the booking's calendar event (METHOD:CANCEL, STATUS:CANCELLED, the next SEQUENCE)
 * inside the caller's transaction: for a cancelled or archived booking, or an unpaid hold that
 * lapsed. Locks the booking row, so two callers at once send one cancel. Nothing happens when
 * the event was already withdrawn or its day is past. Returns the e-mail's dedupe key, or null;
 * deliver it after the commit (`deliverInviteMail`), or leave it to the hourly maintenance job.
 */
export async function queueInviteCancellation(
  tx: Executor,
  bookingId: number,
  reason: InviteCancelReason,
  context: InviteContext,
): Promise<string | null> {
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  if (!booking || booking.inviteStatus === 'cancelled' || isPast(booking, context.now)) return null;
  const sequence = booking.inviteSequence + 1;
  const [stored] = await tx
    .update(bookings)
    .set({ inviteStatus: 'cancelled', inviteSequence: sequence })
    .where(eq(bookings.id, bookingId))
    .returning();
  const invite = installationInviteAttachment(stored!, sequence, context.siteUrl, context.now);
  const message = installationCancelledEmail(stored!, sequence, invite, reason, { siteUrl: context.siteUrl });
  await queueEmail(tx, message);
  await writeChannelLog(tx, {
    channel: 'email',
    action: 'installation_invite_cancelled',
    entityType: 'booking',
    entityId: bookingId,
    userId: context.userId ?? undefined,
    details: `Calendar cancellation queued for booking #${bookingId} (${reason.replace('_', ' ')}): ${installationDay(stored!)} (SEQUENCE ${sequence})`,
    metadata: { reason, sequence, invite: Boolean(invite) },
  });
  return message.dedupeKey!;
}

type InviteDeps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now'>;

/** Sends what `queueInviteCancellation` queued, after the caller's commit. */
export async function deliverInviteMail(deps: Pick<AppDeps, 'db' | 'mailer' | 'log' | 'now'>, keys: readonly (string | null)[]) {
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: keys.filter((key): key is string => key !== null), now: deps.now() }));
}

/**
 * "Send the cancel for booking X" in one call, for code that has no transaction of its own:
 * queues the CANCEL (once) and delivers it. Returns whether one was queued.
 */
export async function cancelInstallationInvite(
  deps: InviteDeps,
  bookingId: number,
  reason: InviteCancelReason,
  userId?: string,
): Promise<boolean> {
  const context = { siteUrl: deps.env.SITE_URL, now: deps.now(), userId };
  const key = await deps.db.transaction((tx) => queueInviteCancellation(tx, bookingId, reason, context));
  await deliverInviteMail(deps, [key]);
  return key !== null;
}

/** Bookings looked at per run of the lapsed-hold step; the rest wait for the next hour. */
export const LAPSED_HOLD_BATCH = 200;

/**
 * The hourly job's step: bookings still unpaid UNPAID_HOLD_MINUTES after they were made lose their
 * calendar event (an unpaid booking reserves nothing: availability.ts). A booking paid (or being paid) meanwhile is left alone, as is one
 * already withdrawn or whose day is past; a repeated run finds nothing more to do. Returns the
 * dedupe keys queued (the maintenance job's own delivery sends them in the same run).
 */
export async function cancelLapsedHolds(deps: Pick<AppDeps, 'db' | 'env'>, now: Date): Promise<string[]> {
  const holdStart = new Date(now.getTime() - UNPAID_HOLD_MINUTES * 60_000);
  const lapsed = await deps.db
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        inArray(bookings.paymentStatus, ['unpaid', 'failed']),
        ne(bookings.inviteStatus, 'cancelled'),
        ne(bookings.status, 'cancelled'),
        eq(bookings.archived, false),
        lt(bookings.createdAt, holdStart),
        gte(bookingInstallationDay(bookings), londonDate(now)),
      ),
    )
    .orderBy(asc(bookings.id))
    .limit(LAPSED_HOLD_BATCH);
  const keys: string[] = [];
  for (const { id } of lapsed) {
    const key = await deps.db.transaction(async (tx) => {
      // Re-read under the lock: a payment may have landed since the list was read.
      const [row] = await tx.select({ paymentStatus: bookings.paymentStatus }).from(bookings).where(eq(bookings.id, id)).for('update');
      if (row?.paymentStatus !== 'unpaid' && row?.paymentStatus !== 'failed') return null;
      return queueInviteCancellation(tx, id, 'hold_lapsed', { siteUrl: deps.env.SITE_URL, now });
    });
    if (key) keys.push(key);
  }
  return keys;
}
