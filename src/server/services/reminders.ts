import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { bookings } from '../../../db/schema.ts';
import { BUSINESS } from '../../content/business.ts';
import { formatLongDate } from '../../domain/format.ts';
import { londonTomorrow } from '../../domain/schedule.ts';
import type { AppDeps } from '../api/deps.ts';
import { queueEmail, type EmailMessage } from '../providers/email.ts';
import { writeChannelLog } from './channel-log.ts';
import { escapeHtml } from './html.ts';

/**
 * The day-before reminder: on the London day before a booking's installation (its installation
 * date when staff set one, else its preferred date) the customer is told what to expect. The
 * hourly job runs this; each booking gets one reminder per installation date, claimed with the
 * e-mail in one transaction, so overlapping runs never send twice and a moved date gets its own.
 */
export async function sendInstallationReminders(deps: Pick<AppDeps, 'db' | 'mailer' | 'log'>, now: Date): Promise<number> {
  const tomorrow = londonTomorrow(now);
  const installationDay = sql<string>`coalesce((${bookings.installationDate} at time zone 'Europe/London')::date, ${bookings.preferredDate})`;
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
  if (dedupeKeys.length) await deps.mailer.deliverQueued(deps.db, { dedupeKeys, now });
  return dedupeKeys.length;
}

export function installationReminderEmail(booking: typeof bookings.$inferSelect, date: string): EmailMessage {
  const when = booking.workType === 'night' ? `overnight, ${BUSINESS.workingHours.night}` : `during the day, ${BUSINESS.workingHours.day}`;
  const day = formatLongDate(date);
  const addresses = booking.locationAddress.split(';').map((part) => part.trim()).filter(Boolean);
  const text = [
    `Hello ${booking.firstName},`,
    '',
    `A reminder: our crew installs your ${booking.quantity} patches tomorrow, ${day}, ${when}.`,
    '',
    'WHERE',
    ...addresses.map((address) => `  - ${address}`),
    '',
    'Nothing is needed from you. We use water only, and send photos the same day.',
    `Questions or a change of plan? Call ${BUSINESS.phone} or reply to this e-mail.`,
    '',
    BUSINESS.legalName,
  ].join('\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>A reminder: our crew installs your ${booking.quantity} patches tomorrow, <strong>${escapeHtml(day)}</strong>, ${escapeHtml(when)}.</p>
<p><strong>Where</strong><br>${addresses.map(escapeHtml).join('<br>')}</p>
<p>Nothing is needed from you. We use water only, and send photos the same day.<br>Questions or a change of plan? Call ${escapeHtml(BUSINESS.phone)} or reply to this e-mail.</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>
</body></html>`;
  return {
    to: booking.email,
    subject: `Tomorrow: your ${BUSINESS.name} installation (booking #${booking.id})`,
    text,
    html,
    kind: 'installation-reminder',
    dedupeKey: `installation-reminder:${booking.id}:${date}`,
  };
}
