import { and, eq, isNull, lte } from 'drizzle-orm';
import { bookings, proofs } from '../../../../db/schema.ts';
import { PROOF_REMINDER_BUSINESS_DAYS } from '../../../domain/proofs.ts';
import type { AppDeps } from '../../app/deps.ts';
import { proofReminderEmail } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { addBusinessDays } from '../lib/london-days.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';

/**
 * One reminder per awaiting proof, PROOF_REMINDER_BUSINESS_DAYS business days (Mon-Fri, London)
 * after its upload, from the hourly maintenance job. The proof row is claimed (reminderSentAt)
 * in the transaction that queues the e-mail, so overlapping runs never send two.
 */
export async function sendProofReminders(deps: Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log'>, now: Date): Promise<number> {
  // Three business days are at least three calendar days: older rows only, then the exact rule.
  const cutoff = new Date(now.getTime() - PROOF_REMINDER_BUSINESS_DAYS * 24 * 3_600_000);
  const keys = await deps.db.transaction(async (tx) => {
    const candidates = await tx
      .select({ proof: proofs, booking: bookings })
      .from(proofs)
      .innerJoin(bookings, eq(bookings.id, proofs.bookingId))
      .where(and(eq(proofs.status, 'awaiting'), isNull(proofs.reminderSentAt), lte(proofs.createdAt, cutoff), eq(bookings.archived, false)))
      .for('update', { of: proofs, skipLocked: true });
    const due = candidates.filter(({ proof }) => addBusinessDays(proof.createdAt, PROOF_REMINDER_BUSINESS_DAYS) <= now);
    const queued: string[] = [];
    for (const { proof, booking } of due) {
      await tx.update(proofs).set({ reminderSentAt: now }).where(eq(proofs.id, proof.id));
      const token = await createTrackingLink(tx, booking.id, now);
      const message = proofReminderEmail({ booking, proof }, trackingLinkUrl(deps.env.SITE_URL, token));
      await queueEmail(tx, message);
      queued.push(message.dedupeKey!);
    }
    if (due.length) {
      await writeChannelLog(tx, {
        channel: 'email',
        action: 'proof_reminders_queued',
        details: `Proof reminders queued for ${due.length} booking(s) waiting ${PROOF_REMINDER_BUSINESS_DAYS} business days for a decision`,
        metadata: { bookingIds: due.map(({ booking }) => booking.id), proofIds: due.map(({ proof }) => proof.id) },
      });
    }
    return queued;
  });
  if (keys.length) await deps.mailer.deliverQueued(deps.db, { dedupeKeys: keys, now });
  return keys.length;
}
