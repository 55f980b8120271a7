import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import { isUniqueViolation, type Database } from '../../../db/client.ts';
import { bookings, stripeEvents } from '../../../db/schema.ts';
import { MAX_BOOKING_ID } from '../../domain/booking-schema.ts';
import { formatPounds, poundsFromPence } from '../../domain/pricing.ts';
import { formatLongDate } from '../../domain/format.ts';
import { BUSINESS } from '../../content/business.ts';
import { paymentReceiptEmail, paymentReceiptKey } from '../email/templates/index.ts';
import { PAYMENT_MESSAGES } from '../../content/payment-messages.ts';
import type { AppDeps } from '../api/deps.ts';
import { AppError, conflict, notConfigured, notFound } from '../api/errors.ts';
import { deliverNow, queueEmail } from '../providers/email.ts';
import { PaymentsUnavailableError, type PaymentEvent, type PaymentsProvider } from '../providers/payments.ts';
import { writeChannelLog } from './channel-log.ts';
import { createTrackingLink, trackingLinkUrl } from './tracking.ts';
import { UNPAID_HOLD_MINUTES, checkDateAvailability, heldPatches, lockDate, londonToday } from './availability.ts';
import { checkoutTokenMatches } from './checkout-token.ts';

// Card payments (api.md): the server decides the amount, Stripe's signed webhook is the
// only thing that marks a booking paid, and every step is safe to repeat.

export { PAYMENT_MESSAGES };

export const CURRENCY = 'gbp';

export type PaymentStatus = 'unpaid' | 'processing' | 'paid' | 'failed';
type BookingRow = typeof bookings.$inferSelect;

function requirePayments(deps: AppDeps): PaymentsProvider {
  if (!deps.payments) throw notConfigured(PAYMENT_MESSAGES.notConfigured);
  return deps.payments;
}

/**
 * Stripe being unreachable is a 503 for the client (api.md: a provider that cannot answer), with
 * Retry-After and the cause in our log only.
 */
async function callProvider<T>(deps: AppDeps, work: () => Promise<T>): Promise<T> {
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
  if (!(await isDateStillHeld(deps, booking))) {
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
 * An unpaid booking holds its date for UNPAID_HOLD_MINUTES (availability.ts). Once that hold has
 * lapsed, others may have taken the date, so before taking money the date must still be free for
 * this booking's patches and not in the past (UK date). The lapsed booking no longer counts in
 * holdsCapacity, so the ordinary availability check leaves it out by itself.
 */
async function isDateStillHeld(deps: AppDeps, booking: BookingRow): Promise<boolean> {
  const now = deps.now();
  const holdEnds = booking.createdAt.getTime() + UNPAID_HOLD_MINUTES * 60_000;
  const isHeld = booking.paymentStatus === 'processing' || holdEnds > now.getTime();
  if (isHeld) return true;
  return deps.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    if (booking.preferredDate < londonToday(now)) return false;
    const answer = await checkDateAvailability(db, {
      date: booking.preferredDate,
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

// ------------------------------------------------------------------ POST /api/stripe/webhook

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

/**
 * Applies one verified Stripe event exactly once. The event id is recorded in the same
 * transaction as its effects: a crash rolls both back and Stripe's retry starts clean, and a
 * repeat delivery finds the id and changes nothing. The booking row is locked, so two different
 * "succeeded" events for one booking (or a late "failed") cannot race each other.
 */
export async function applyPaymentEvent(deps: AppDeps, event: PaymentEvent): Promise<WebhookOutcome> {
  let paidBookingId: number | undefined;
  const outcome = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    const recorded = await db
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type, receivedAt: deps.now() })
      .onConflictDoNothing({ target: stripeEvents.id })
      .returning({ id: stripeEvents.id });
    if (recorded.length === 0) return 'duplicate' as const;

    const intent = event.intent;
    if (!intent || !HANDLED_EVENTS.has(event.type)) return 'ignored' as const;

    const booking = await lockBookingFor(db, intent);
    if (!booking) {
      await writeChannelLog(db, {
        channel: 'booking',
        action: 'payment_booking_not_found',
        severity: 'error',
        entityType: 'payment_intent',
        entityId: intent.id,
        details:
          `Stripe event ${event.type} names no booking we know (metadata bookingId: ${intent.metadata.bookingId ?? 'none'}, ` +
          `bookingRef: ${intent.metadata.bookingRef ?? 'none'})`,
        metadata: { eventId: event.id, paymentIntentId: intent.id },
      });
      return 'booking_not_found' as const;
    }

    switch (event.type) {
      case 'payment_intent.succeeded':
        paidBookingId = booking.id;
        return markPaid(db, deps, booking, event, intent);
      case 'payment_intent.processing':
        if (booking.paymentStatus === 'paid') return 'already_paid' as const;
        if (isOlderThanApplied(booking, event)) return 'stale' as const;
        await db
          .update(bookings)
          .set({ paymentStatus: 'processing', paymentFailureMessage: null, paymentEventAt: event.created, updatedAt: deps.now() })
          .where(and(eq(bookings.id, booking.id), ne(bookings.paymentStatus, 'paid')));
        return 'processing' as const;
      default: {
        // payment_intent.payment_failed: recorded unless the booking is already paid (events
        // arrive in any order; a stale failure never undoes a payment).
        if (booking.paymentStatus === 'paid') return 'already_paid' as const;
        if (isOlderThanApplied(booking, event)) return 'stale' as const;
        const message = (intent.lastPaymentErrorMessage ?? 'The payment was declined').slice(0, 500);
        await db
          .update(bookings)
          .set({ paymentStatus: 'failed', paymentFailureMessage: message, paymentEventAt: event.created, updatedAt: deps.now() })
          .where(and(eq(bookings.id, booking.id), ne(bookings.paymentStatus, 'paid')));
        await writeChannelLog(db, {
          channel: 'booking',
          action: 'payment_failed',
          severity: 'warning',
          entityType: 'booking',
          entityId: booking.id,
          details: `Payment for booking #${booking.id} failed: ${message}`,
          metadata: { eventId: event.id, paymentIntentId: intent.id },
        });
        return 'failed' as const;
      }
    }
  });

  if (outcome === 'paid' && paidBookingId !== undefined) {
    // After commit: the receipt is in the outbox whatever happens to this delivery attempt. Only
    // this receipt is sent before Stripe gets its answer (a slow mail provider must not make the
    // webhook time out); other queued mail waits for the hourly maintenance job.
    await deliverNow(deps, [paymentReceiptKey(paidBookingId)]);
  }
  return outcome;
}

const HANDLED_EVENTS = new Set([
  'payment_intent.succeeded',
  'payment_intent.processing',
  'payment_intent.payment_failed',
]);

type PaymentIntentOfEvent = NonNullable<PaymentEvent['intent']>;

/**
 * Stripe delivers events in any order. A processing or failed event created before the last one
 * applied to the booking is stale: a late "processing" must not hide a failure, nor a late
 * failure a newer attempt. (Stripe's `created` has one-second resolution, so events of the same
 * second apply in arrival order.) A success is never stale: it always wins.
 */
function isOlderThanApplied(booking: BookingRow, event: PaymentEvent): boolean {
  return booking.paymentEventAt !== null && event.created.getTime() < booking.paymentEventAt.getTime();
}

/**
 * The booking the intent was made for. Its metadata names a booking id, but ids repeat in other
 * databases on the same Stripe account, so that booking is taken only when it stored this very
 * intent or the intent carries its bookingRef. Otherwise the booking that stored the intent's id.
 */
async function lockBookingFor(db: Database, intent: PaymentIntentOfEvent): Promise<BookingRow | undefined> {
  const fromMetadata = Number(intent.metadata.bookingId);
  if (intent.metadata.bookingId && isBookingId(fromMetadata)) {
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, fromMetadata)).for('update');
    if (booking && (booking.stripePaymentIntentId === intent.id || intent.metadata.bookingRef === bookingPaymentRef(booking))) {
      return booking;
    }
  }
  const [booking] = await db
    .select()
    .from(bookings)
    .where(eq(bookings.stripePaymentIntentId, intent.id))
    .for('update');
  return booking;
}

async function markPaid(
  db: Database,
  deps: AppDeps,
  booking: BookingRow,
  event: PaymentEvent,
  intent: PaymentIntentOfEvent,
): Promise<WebhookOutcome> {
  if (booking.paymentStatus === 'paid') {
    if (booking.stripePaymentIntentId === intent.id) return 'already_paid';
    // Another intent of this booking has also taken money: a real double charge for staff to refund.
    await writeChannelLog(db, {
      channel: 'booking',
      action: 'payment_duplicate_charge',
      severity: 'critical',
      entityType: 'booking',
      entityId: booking.id,
      details:
        `Booking #${booking.id} was already paid (PaymentIntent ${booking.stripePaymentIntentId ?? 'none recorded'}), ` +
        `and Stripe reports a second payment of ${describeAmount(intent.amountReceived, intent.currency)} on PaymentIntent ` +
        `${intent.id}. Refund one of them in Stripe.`,
      metadata: {
        eventId: event.id,
        paymentIntentId: intent.id,
        paidPaymentIntentId: booking.stripePaymentIntentId,
        amountReceived: intent.amountReceived,
        currency: intent.currency,
      },
    });
    return 'duplicate_charge';
  }

  if (intent.amountReceived !== booking.totalPricePence || intent.currency !== CURRENCY) {
    // Not paid, but not unpaid either: money has arrived. The booking says so (the success page
    // tells the customer we are checking it, and the date stays held) until staff have acted.
    const received = describeAmount(intent.amountReceived, intent.currency);
    await db
      .update(bookings)
      .set({
        paymentStatus: 'processing',
        paymentFailureMessage: `Under review: Stripe reports ${received} received on PaymentIntent ${intent.id}, but the booking costs ${formatPounds(booking.totalPricePence)}.`,
        paymentEventAt: event.created,
        updatedAt: deps.now(),
      })
      .where(eq(bookings.id, booking.id));
    await writeChannelLog(db, {
      channel: 'booking',
      action: 'payment_amount_mismatch',
      severity: 'critical',
      entityType: 'booking',
      entityId: booking.id,
      details:
        `Stripe reports ${intent.amountReceived} ${intent.currency.toUpperCase()} (minor units) received for booking ` +
        `#${booking.id}, which costs ${booking.totalPricePence} GBP pence. The booking was NOT marked paid; the customer ` +
        `was told we are checking the payment and will contact them within ${BUSINESS.responseTime}.`,
      metadata: {
        eventId: event.id,
        paymentIntentId: intent.id,
        amountReceived: intent.amountReceived,
        currency: intent.currency,
        expectedPence: booking.totalPricePence,
      },
    });
    return 'amount_mismatch';
  }

  const isTestPayment = !event.livemode;
  // Held while the payment is recorded and its date counted below, so that a booking made at
  // the same moment either sees this one paid or is counted with it.
  await lockDate(db, booking.preferredDate);
  const [updated] = await db
    .update(bookings)
    .set({
      paymentStatus: 'paid',
      amountPaidPence: intent.amountReceived,
      paidAt: event.created,
      paymentFailureMessage: null,
      // A paid booking is confirmed; one an admin already moved on (or cancelled) keeps its status.
      status: booking.status === 'pending' ? 'confirmed' : booking.status,
      // A Stripe test-mode payment flags the booking as a test for the admin (admin-dashboard.md).
      isTest: booking.isTest || isTestPayment,
      // The intent that paid (normally the one already stored): the duplicate-charge check above
      // and the success page's lookup go by it.
      stripePaymentIntentId: intent.id,
      paymentEventAt: event.created,
      updatedAt: deps.now(),
    })
    .where(and(eq(bookings.id, booking.id), ne(bookings.paymentStatus, 'paid')))
    .returning();
  if (!updated) return 'already_paid';

  if (booking.status === 'cancelled') {
    // Recorded as paid (the money has arrived), but someone must refund or reinstate it.
    await writeChannelLog(db, {
      channel: 'booking',
      action: 'payment_for_cancelled_booking',
      severity: 'critical',
      entityType: 'booking',
      entityId: booking.id,
      details: `Payment of ${formatPounds(intent.amountReceived)} received for cancelled booking #${booking.id}: refund it or reinstate the booking.`,
      metadata: { eventId: event.id, paymentIntentId: intent.id, amountPence: intent.amountReceived },
    });
  }

  await reportOverCapacity(db, deps, updated, event, intent);

  await writeChannelLog(db, {
    channel: 'booking',
    action: 'payment_succeeded',
    severity: 'info',
    entityType: 'booking',
    entityId: booking.id,
    details: `Payment of ${formatPounds(intent.amountReceived)} received for booking #${booking.id}${isTestPayment ? ' (Stripe test mode)' : ''}`,
    metadata: { eventId: event.id, paymentIntentId: intent.id, amountPence: intent.amountReceived, livemode: event.livemode },
  });
  // One receipt per booking, even if Stripe reports two different successes for it. It carries
  // a magic link of its own: the confirmation's token exists only in that e-mail.
  const trackingToken = await createTrackingLink(db, booking.id, deps.now());
  await queueEmail(db, paymentReceiptEmail(updated, deps.env.SITE_URL, trackingLinkUrl(deps.env.SITE_URL, trackingToken)));
  return 'paid';
}

/**
 * A booking whose unpaid hold had lapsed can still be paid (a tab kept open, an intent that could
 * not be cancelled) after others have filled its date. The money has arrived, so the payment is
 * recorded all the same; staff get a critical log naming the date and how far over it is.
 */
async function reportOverCapacity(
  db: Database,
  deps: AppDeps,
  booking: BookingRow,
  event: PaymentEvent,
  intent: PaymentIntentOfEvent,
): Promise<void> {
  const capacity = deps.env.DAILY_PATCH_CAPACITY;
  const patches = await heldPatches(db, booking.preferredDate, deps.now());
  if (patches <= capacity) return;
  const over = patches - capacity;
  await writeChannelLog(db, {
    channel: 'booking',
    action: 'payment_over_capacity',
    severity: 'critical',
    entityType: 'booking',
    entityId: booking.id,
    details:
      `Payment received for booking #${booking.id} (${booking.quantity} patches on ${formatLongDate(booking.preferredDate)}, ` +
      `${booking.preferredDate}), but that date now holds ${patches} patches: ${over} over the daily capacity of ${capacity}. ` +
      'Move a booking to another date or arrange extra capacity for the day.',
    metadata: {
      eventId: event.id,
      paymentIntentId: intent.id,
      date: booking.preferredDate,
      patches,
      capacity,
      patchesOver: over,
    },
  });
}

/** Pence as pounds; another currency's minor units as they are, named. */
function describeAmount(minorUnits: number, currency: string): string {
  return currency === CURRENCY ? formatPounds(minorUnits) : `${minorUnits} ${currency.toUpperCase()} (minor units)`;
}
