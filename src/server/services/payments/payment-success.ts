import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { BUSINESS } from '../../../content/business.ts';
import { paymentReceiptEmail } from '../../email/templates/index.ts';
import type { AppDeps } from '../../app/deps.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import type { PaymentEvent } from '../../providers/payments.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';
import { capacityOn, heldPatches, lockDate } from '../bookings/availability.ts';
import { installationDay } from '../../../domain/schedule.ts';
import { confirmInvite } from '../bookings/installation-invites.ts';
import { CURRENCY, type BookingRow, type PaymentIntentOfEvent, type WebhookOutcome } from './payments.ts';
import { issueBookingInvoice } from '../documents/invoices.ts';
import { invoiceAttachment } from '../documents/invoice-pdf.ts';

/**
 * A verified "payment succeeded" event for a booking (payment-webhook.ts has locked the booking
 * and recorded the event): the booking is marked paid once, or the event is reported for staff
 * when it cannot be (a second charge, the wrong amount or currency).
 */

export async function markPaid(
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
  await lockDate(db, installationDay(booking));
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
  // The invoice's number is taken in this transaction, so it commits (or rolls back) with the
  // payment. Its PDF is not drawn here: the receipt names the invoice, and the mailer draws it when
  // it delivers the receipt after the commit (documents/invoice-attachments.ts), so the counter's
  // row is held for the insert only, never while pdfkit loads.
  const invoice = await issueBookingInvoice(db, deps.env, deps.now(), updated, intent.id, event.created);
  const attachments = [...(invite ? [invite] : []), invoiceAttachment(invoice)];
  await queueEmail(db, paymentReceiptEmail(updated, deps.env.SITE_URL, trackingLinkUrl(deps.env.SITE_URL, trackingToken), attachments, invoice.number));
  return 'paid';
}

/**
 * An unpaid booking reserves nothing (availability.ts), so it can still be paid (a tab kept open,
 * an intent that could not be cancelled) after paid bookings have filled its date. The money has arrived, so the payment is
 * recorded all the same; staff get a critical log naming the date and how far over it is.
 */
async function reportOverCapacity(
  db: Database,
  deps: AppDeps,
  booking: BookingRow,
  event: PaymentEvent,
  intent: PaymentIntentOfEvent,
): Promise<void> {
  const day = installationDay(booking);
  const capacity = await capacityOn(db, day, deps.env.DAILY_PATCH_CAPACITY);
  const patches = await heldPatches(db, day);
  if (patches <= capacity) return;
  const over = patches - capacity;
  await writeChannelLog(db, {
    channel: 'booking',
    action: 'payment_over_capacity',
    severity: 'critical',
    entityType: 'booking',
    entityId: booking.id,
    details:
      `Payment received for booking #${booking.id} (${booking.quantity} patches on ${formatLongDate(day)}, ` +
      `${day}), but that date now holds ${patches} patches: ${over} over the daily capacity of ${capacity}. ` +
      'Move a booking to another date or arrange extra capacity for the day.',
    metadata: {
      eventId: event.id,
      paymentIntentId: intent.id,
      date: day,
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
