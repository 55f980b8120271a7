import { eq } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { BUSINESS } from '../../../content/business.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, conflict, notFound } from '../../app/errors.ts';
import type { PaymentsProvider } from '../../providers/payments.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { checkDateAvailability, londonToday } from '../bookings/availability.ts';
import { installationDay } from '../../../domain/schedule.ts';
import { checkoutTokenMatches } from './checkout-token.ts';
import { CURRENCY, bookingPaymentRef, callProvider, isBookingId, requirePayments, type BookingRow } from './payments.ts';

// ------------------------------------------------------------------ POST /api/create-payment-intent

export interface PreparedPayment {
  clientSecret: string;
  /** Pounds, the unit of the request's `amount` and of totalPrice. */
  amount: number;
  amountPence: number;
  currency: typeof CURRENCY;
}

/**
 * The booking's one PaymentIntent, for its own price whatever the browser claimed. Stores the
 * intent's id on the booking so the next call (a reload, a double click) reuses it.
 *
 * Only the holder of the booking's checkout token (handed out once by POST /api/bookings) may
 * start a payment: an unknown id, a wrong token and a booking without a token (seeded or made
 * before tokens existed) all get the same 404, so ids cannot be probed.
 */
export async function preparePayment(deps: AppDeps, bookingId: number, checkoutToken: string): Promise<PreparedPayment> {
  const payments = requirePayments(deps);
  const [booking] = isBookingId(bookingId)
    ? await deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1)
    : [];
  if (!checkoutTokenMatches(booking?.checkoutTokenHash, checkoutToken) || !booking) {
    throw notFound(PAYMENT_MESSAGES.bookingNotFound);
  }
  if (booking.paymentStatus === 'paid') throw conflict(PAYMENT_MESSAGES.alreadyPaid);
  if (booking.status === 'cancelled') throw conflict(PAYMENT_MESSAGES.cancelled);
  if (!(await dateHasRoom(deps, booking))) {
    await cancelStoredIntent(deps, payments, booking);
    throw conflict(PAYMENT_MESSAGES.dateNoLongerAvailable);
  }

  const intent = await callProvider(deps, () =>
    payments.createOrReuseIntent({
      bookingId: booking.id,
      bookingRef: bookingPaymentRef(booking),
      amountPence: booking.totalPricePence,
      currency: CURRENCY,
      // No names, e-mail or address: Stripe.js shows the intent to whoever holds its client
      // secret. The receipt goes out from our own outbox when the webhook confirms payment.
      description: `${BUSINESS.name} booking #${booking.id}`,
      existingIntentId: booking.stripePaymentIntentId,
    }),
  );
  // Paid in Stripe but the webhook has not landed yet: never offer a second charge.
  if (intent.status === 'succeeded') throw conflict(PAYMENT_MESSAGES.alreadyPaid);
  if (intent.status === 'processing') throw conflict(PAYMENT_MESSAGES.alreadyProcessing);
  if (intent.amount !== booking.totalPricePence || intent.currency !== CURRENCY || !intent.clientSecret) {
    deps.log.error('PaymentIntent does not match its booking', { bookingId: booking.id, intentId: intent.id });
    throw new AppError(502, PAYMENT_MESSAGES.unreachable);
  }

  if (booking.stripePaymentIntentId !== intent.id) await storeIntent(deps, booking, intent.id);
  return {
    clientSecret: intent.clientSecret,
    amount: poundsFromPence(booking.totalPricePence),
    amountPence: booking.totalPricePence,
    currency: CURRENCY,
  };
}

/**
 * Stores the intent on its booking. An intent already stored on another booking (a copied row,
 * an idempotency key reused) must not be shared, and the unique index refuses it: that is an
 * error for staff to sort out and a 502 for the customer, who cannot fix it by retrying.
 */
async function storeIntent(deps: AppDeps, booking: BookingRow, intentId: string): Promise<void> {
  try {
    await deps.db
      .update(bookings)
      .set({ stripePaymentIntentId: intentId, updatedAt: deps.now() })
      .where(eq(bookings.id, booking.id));
  } catch (error) {
    if (!isUniqueViolation(error, 'bookings_payment_intent_idx')) throw error;
    const [holder] = await deps.db
      .select({ id: bookings.id })
      .from(bookings)
      .where(eq(bookings.stripePaymentIntentId, intentId));
    const details =
      `Stripe gave booking #${booking.id} PaymentIntent ${intentId}, which is already stored on ` +
      `booking #${holder?.id ?? 'unknown'}. The customer cannot pay online until this is resolved.`;
    deps.log.error('PaymentIntent is already stored on another booking', { bookingId: booking.id, intentId, holderId: holder?.id });
    await writeChannelLog(deps.db, {
      channel: 'booking',
      action: 'payment_intent_conflict',
      severity: 'error',
      entityType: 'booking',
      entityId: booking.id,
      details,
      metadata: { paymentIntentId: intentId, otherBookingId: holder?.id ?? null },
    });
    throw conflict(PAYMENT_MESSAGES.intentConflict);
  }
}

/**
 * The customer who pays first gets the day (availability.ts): an unpaid booking holds nothing, so
 * before taking money its date must still have room for its patches among the bookings paid or
 * being paid, and not be in the past (UK date). One being paid already holds its room.
 */
async function dateHasRoom(deps: AppDeps, booking: BookingRow): Promise<boolean> {
  const now = deps.now();
  if (booking.paymentStatus === 'processing') return true;
  return deps.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    const day = installationDay(booking);
    if (day < londonToday(now)) return false;
    const answer = await checkDateAvailability(db, {
      date: day,
      region: booking.region,
      quantity: booking.quantity,
      now,
      capacity: deps.env.DAILY_PATCH_CAPACITY,
    });
    return answer.available;
  });
}

/**
 * The booking's date is gone, so its stored intent must stop taking money: a tab still holding
 * the intent's client secret could otherwise pay for a date we cannot serve. An intent that has
 * already taken the money (or is taking it) is left alone: the webhook records that payment and
 * raises payment_over_capacity for staff. A failure here does not change the customer's answer.
 */
async function cancelStoredIntent(deps: AppDeps, payments: PaymentsProvider, booking: BookingRow): Promise<void> {
  const intentId = booking.stripePaymentIntentId;
  if (!intentId) return;
  try {
    const intent = await payments.cancelIntent(intentId);
    if (intent?.status === 'canceled') {
      deps.log.info('Cancelled the PaymentIntent of a booking whose date has gone', { bookingId: booking.id, intentId });
    }
  } catch (error) {
    deps.log.error('Could not cancel the PaymentIntent of a booking whose date has gone', {
      bookingId: booking.id,
      intentId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

