import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, stripeEvents } from '../../../../db/schema.ts';
import { paymentReceiptKey } from '../../email/templates/index.ts';
import type { AppDeps } from '../../app/deps.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { markPaid } from './payment-success.ts';
import type { PaymentEvent } from '../../providers/payments.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { bookingPaymentRef, isBookingId, type BookingRow, type PaymentIntentOfEvent, type WebhookOutcome } from './payments.ts';
import { applyStencilChangeEvent, STENCIL_CHANGE_KIND } from '../proofs/stencil-changes.ts';

// ------------------------------------------------------------------ POST /api/stripe/webhook

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
