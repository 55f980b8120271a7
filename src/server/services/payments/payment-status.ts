import { createHash, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { bookings } from '../../../../db/schema.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import type { AppDeps } from '../../app/deps.ts';
import { notFound } from '../../app/errors.ts';
import { callProvider, requirePayments, type BookingRow, type PaymentStatus } from './payments.ts';

// ------------------------------------------------------------------ GET /api/payments/status

export interface PaymentStatusAnswer {
  bookingId: number;
  paymentStatus: PaymentStatus;
  /** Pounds: the amount received when paid, else the booking's price. */
  amountPaid: number;
  preferredDate: string;
  quantity: number;
  workType: BookingRow['workType'];
  /** Said instead of the page's own text when the payment needs staff (an amount mismatch). */
  message?: string;
}

/**
 * A payment whose amount or currency did not match the booking: the money has arrived but the
 * booking is not paid until staff have checked it. Stored as 'processing' with the reason in
 * paymentFailureMessage (an ordinary processing payment never has one).
 */
function isUnderReview(booking: Pick<BookingRow, 'paymentStatus' | 'paymentFailureMessage'>): boolean {
  return booking.paymentStatus === 'processing' && booking.paymentFailureMessage !== null;
}

/**
 * What OUR database says about a payment, for the success page. The caller proves it holds the
 * intent (as Stripe's redirect gives it) by its client secret; otherwise 404. Stripe's own
 * "succeeded" is shown as processing until the signed webhook has marked the booking paid; a
 * payment under review stays processing, with a message saying that staff will be in touch.
 */
export async function readPaymentStatus(
  deps: AppDeps,
  paymentIntentId: string,
  clientSecret: string,
): Promise<PaymentStatusAnswer> {
  const payments = requirePayments(deps);
  const [booking] = await deps.db
    .select({
      id: bookings.id,
      paymentStatus: bookings.paymentStatus,
      paymentFailureMessage: bookings.paymentFailureMessage,
      amountPaidPence: bookings.amountPaidPence,
      totalPricePence: bookings.totalPricePence,
      preferredDate: bookings.preferredDate,
      quantity: bookings.quantity,
      workType: bookings.workType,
    })
    .from(bookings)
    .where(eq(bookings.stripePaymentIntentId, paymentIntentId))
    .limit(1);
  if (!booking) throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  const intent = await callProvider(deps, () => payments.retrieveIntent(paymentIntentId));
  if (!intent?.clientSecret || !sameSecret(intent.clientSecret, clientSecret)) {
    throw notFound(PAYMENT_MESSAGES.paymentNotFound);
  }
  let paymentStatus: PaymentStatus = booking.paymentStatus;
  if (paymentStatus !== 'paid' && (intent.status === 'succeeded' || intent.status === 'processing')) {
    paymentStatus = 'processing';
  }
  return {
    bookingId: booking.id,
    paymentStatus,
    // What was paid once paid, otherwise what is due: the booking's price.
    amountPaid: poundsFromPence(
      booking.paymentStatus === 'paid' && booking.amountPaidPence !== null ? booking.amountPaidPence : booking.totalPricePence,
    ),
    preferredDate: booking.preferredDate,
    quantity: booking.quantity,
    workType: booking.workType,
    ...(isUnderReview(booking) ? { message: PAYMENT_MESSAGES.underReview } : {}),
  };
}

/** Constant-time comparison whatever the lengths (hashing first makes them equal). */
function sameSecret(expected: string, given: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

