import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { installationDay } from '../../../domain/schedule.ts';
import type { BookingEmailMessage, EmailAttachment } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { installationHours, storedAddresses } from './booking-parts.ts';
import { INSTALLATION_QUESTIONS, escapeHtml, layout, text } from './layout.ts';

/**
 * A rain day moved the installation (POST /api/admin/weather-days): the new day, rescheduled free
 * of charge as the terms promise, the updated invite, and a link to choose another day instead.
 */
export function installationWeatherMovedEmail(
  booking: BookingRow,
  sequence: number,
  invite: EmailAttachment | null,
  { previousDate, chooseUrl }: { previousDate: string; chooseUrl: string },
): BookingEmailMessage {
  const day = formatLongDate(installationDay(booking));
  const moved =
    `The weather forecast for ${formatLongDate(previousDate)} means our crew cannot install your patches that day. ` +
    `Your installation has been rescheduled free of charge, as our terms promise: our crew now installs your ${booking.quantity} patches on ${day}, ${installationHours(booking.workType)}.`;
  const calendar = 'The calendar invite attached replaces the one we sent before.';
  const choose = 'Would another day suit you better? Choose one of the days that still have room (the link works once, until the installation day):';
  const addresses = storedAddresses(booking);
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    moved,
    ...(invite ? ['', calendar] : []),
    '',
    choose,
    chooseUrl,
    '',
    'WHERE',
    ...addresses.map((address) => `  - ${address}`),
    '',
    INSTALLATION_QUESTIONS,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>${escapeHtml(moved)}</p>
${invite ? `<p>${escapeHtml(calendar)}</p>\n` : ''}<p>${escapeHtml(choose)}<br><a href="${escapeHtml(chooseUrl)}">Choose another day</a></p>
<p><strong>Where</strong><br>${addresses.map(escapeHtml).join('<br>')}</p>
<p>${escapeHtml(INSTALLATION_QUESTIONS)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: booking.email,
    subject: `Rain: your ${BUSINESS.name} installation moves to ${day} (booking #${booking.id})`,
    text: plain,
    html,
    kind: 'installation-weather-moved',
    bookingId: booking.id,
    // One e-mail per SEQUENCE, like every invite update: a retried transaction never sends it twice.
    dedupeKey: `installation-weather-moved:${booking.id}:${sequence}`,
    ...(invite ? { attachments: [invite] } : {}),
  };
}
