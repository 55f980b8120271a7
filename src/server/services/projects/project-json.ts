import { desc, getTableColumns, inArray } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { photos, progressLogs } from '../../../../db/schema.ts';
import { toBookingJson, type BookingRow } from '../bookings/booking-view.ts';
import { workerNames } from '../crew/photo-proof.ts';
import { crewStatusByBooking } from '../crew/crew-stops.ts';
import { proofSummaries } from '../proofs/proof-summaries.ts';
import { stencilApprovedAt } from '../../../domain/proofs.ts';
import { staffNameOf } from '../staff/staff-users.ts';
import { toPhotoJson } from './project-photos.ts';

/**
 * Projects as the Projects tab's cards show them: each booking with its progress history (newest
 * first) and photos, in two more queries whatever the number of rows (the page is chosen by
 * services/projects/projects-list.ts).
 */
export async function toProjectsJson(db: Database, rows: BookingRow[]) {
  const ids = rows.map((row) => row.id);
  const logs = ids.length
    ? await db
        .select({ ...getTableColumns(progressLogs), author: staffNameOf(progressLogs.userId) })
        .from(progressLogs)
        .where(inArray(progressLogs.bookingId, ids))
        .orderBy(desc(progressLogs.createdAt), desc(progressLogs.id))
    : [];
  const photoRows = ids.length
    ? await db
        .select({ ...getTableColumns(photos), hiddenByName: staffNameOf(photos.hiddenBy) })
        .from(photos)
        .where(inArray(photos.bookingId, ids))
        .orderBy(desc(photos.createdAt), desc(photos.id))
    : [];
  const proofs = await proofSummaries(db, ids);
  const crew = await crewStatusByBooking(db, ids);
  // A crew photo shows who sent it, as proof beside its time and place.
  const names = await workerNames(
    db,
    photoRows.map((photo) => photo.workerId),
  );
  return rows.map((row) => {
    const bookingPhotos = photoRows
      .filter((photo) => photo.bookingId === row.id)
      .map((photo) => ({
        ...toPhotoJson(photo),
        workerName: photo.workerId === null ? null : (names.get(photo.workerId) ?? null),
        // Who hid it from the customer, for the tile's "Hidden from customer" mark.
        hiddenByName: photo.hiddenAt === null ? null : photo.hiddenByName,
      }));
    const proof = proofs.get(row.id) ?? null;
    const json = toBookingJson(row, {
      progressLogs: logs.filter((log) => log.bookingId === row.id).map(toProgressLogJson),
      photos: bookingPhotos,
      photoCount: bookingPhotos.length,
      proof,
      // The crew's status on the latest day it worked here (status, time, worker), or null.
      crew: crew.get(row.id) ?? null,
    });
    return { ...json, stencilApprovedDate: stencilApprovedAt(json.stencilApprovedDate, proof) };
  });
}

export function toProgressLogJson(row: typeof progressLogs.$inferSelect & { author?: string | null }) {
  return {
    id: row.id,
    step: row.step,
    stepName: row.stepName,
    status: row.status,
    notes: row.notes,
    /** Who wrote it: a staff member's name; null for notes from before accounts, crews and the system. */
    author: row.author ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
