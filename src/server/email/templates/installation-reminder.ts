import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { installationHours, storedAddresses } from './booking-parts.ts';
import { INSTALLATION_QUESTIONS, escapeHtml, layout, text } from './layout.ts';

// The day-before reminder: what happens tomorrow, where, and whom to call.

export function installationReminderEmail(booking: BookingRow, date: string): BookingEmailMessage {
  const when = installationHours(booking.workType);
  const day = formatLongDate(date);
  const addresses = storedAddresses(booking);
  const nothingNeeded = 'Nothing is needed from you. We use water only, and send photos the same day.';
  const questions = INSTALLATION_QUESTIONS;
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `A reminder: our crew installs your ${booking.quantity} patches tomorrow, ${day}, ${when}.`,
    '',
    'WHERE',
    ...addresses.map((address) => `  - ${address}`),
    '',
    nothingNeeded,
    questions,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>A reminder: our crew installs your ${booking.quantity} patches tomorrow, <strong>${escapeHtml(day)}</strong>, ${escapeHtml(when)}.</p>
<p><strong>Where</strong><br>${addresses.map(escapeHtml).join('<br>')}</p>
<p>${escapeHtml(nothingNeeded)}<br>${escapeHtml(questions)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: booking.email,
    subject: `Tomorrow: your ${BUSINESS.name} installation (booking #${booking.id})`,
    text: plain,
    html,
    kind: 'installation-reminder',
    bookingId: booking.id,
    dedupeKey: `installation-reminder:${booking.id}:${date}`,
  };
}
