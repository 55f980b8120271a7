import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, proofs } from '../../../../db/schema.ts';
import type { CrewStencil } from '../../../domain/crew.ts';

// What a crew needs at a stop beyond where and when (api.md "Crew day"): the customer's special
// instructions and the stencil the customer approved. Read only for the stops already on the
// worker's day (crew-stops.ts), so a link never shows another customer's booking; nothing else of
// the booking (surname, phone, e-mail) reaches the phone.

export interface StopDetails {
  specialInstructions: string | null;
  stencil: CrewStencil | null;
}

/** Details of the given bookings, in two queries whatever their number. */
export async function crewStopDetails(db: Database, bookingIds: readonly number[]): Promise<Map<number, StopDetails>> {
  const details = new Map<number, StopDetails>();
  if (bookingIds.length === 0) return details;
  const ids = [...bookingIds];
  const [rows, approved] = await Promise.all([
    db.select({ id: bookings.id, specialInstructions: bookings.specialInstructions }).from(bookings).where(inArray(bookings.id, ids)),
    // The latest approved version of each booking (a proof reopened by a paid change is no longer approved).
    db
      .selectDistinctOn([proofs.bookingId], { bookingId: proofs.bookingId, version: proofs.version, name: proofs.originalName, note: proofs.note })
      .from(proofs)
      .where(and(inArray(proofs.bookingId, ids), eq(proofs.status, 'approved')))
      .orderBy(proofs.bookingId, desc(proofs.version)),
  ]);
  const stencils = new Map(approved.map(({ bookingId, ...stencil }) => [bookingId, stencil]));
  for (const row of rows) {
    const instructions = row.specialInstructions?.trim();
    details.set(row.id, { specialInstructions: instructions ? instructions : null, stencil: stencils.get(row.id) ?? null });
  }
  return details;
}
