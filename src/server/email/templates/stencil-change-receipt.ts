import { formatPounds } from '../../../domain/pricing.ts';
import type { EmailAttachment, BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { CUSTOMER_SIGN_OFF, invoiceAttachedLine, text, textAsHtml, trackProjectUrl } from './layout.ts';

// The customer's receipt for a paid stencil change after approval (api.md "Stencil proof sign-off",
// "Documents for business customers"): the amount, what happens next, and the change's invoice as
// a PDF. One per change (the dedupe key), however often Stripe reports the payment. A change
// staff waived costs nothing and gets none.

export interface StencilChangeReceipt {
  booking: Pick<BookingRow, 'id' | 'firstName' | 'email'>;
  changeId: number;
  amountPence: number;
  invoiceNumber: string;
  /** The invoice's PDF (documents/invoice-pdf.ts invoiceAttachment, drawn when the e-mail is delivered). */
  attachments: EmailAttachment[];
}

export function stencilChangeReceiptEmail({ booking, changeId, amountPence, invoiceNumber, attachments }: StencilChangeReceipt, siteUrl: string): BookingEmailMessage {
  const amount = formatPounds(amountPence);
  const trackUrl = trackProjectUrl(siteUrl);
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `Thank you: we have received your payment of ${amount} for the stencil change on booking #${booking.id}.`,
    '',
    'Our studio will remake the stencil as you asked and send you the new proof to approve before your installation.',
    '',
    invoiceAttachedLine(invoiceNumber),
    '',
    `Track your project at ${trackUrl} with this e-mail address and your booking ID.`,
    '',
    ...CUSTOMER_SIGN_OFF,
  ]);
  return {
    to: booking.email,
    subject: `Payment received for your stencil change (booking #${booking.id})`,
    text: plain,
    html: textAsHtml(plain, [trackUrl]),
    kind: 'stencil-change-receipt',
    bookingId: booking.id,
    dedupeKey: stencilChangeReceiptKey(changeId),
    ...(attachments.length ? { attachments } : {}),
  };
}

/** One receipt per stencil change. */
export function stencilChangeReceiptKey(changeId: number): string {
  return `stencil-change-receipt:${changeId}`;
}
