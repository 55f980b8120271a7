import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, stripeEvents } from '../../../../db/schema.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { BUSINESS } from '../../../content/business.ts';
import { paymentReceiptEmail, paymentReceiptKey } from '../../email/templates/index.ts';
import type { AppDeps } from '../../api/deps.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import type { PaymentEvent } from '../../providers/payments.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';
import { heldPatches, lockDate } from '../bookings/availability.ts';
import { confirmInvite } from '../bookings/installation-invites.ts';
import { CURRENCY, bookingPaymentRef, isBookingId, type BookingRow } from './payments.ts';
import { applyStencilChangeEvent, STENCIL_CHANGE_KIND } from '../proofs/stencil-changes.ts';

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
  const stencilChangeMail: string[] = [];
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
    // A stencil change after approval is paid on its own intent (services/proofs/stencil-changes.ts).
    if (intent.metadata.kind === STENCIL_CHANGE_KIND) return applyStencilChangeEvent(db, deps, event, stencilChangeMail);

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
    const receiptKey = paymentReceiptKey(paidBookingId);
    await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [receiptKey], now: deps.now() }));
  }
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: stencilChangeMail, now: deps.now() }));
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
  // a magic link of its own (the confirmation's token exists only in that e-mail) and the
  // calendar invite that turns the TENTATIVE event CONFIRMED.
  const trackingToken = await createTrackingLink(db, booking.id, deps.now());
  const invite = await confirmInvite(db, updated, { siteUrl: deps.env.SITE_URL, now: deps.now() });
  await queueEmail(db, paymentReceiptEmail(updated, deps.env.SITE_URL, trackingLinkUrl(deps.env.SITE_URL, trackingToken), invite));
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
