import { and, eq } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, proofs } from '../../../../db/schema.ts';
import { STENCIL_CHANGE_POUNDS, type ProofStatus } from '../../../domain/proofs.ts';
import { AppError, conflict } from '../../app/errors.ts';
import { proofApprovedStaffEmail, proofChangesStaffEmail } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { moveToStep } from '../projects/project-progress.ts';
import { PROOF_MESSAGES, lockBookingRow, staffAddress, toProofJson, type ProofDeps, type ProofJson, type ProofRow } from './stencil-proofs.ts';

// The customer's decision on an awaiting proof version (api.md "Stencil proof sign-off"): approve
// it, or ask for changes. Each is recorded once, under the booking's lock; staff are told by e-mail.

/** The 409 (or, for an approved version, the 402 of a paid change) for a proof no longer awaiting. */
function decisionRefused(status: ProofStatus, asking: 'approve' | 'changes'): AppError {
  if (status === 'approved') {
    return asking === 'changes'
      ? new AppError(402, PROOF_MESSAGES.paidChange, undefined, undefined, { amount: STENCIL_CHANGE_POUNDS })
      : conflict(PROOF_MESSAGES.alreadyApproved);
  }
  return conflict(status === 'superseded' ? PROOF_MESSAGES.superseded : PROOF_MESSAGES.alreadyChanged);
}

/**
 * The customer approves the awaiting version: recorded once (time and version), the booking's
 * stencilApprovedDate set, a booking at step 2 moved to step 3 as staff's dialog would, and
 * staff told (e-mail and a log line).
 */
export async function approveProof(deps: ProofDeps, proof: ProofRow): Promise<ProofJson> {
  const now = deps.now();
  const { approved, mailKey } = await deps.db.transaction(async (tx) => {
    const booking = await lockBookingRow(tx, proof.bookingId);
    if (booking.status === 'cancelled') throw conflict(PROOF_MESSAGES.cancelled);
    const [approved] = await tx
      .update(proofs)
      .set({ status: 'approved', decidedAt: now, approvedAt: now })
      .where(and(eq(proofs.id, proof.id), eq(proofs.status, 'awaiting')))
      .returning();
    if (!approved) throw decisionRefused((await currentStatus(tx, proof.id)) ?? 'superseded', 'approve');

    const note = `Stencil proof version ${approved.version} approved by the customer`;
    if (booking.currentStep === 2) {
      await moveToStep(tx, booking, { currentStep: 3, stencilApprovedDate: now.toISOString(), statusNotes: note }, { userId: 'customer', now });
    } else {
      await tx.update(bookings).set({ stencilApprovedDate: now, updatedAt: now }).where(eq(bookings.id, booking.id));
    }
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'proof_approved',
      entityType: 'booking',
      entityId: booking.id,
      userId: 'customer',
      details: `${note} (booking #${booking.id}${booking.currentStep === 2 ? ', moved to step 3' : ''})`,
      metadata: { proofId: approved.id, version: approved.version, fromStep: booking.currentStep },
    });
    const message = proofApprovedStaffEmail({ booking, proof: approved }, staffAddress(deps), now);
    await queueEmail(tx, message);
    return { approved, mailKey: message.dedupeKey! };
  });
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [mailKey], now: deps.now() }));
  return toProofJson(approved);
}

async function currentStatus(tx: Transaction | Database, proofId: number): Promise<ProofStatus | null> {
  const [row] = await tx.select({ status: proofs.status }).from(proofs).where(eq(proofs.id, proofId));
  return row?.status ?? null;
}

/** The customer asks for changes to the awaiting version; after an approval this is a paid change (402). */
export async function requestProofChanges(deps: ProofDeps, proof: ProofRow, comment: string): Promise<ProofJson> {
  const now = deps.now();
  const { changed, mailKey } = await deps.db.transaction(async (tx) => {
    const booking = await lockBookingRow(tx, proof.bookingId);
    const [changed] = await tx
      .update(proofs)
      .set({ status: 'changes_requested', decidedAt: now, comment })
      .where(and(eq(proofs.id, proof.id), eq(proofs.status, 'awaiting')))
      .returning();
    if (!changed) throw decisionRefused((await currentStatus(tx, proof.id)) ?? 'superseded', 'changes');
    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'proof_changes_requested',
      entityType: 'booking',
      entityId: booking.id,
      userId: 'customer',
      details: `The customer of booking #${booking.id} asked for changes to stencil proof version ${changed.version}`,
      metadata: { proofId: changed.id, version: changed.version, commentLength: comment.length },
    });
    const message = proofChangesStaffEmail({ booking, proof: changed }, staffAddress(deps), { id: null, comment, settlement: null });
    await queueEmail(tx, message);
    return { changed, mailKey: message.dedupeKey! };
  });
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [mailKey], now: deps.now() }));
  return toProofJson(changed);
}

