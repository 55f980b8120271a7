import { bookings } from '../../../../db/schema.ts';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, notConfigured } from '../../app/errors.ts';
import { PaymentsUnavailableError, type PaymentEvent, type PaymentsProvider } from '../../providers/payments.ts';

// Card payments (api.md): the server decides the amount, Stripe's signed webhook is the
// only thing that marks a booking paid, and every step is safe to repeat. One file per noun:
// payment-intent.ts (POST /api/create-payment-intent), payment-status.ts (the success page's
// GET /api/payments/status), payment-webhook.ts (POST /api/stripe/webhook); what they share is here.

export { PAYMENT_MESSAGES };

export const CURRENCY = 'gbp';

export type PaymentStatus = 'unpaid' | 'processing' | 'paid' | 'failed';
export type BookingRow = typeof bookings.$inferSelect;
export type PaymentIntentOfEvent = NonNullable<PaymentEvent['intent']>;

/** What applying one verified Stripe event did (payment-webhook.ts), for its log and tests. */
export type WebhookOutcome =
  | 'duplicate'
  | 'ignored'
  | 'booking_not_found'
  | 'paid'
  | 'already_paid'
  | 'duplicate_charge'
  | 'amount_mismatch'
  | 'processing'
  | 'failed'
  | 'stale';

export function requirePayments(deps: AppDeps): PaymentsProvider {
  if (!deps.payments) throw notConfigured(PAYMENT_MESSAGES.notConfigured);
  return deps.payments;
}

/**
 * Stripe being unreachable is a 503 for the client (api.md: a provider that cannot answer), with
 * Retry-After and the cause in our log only.
 */
export async function callProvider<T>(deps: AppDeps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof PaymentsUnavailableError) {
      deps.log.error('Payment provider unavailable', { error: error.message });
      throw new AppError(503, PAYMENT_MESSAGES.unreachable, undefined, { 'Retry-After': '10' });
    }
    throw error;
  }
}

export function isBookingId(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0 && value <= MAX_BOOKING_ID;
}

/**
 * The booking's reference in Stripe (intent metadata `bookingRef` and the idempotency key). Ids
 * repeat across databases sharing one Stripe account (a reset dev database, preview and
 * staging); an id with its creation instant does not.
 */
export function bookingPaymentRef(booking: Pick<BookingRow, 'id' | 'createdAt'>): string {
  return `${booking.id}:${booking.createdAt.getTime()}`;
}

