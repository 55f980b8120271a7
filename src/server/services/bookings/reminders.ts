import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { bookingInstallationDay, bookings } from '../../../../db/schema.ts';
import { londonTomorrow } from '../../../domain/schedule.ts';
import type { AppDeps } from '../../app/deps.ts';
import { installationReminderEmail } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverQueuedWithin } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';

/**
 * The day-before reminder: on the London day before a booking's installation (its installation
 * date when staff set one, else its preferred date) the customer is told what to expect. The
 * hourly job runs this; each booking gets one reminder per installation date, claimed with the
 * e-mail in one transaction, so overlapping runs never send twice and a moved date gets its own.
 */
export async function sendInstallationReminders(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'log'>,
  now: Date,
  /** Real-clock deadline for delivery; what is not sent by then goes out with the next run. */
  until = Date.now() + 20_000,
): Promise<number> {
  const tomorrow = londonTomorrow(now);
  const installationDay = bookingInstallationDay(bookings);
  const dedupeKeys = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(bookings)
      .where(
        and(
          sql`${installationDay} = ${tomorrow}::date`,
          eq(bookings.archived, false),
          inArray(bookings.status, ['pending', 'confirmed']),
          eq(bookings.paymentStatus, 'paid'),
          or(isNull(bookings.reminderSentFor), ne(bookings.reminderSentFor, tomorrow)),
        ),
      )
      .for('update', { skipLocked: true });
    const keys: string[] = [];
    for (const booking of due) {
      const message = installationReminderEmail(booking, tomorrow);
      await queueEmail(tx, message);
      keys.push(message.dedupeKey!);
      await tx.update(bookings).set({ reminderSentFor: tomorrow }).where(eq(bookings.id, booking.id));
    }
    if (due.length) {
      await writeChannelLog(tx, {
        channel: 'email',
        action: 'installation_reminders_queued',
        details: `Day-before reminders queued for ${due.length} booking(s) installed on ${tomorrow}`,
        metadata: { bookingIds: due.map((booking) => booking.id), date: tomorrow },
      });
    }
    return keys;
  });
  if (dedupeKeys.length) await deliverQueuedWithin(deps.mailer, deps.db, { dedupeKeys, now, until });
  return dedupeKeys.length;
}
