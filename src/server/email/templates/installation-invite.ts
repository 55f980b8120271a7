import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { buildInstallationInvite, icsContentType, ICS_FILE_NAME } from '../../../domain/ics.ts';
import { installationDay } from '../../../domain/schedule.ts';
import type { BookingEmailKind } from '../../../domain/email-kinds.ts';
import type { EmailAttachment, BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { installationHours, storedAddresses } from './booking-parts.ts';
import { INSTALLATION_QUESTIONS, escapeHtml, layout, text } from './layout.ts';

// The installation's calendar invite (src/domain/ics.ts): attached to the booking confirmation for
// the preferred date (TENTATIVE: the date is only held until paid), to the payment receipt
// (CONFIRMED), and sent again, with the same UID and a higher SEQUENCE, when staff move the
// installation to another day or when it is called off (METHOD:CANCEL), so the customer's
// calendar app follows.

type InviteBooking = Pick<
  BookingRow,
  'id' | 'email' | 'quantity' | 'workType' | 'locationAddress' | 'preferredDate' | 'installationDate' | 'inviteStatus'
>;

/**
 * The .ics file for a booking at a SEQUENCE, saying what `booking.inviteStatus` says, as an
 * outbox attachment; null when the booking's address cannot stand in a calendar line (the e-mail
 * then goes without the invite rather than not at all).
 */
export function installationInviteAttachment(booking: InviteBooking, sequence: number, siteUrl: string, now: Date): EmailAttachment | null {
  let ics: string;
  try {
    ics = buildInstallationInvite({
      bookingId: booking.id,
      sequence,
      status: booking.inviteStatus,
      date: installationDay(booking),
      workType: booking.workType,
      summary: `${BUSINESS.name}: ${booking.quantity} patches installed (booking #${booking.id})`,
      description:
        `Our crew installs your ${booking.quantity} patches ${installationHours(booking.workType)}. ` +
        `Questions or a change of plan? Call ${BUSINESS.phone} or e-mail ${BUSINESS.email}.`,
      location: storedAddresses(booking).join('; '),
      organizerName: BUSINESS.name,
      organizerEmail: BUSINESS.email,
      attendeeEmail: booking.email,
      siteUrl,
      now,
    });
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
  return { filename: ICS_FILE_NAME, type: icsContentType(booking.inviteStatus), content: Buffer.from(ics, 'utf8').toString('base64') };
}

/** The e-mail that carries the updated invite when the installation moves to another day. */
export function installationRescheduledEmail(booking: BookingRow, sequence: number, invite: EmailAttachment | null): BookingEmailMessage {
  const day = formatLongDate(installationDay(booking));
  return movedInstallationEmail(booking, sequence, invite, {
    kind: 'installation-rescheduled',
    subject: `New date for your ${BUSINESS.name} installation (booking #${booking.id}): ${day}`,
    moved: `Your installation has a new date: our crew now installs your ${booking.quantity} patches on ${day}, ${installationHours(booking.workType)}.`,
  });
}

/**
 * The frame of every e-mail about an installation moved to another day (a new date, a rain day):
 * what moved, the replacement invite when there is one, what the cause adds (`choose`: a link to
 * pick another day), where, and who to ask. One e-mail per kind and SEQUENCE: a retried
 * transaction never sends the same update twice.
 */
export function movedInstallationEmail(
  booking: BookingRow,
  sequence: number,
  invite: EmailAttachment | null,
  { kind, subject, moved, choose }: { kind: Extract<BookingEmailKind, 'installation-rescheduled' | 'installation-weather-moved'>; subject: string; moved: string; choose?: { words: string; url: string } },
): BookingEmailMessage {
  const addresses = storedAddresses(booking);
  const calendar = 'The calendar invite attached replaces the one we sent before.';
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    moved,
    ...(invite ? ['', calendar] : []),
    ...(choose ? ['', choose.words, choose.url] : []),
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
${invite ? `<p>${escapeHtml(calendar)}</p>\n` : ''}${choose ? `<p>${escapeHtml(choose.words)}<br><a href="${escapeHtml(choose.url)}">Choose another day</a></p>\n` : ''}<p><strong>Where</strong><br>${addresses.map(escapeHtml).join('<br>')}</p>
<p>${escapeHtml(INSTALLATION_QUESTIONS)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: booking.email,
    subject,
    text: plain,
    html,
    kind,
    bookingId: booking.id,
    dedupeKey: `${kind}:${booking.id}:${sequence}`,
    ...(invite ? { attachments: [invite] } : {}),
  };
}

/** Why an installation's calendar event is withdrawn (the CANCEL e-mail says which). */
export type InviteCancelReason = 'cancelled' | 'archived' | 'hold_lapsed';

/**
 * The e-mail that carries a METHOD:CANCEL invite: the booking was cancelled or archived, or it was
 * still unpaid when the hourly job looked (`hold_lapsed`), so the event leaves the customer's
 * calendar. An unpaid booking reserves nothing (the customer who pays first gets the day), and the
 * e-mail says so rather than promise a hold.
 */
export function installationCancelledEmail(
  booking: BookingRow,
  sequence: number,
  invite: EmailAttachment | null,
  reason: InviteCancelReason,
  { siteUrl }: { siteUrl: string },
): BookingEmailMessage {
  const day = formatLongDate(installationDay(booking));
  const what =
    reason === 'hold_lapsed'
      ? `Booking #${booking.id} for ${day} has not been paid, so the date is not reserved for you: a date is reserved once its booking is paid, and goes to the customer who pays for it first.`
      : `Your installation on ${day} (booking #${booking.id}) is cancelled.`;
  const calendar = 'The calendar update attached removes the event from your calendar.';
  const next =
    reason === 'hold_lapsed'
      ? `Still want the date? Pay with the link in your booking confirmation e-mail while the date is free, book again at ${new URL('/booking', siteUrl).href}, or call ${BUSINESS.phone}.`
      : INSTALLATION_QUESTIONS;
  const plain = text([`Hello ${booking.firstName},`, '', what, ...(invite ? ['', calendar] : []), '', next, '', BUSINESS.legalName]);
  const html = layout(`<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>${escapeHtml(what)}</p>
${invite ? `<p>${escapeHtml(calendar)}</p>\n` : ''}<p>${escapeHtml(next)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: booking.email,
    subject:
      reason === 'hold_lapsed'
        ? `Your date is not reserved until you pay (booking #${booking.id})`
        : `Your ${BUSINESS.name} installation is cancelled (booking #${booking.id})`,
    text: plain,
    html,
    kind: 'installation-cancelled',
    bookingId: booking.id,
    // One e-mail per SEQUENCE: a repeated job or a retried transaction never sends it twice.
    dedupeKey: `installation-cancelled:${booking.id}:${sequence}`,
    ...(invite ? { attachments: [invite] } : {}),
  };
}
