import { actorNames } from '../staff/staff-users.ts';
import { and, desc, eq } from 'drizzle-orm';
import { isUniqueViolation, type Database, type Transaction } from '../../../../db/client.ts';
import { bookings, proofs, stencilChanges } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import { formatPounds, STENCIL_CHANGE_PENCE } from '../../../domain/pricing.ts';
import { STENCIL_CHANGE_POUNDS } from '../../../domain/proofs.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, conflict, notFound } from '../../app/errors.ts';
import { proofChangesStaffEmail, stencilChangeReceiptEmail, type ChangeSettlement } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { PaymentsUnavailableError, type PaymentEvent } from '../../providers/payments.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { lockBookingRow, staffAddress } from './stencil-proofs.ts';
import { issueStencilChangeInvoice } from '../documents/invoices.ts';
import { invoiceAttachment } from '../documents/invoice-pdf.ts';

/**
 * A stencil change after approval (api.md POST /api/bookings/{id}/stencil-change): the stencil is
 * remade, so it costs STENCIL_CHANGE_PENCE, charged at the server's price through the same Stripe
 * flow as a booking. The request reaches staff and reopens the approval only once paid (the
 * signed webhook, exactly once) or waived by staff. Without payments configured the request is
 * kept, the customer told it will be invoiced, and staff can waive it.
 */

/** PaymentIntent metadata `kind` that sends a webhook event here instead of to the booking's payment. */
export const STENCIL_CHANGE_KIND = 'stencil_change';

export const STENCIL_CHANGE_MESSAGES = {
  notApproved: 'There is no approved proof to change. Use "Request changes" on the proof that is waiting for you.',
  installed: 'The stencil has already been used for your installation, so it can no longer be changed. Please contact us.',
  invoiced: `Card payments are not available right now, so the ${formatPounds(STENCIL_CHANGE_PENCE)} for this change will be invoiced. We have your request and will be in touch.`,
  changeNotFound: 'Stencil change not found',
  notAwaitingPayment: 'This change is no longer waiting for payment.',
} as const;

type ChangeRow = typeof stencilChanges.$inferSelect;
type Deps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now' | 'payments'>;

/**
 * Records (or updates) the booking's open change request to its approved proof, then asks Stripe
 * for the £100 intent, reused on a retry. 503 without payments: the request stays for staff.
 */
export async function requestStencilChange(deps: Deps, bookingId: number, comment: string) {
  const now = deps.now();
  const change = await deps.db.transaction(async (tx) => {
    const booking = await lockBookingRow(tx, bookingId);
    const [latest] = await tx.select().from(proofs).where(eq(proofs.bookingId, bookingId)).orderBy(desc(proofs.version)).limit(1);
    if (!latest || latest.status !== 'approved') throw conflict(STENCIL_CHANGE_MESSAGES.notApproved);
    if (booking.currentStep >= 4 || booking.status === 'completed') throw conflict(STENCIL_CHANGE_MESSAGES.installed);
    const [open] = await tx
      .select()
      .from(stencilChanges)
      .where(and(eq(stencilChanges.proofId, latest.id), eq(stencilChanges.status, 'awaiting_payment')))
      .limit(1);
    if (open) {
      const [updated] = await tx.update(stencilChanges).set({ comment, updatedAt: now }).where(eq(stencilChanges.id, open.id)).returning();
      return updated!;
    }
    const [inserted] = await tx
      .insert(stencilChanges)
      .values({ bookingId, proofId: latest.id, comment, amountPence: STENCIL_CHANGE_PENCE, createdAt: now, updatedAt: now })
      .returning();
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'stencil_change_requested',
      entityType: 'booking',
      entityId: bookingId,
      userId: 'customer',
      details:
        `The customer of booking #${bookingId} asked to change approved proof version ${latest.version}: ` +
        `${formatPounds(STENCIL_CHANGE_PENCE)} due before it reaches the studio` +
        (deps.payments ? '' : ' (card payments are not configured: invoice it, or waive it from the dashboard)'),
      metadata: { stencilChangeId: inserted!.id, proofId: latest.id, version: latest.version },
    });
    return inserted!;
  });

  const payments = deps.payments;
  if (!payments) throw new AppError(503, STENCIL_CHANGE_MESSAGES.invoiced, undefined, undefined, { amount: STENCIL_CHANGE_POUNDS, invoiced: true });
  let intent;
  try {
    intent = await payments.createOrReuseIntent({
      bookingId,
      bookingRef: `${bookingId}:stencil-change:${change.id}:${change.createdAt.getTime()}`,
      amountPence: change.amountPence,
      currency: 'gbp',
      description: `${BUSINESS.name} stencil change for booking #${bookingId}`,
      existingIntentId: change.stripePaymentIntentId,
      metadata: { kind: STENCIL_CHANGE_KIND, stencilChangeId: String(change.id) },
    });
  } catch (error) {
    if (error instanceof PaymentsUnavailableError) {
      deps.log.error('Payment provider unavailable', { error: error.message });
      throw new AppError(503, PAYMENT_MESSAGES.unreachable, undefined, { 'Retry-After': '10' });
    }
    throw error;
  }
  if (intent.status === 'succeeded' || intent.status === 'processing') throw conflict(PAYMENT_MESSAGES.alreadyProcessing);
  if (intent.amount !== change.amountPence || intent.currency !== 'gbp' || !intent.clientSecret) {
    deps.log.error('PaymentIntent does not match its stencil change', { stencilChangeId: change.id, intentId: intent.id });
    throw new AppError(502, PAYMENT_MESSAGES.unreachable);
  }
  if (change.stripePaymentIntentId !== intent.id) {
    try {
      await deps.db
        .update(stencilChanges)
        .set({ stripePaymentIntentId: intent.id, updatedAt: now })
        .where(and(eq(stencilChanges.id, change.id), eq(stencilChanges.status, 'awaiting_payment')));
    } catch (error) {
      if (isUniqueViolation(error, 'stencil_changes_payment_intent_idx')) throw conflict(PAYMENT_MESSAGES.intentConflict);
      throw error;
    }
  }
  // The publishable key of this server's Stripe account, from its own settings: the tracking page
  // is built once, and a key baked into it may be missing or older than the secret key here.
  const publishableKey = deps.env.PUBLIC_STRIPE_PUBLISHABLE_KEY;
  return { clientSecret: intent.clientSecret, amount: STENCIL_CHANGE_POUNDS, ...(publishableKey ? { publishableKey } : {}) };
}

/**
 * A paid or waived change reaches staff and reopens the approval: the approved version becomes
 * 'changes_requested' with the customer's comment (its approvedAt kept), the booking's
 * stencilApprovedDate is cleared, and staff upload the next version, a new awaiting cycle.
 */
async function reopenApproval(tx: Transaction | Database, deps: Pick<AppDeps, 'env'>, change: ChangeRow, settlement: ChangeSettlement, now: Date) {
  const booking = await lockBookingRow(tx, change.bookingId);
  const [proof] = await tx
    .update(proofs)
    .set({ status: 'changes_requested', decidedAt: now, comment: change.comment })
    .where(and(eq(proofs.id, change.proofId), eq(proofs.status, 'approved')))
    .returning();
  await tx.update(bookings).set({ stencilApprovedDate: null, updatedAt: now }).where(eq(bookings.id, booking.id));
  const [version] = proof ? [proof] : await tx.select().from(proofs).where(eq(proofs.id, change.proofId));
  const message = proofChangesStaffEmail({ booking, proof: version! }, staffAddress(deps), { id: change.id, comment: change.comment, settlement });
  await queueEmail(tx, message);
  return message.dedupeKey!;
}

/**
 * The webhook's branch for a stencil change's PaymentIntent, inside applyPaymentEvent's
 * transaction (the event id is already recorded there, so a replay never reaches this). The
 * change row is locked; only an 'awaiting_payment' change of exactly this intent and amount is
 * marked paid. Keys of e-mails to send after the commit are pushed onto `mailKeys`.
 */
export async function applyStencilChangeEvent(
  tx: Database,
  deps: Pick<AppDeps, 'env' | 'now'>,
  event: PaymentEvent,
  mailKeys: string[],
): Promise<'paid' | 'already_paid' | 'amount_mismatch' | 'booking_not_found' | 'failed' | 'ignored'> {
  const intent = event.intent!;
  const changeId = Number(intent.metadata.stencilChangeId);
  const [change] = Number.isSafeInteger(changeId)
    ? await tx.select().from(stencilChanges).where(eq(stencilChanges.id, changeId)).for('update')
    : [];
  if (!change || change.stripePaymentIntentId !== intent.id) {
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'stencil_change_payment_unknown',
      severity: 'error',
      entityType: 'payment_intent',
      entityId: intent.id,
      details: `Stripe event ${event.type} names a stencil change we do not know (metadata stencilChangeId: ${intent.metadata.stencilChangeId ?? 'none'})`,
      metadata: { eventId: event.id, paymentIntentId: intent.id },
    });
    return 'booking_not_found';
  }
  if (event.type === 'payment_intent.payment_failed') {
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'stencil_change_payment_failed',
      severity: 'warning',
      entityType: 'booking',
      entityId: change.bookingId,
      details: `Payment for the stencil change of booking #${change.bookingId} failed: ${(intent.lastPaymentErrorMessage ?? 'declined').slice(0, 300)}`,
      metadata: { eventId: event.id, paymentIntentId: intent.id, stencilChangeId: change.id },
    });
    return 'failed';
  }
  if (event.type !== 'payment_intent.succeeded') return 'ignored';
  if (change.status === 'paid') return 'already_paid';
  if (change.status === 'waived') {
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'stencil_change_paid_after_waiver',
      severity: 'critical',
      entityType: 'booking',
      entityId: change.bookingId,
      details: `The stencil change of booking #${change.bookingId} was paid (${formatPounds(intent.amountReceived)}) after staff waived it: refund it in Stripe.`,
      metadata: { eventId: event.id, paymentIntentId: intent.id, stencilChangeId: change.id },
    });
    return 'already_paid';
  }
  if (intent.amountReceived !== change.amountPence || intent.currency !== 'gbp') {
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'stencil_change_amount_mismatch',
      severity: 'critical',
      entityType: 'booking',
      entityId: change.bookingId,
      details:
        `Stripe reports ${intent.amountReceived} ${intent.currency.toUpperCase()} (minor units) for the stencil change of booking ` +
        `#${change.bookingId}, which costs ${change.amountPence} GBP pence. The change was NOT applied: check it and waive or refund.`,
      metadata: { eventId: event.id, paymentIntentId: intent.id, stencilChangeId: change.id, amountReceived: intent.amountReceived },
    });
    return 'amount_mismatch';
  }
  const now = deps.now();
  const [paid] = await tx
    .update(stencilChanges)
    .set({ status: 'paid', paidAt: event.created, updatedAt: now })
    .where(and(eq(stencilChanges.id, change.id), eq(stencilChanges.status, 'awaiting_payment')))
    .returning();
  if (!paid) return 'already_paid';
  mailKeys.push(await reopenApproval(tx, deps, paid, { kind: 'paid', amountPence: intent.amountReceived }, now));
  // Its invoice commits with the payment (services/documents/invoices.ts), and the customer's
  // receipt with it, carrying the invoice's PDF (drawn when the receipt is delivered). Taken after
  // reopenApproval has locked the booking: the booking's lock before the invoice counter's, in the
  // order markPaid takes them, so the two never wait on each other.
  const [booking] = await tx.select().from(bookings).where(eq(bookings.id, paid.bookingId));
  const invoice = await issueStencilChangeInvoice(tx, deps.env, now, paid, booking!, intent.id);
  const receipt = stencilChangeReceiptEmail(
    { booking: booking!, changeId: paid.id, amountPence: paid.amountPence, invoiceNumber: invoice.number, attachments: [invoiceAttachment(invoice)] },
    deps.env.SITE_URL,
  );
  await queueEmail(tx, receipt);
  mailKeys.push(receipt.dedupeKey!);
  await writeChannelLog(tx, {
    channel: 'booking',
    action: 'stencil_change_paid',
    entityType: 'booking',
    entityId: change.bookingId,
    details: `Stencil change of booking #${change.bookingId} paid (${formatPounds(intent.amountReceived)}${event.livemode ? '' : ', Stripe test mode'}): approval reopened, the request is with the studio`,
    metadata: { eventId: event.id, paymentIntentId: intent.id, stencilChangeId: change.id, amountPence: intent.amountReceived },
  });
  return 'paid';
}

/** Staff waive the £100 of an unpaid change (who and why kept), which then applies as if paid. */
export async function waiveStencilChange(
  deps: Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now' | 'payments'>,
  changeId: number,
  reason: string,
  userId: string,
) {
  const now = deps.now();
  const { waived, mailKey } = await deps.db.transaction(async (tx) => {
    const [change] = await tx.select().from(stencilChanges).where(eq(stencilChanges.id, changeId)).for('update');
    if (!change) throw notFound(STENCIL_CHANGE_MESSAGES.changeNotFound);
    if (change.status !== 'awaiting_payment') throw conflict(STENCIL_CHANGE_MESSAGES.notAwaitingPayment);
    const [waived] = await tx
      .update(stencilChanges)
      .set({ status: 'waived', waivedBy: userId, waivedReason: reason, waivedAt: now, updatedAt: now })
      .where(eq(stencilChanges.id, change.id))
      .returning();
    // The record keeps the account's id; words for people carry its name.
    const by = (await actorNames(tx as unknown as Database, [userId])).get(userId) ?? userId;
    const mailKey = await reopenApproval(tx, deps, waived!, { kind: 'waived', by, reason }, now);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'stencil_change_waived',
      entityType: 'booking',
      entityId: change.bookingId,
      userId,
      details: `${formatPounds(change.amountPence)} stencil change charge of booking #${change.bookingId} waived by ${by}: ${reason}`,
      metadata: { stencilChangeId: change.id, reason },
    });
    return { waived: waived!, mailKey };
  });
  // A tab still holding the intent must not take £100 for a change already waived.
  if (waived.stripePaymentIntentId && deps.payments) {
    await deps.payments.cancelIntent(waived.stripePaymentIntentId).catch((error: unknown) => {
      deps.log.error('Could not cancel the PaymentIntent of a waived stencil change', {
        stencilChangeId: waived.id,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [mailKey], now: deps.now() }));
  return waived;
}
