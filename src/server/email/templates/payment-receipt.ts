import { formatLongDate } from '../../../domain/format.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import { PROJECT_STEPS } from '../../../domain/project-steps.ts';
import type { EmailAttachment, BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { CUSTOMER_SIGN_OFF, invoiceAttachedLine, text, textAsHtml, trackProjectUrl } from './layout.ts';

// The receipt for a booking Stripe has paid: the amount, the booking and how to follow it. One per
// booking (the dedupe key), however many successes Stripe reports. It carries the calendar invite
// that turns the booking's TENTATIVE event CONFIRMED, when there is one to send.

export function paymentReceiptEmail(
  booking: BookingRow,
  siteUrl: string,
  trackingUrl?: string,
  attachments: EmailAttachment[] = [],
  invoiceNumber?: string,
): BookingEmailMessage {
  const invite = attachments.some((attachment) => attachment.type.startsWith('text/calendar'));
  const amount = formatPounds(booking.amountPaidPence ?? booking.totalPricePence);
  const trackUrl = trackProjectUrl(siteUrl);
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `Thank you: we have received your payment of ${amount} for booking #${booking.id}.`,
    '',
    `Booking ID: ${booking.id}`,
    `Patches: ${booking.quantity} (${booking.workType === 'night' ? 'night' : 'day'} work)`,
    `Preferred date: ${formatLongDate(booking.preferredDate)}`,
    `Location: ${booking.locationAddress}`,
    `Amount paid: ${amount}`,
    '',
    'What happens next:',
    ...PROJECT_STEPS.map((step) => `${step.step}. ${step.name} (${step.timeframe})`),
    '',
    ...(trackingUrl
      ? ['Follow your project and see its photos (this link is yours: please do not share it):', trackingUrl, `Or track it at ${trackUrl} with this e-mail address and your booking ID.`]
      : [`Track your project at ${trackUrl} with this e-mail address and your booking ID.`]),
    '',
    ...(invite ? ['The calendar invite attached confirms the installation in your calendar.', ''] : []),
    ...(invoiceNumber ? [invoiceAttachedLine(invoiceNumber), ''] : []),
    ...CUSTOMER_SIGN_OFF,
  ]);
  return {
    to: booking.email,
    subject: `Payment received for booking #${booking.id}`,
    text: plain,
    html: textAsHtml(plain, trackingUrl ? [trackingUrl, trackUrl] : [trackUrl]),
    kind: 'payment-receipt',
    bookingId: booking.id,
    dedupeKey: paymentReceiptKey(booking.id),
    ...(attachments.length ? { attachments } : {}),
  };
}

/** The receipt's outbox key: one receipt per booking, however many successes Stripe reports. */
export function paymentReceiptKey(bookingId: number): string {
  return `payment-receipt:${bookingId}`;
}
