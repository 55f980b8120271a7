import { formatLongDate } from '../../../domain/format.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import { addressesOf, workTypeLabel, type BookingEmailContext } from './booking-parts.ts';
import { oneLine, text, textAsHtml } from './layout.ts';

// The short note to staff about a new booking: everything needed to call the customer back.

export function staffBookingNotification(context: BookingEmailContext, to: string): BookingEmailMessage {
  const { booking, fileNames } = context;
  const addresses = addressesOf(context);
  const date = formatLongDate(booking.preferredDate);
  const plain = text([
    `New booking #${booking.id}${booking.isTest ? ' (looks like a test booking)' : ''}`,
    '',
    `Customer: ${booking.firstName} ${booking.lastName}${booking.businessName ? `, ${booking.businessName}` : ''}`,
    `E-mail: ${booking.email}`,
    `Phone: ${booking.phone}`,
    `Patches: ${booking.quantity}, ${workTypeLabel(booking.workType)}`,
    `Preferred date: ${date}`,
    `Total: ${formatPounds(booking.totalPricePence)} (payment: ${booking.paymentStatus})`,
    `Region: ${booking.region ?? 'unknown'}${booking.postcode ? ` (${booking.postcode})` : ''}`,
    'Locations:',
    ...addresses.map((address) => `  - ${address}`),
    `Files: ${fileNames.length ? fileNames.join(', ') : 'none'}`,
    ...(booking.specialInstructions ? [`Instructions: ${booking.specialInstructions}`] : []),
  ]);
  return {
    to,
    subject: oneLine(`New booking #${booking.id}: ${booking.firstName} ${booking.lastName}, ${booking.quantity} patches on ${date}`),
    text: plain,
    html: textAsHtml(plain),
    kind: 'booking-staff-notification',
    bookingId: booking.id,
    dedupeKey: `booking-staff-notification:${booking.id}`,
  };
}
