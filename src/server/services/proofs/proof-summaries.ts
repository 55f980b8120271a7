import { desc, inArray } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { proofs } from '../../../../db/schema.ts';
import type { ProofStatus, ProofSummary } from '../../../domain/proofs.ts';

type ProofRow = typeof proofs.$inferSelect;

/** Since when the latest version has been in its state. */
function sinceOf(row: Pick<ProofRow, 'status' | 'createdAt' | 'decidedAt' | 'approvedAt'>): Date {
  if (row.status === 'approved') return row.approvedAt ?? row.decidedAt ?? row.createdAt;
  return row.status === 'awaiting' ? row.createdAt : (row.decidedAt ?? row.createdAt);
}

/**
 * The `proof` field of the admin's booking rows, for many bookings in one query: each booking's
 * latest version (DISTINCT ON, served by the (booking_id, version) index).
 */
export async function proofSummaries(db: Database, bookingIds: readonly number[]): Promise<Map<number, ProofSummary>> {
  const summaries = new Map<number, ProofSummary>();
  if (!bookingIds.length) return summaries;
  const rows = await db
    .selectDistinctOn([proofs.bookingId], {
      bookingId: proofs.bookingId,
      status: proofs.status,
      version: proofs.version,
      createdAt: proofs.createdAt,
      decidedAt: proofs.decidedAt,
      approvedAt: proofs.approvedAt,
    })
    .from(proofs)
    .where(inArray(proofs.bookingId, [...bookingIds]))
    .orderBy(proofs.bookingId, desc(proofs.version));
  for (const row of rows) {
    summaries.set(row.bookingId, { status: row.status as ProofStatus, version: row.version, since: sinceOf(row).toISOString() });
  }
  return summaries;
}
