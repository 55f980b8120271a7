import { eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../../db/client.ts';
import { bookings } from '../../../db/schema.ts';
import { nextInviteSequence } from '../../domain/ics.ts';
import { londonDate } from '../../domain/schedule.ts';
import { installationDay } from '../../domain/schedule.ts';
import { installationInviteAttachment, installationRescheduledEmail } from '../email/templates/index.ts';
import { queueEmail } from '../providers/email.ts';
import type { BookingRow } from './booking-view.ts';
import { writeChannelLog } from './channel-log.ts';


/**
 * After staff change a booking's installation date (inside that change's transaction): when the
 * day the customer was invited for moved, the invite goes again with the same UID and the next
 * SEQUENCE (kept in `bookings.invite_sequence`), so their calendar app moves the event. Nothing
 * is sent when the day stays the same (a new time on the same day, or the same date sent
 * again), for a cancelled or archived booking, or for a day already past in London (a date
 * entered afterwards records history, it does not plan anything). Returns the e-mail's dedupe
 * key, or null when nothing was queued.
 */
export async function queueRescheduledInvite(
  tx: Transaction,
  before: BookingRow,
  after: BookingRow,
  context: { siteUrl: string; now: Date; userId: string },
): Promise<string | null> {
  const previousDate = installationDay(before);
  const date = installationDay(after);
  const sequence = nextInviteSequence({ sequence: before.inviteSequence, date: previousDate }, date);
  if (sequence === before.inviteSequence) return null;
  if (after.status === 'cancelled' || after.archived || date < londonDate(context.now)) return null;

  const [stored] = await tx.update(bookings).set({ inviteSequence: sequence }).where(eq(bookings.id, after.id)).returning();
  const invite = installationInviteAttachment(stored!, sequence, context.siteUrl, context.now);
  const message = installationRescheduledEmail(stored!, sequence, invite);
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
