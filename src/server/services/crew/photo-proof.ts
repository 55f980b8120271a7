import { and, asc, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { photos, workers } from '../../../../db/schema.ts';
import { workerDisplayName } from './crew-links.ts';

// A crew photo is proof of the work: when the phone took it, where (with the worker's
// permission) and who sent it. Staff see all three on the project card and the crew board.

/** The worker who sent each photo, by worker id (a worker since removed has no name: null). */
export async function workerNames(db: Database, workerIds: readonly (number | null)[]): Promise<Map<number, string>> {
  const ids = [...new Set(workerIds.filter((id): id is number => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: workers.id, name: workers.name, email: workers.email }).from(workers).where(inArray(workers.id, ids));
  return new Map(rows.map((row) => [row.id, workerDisplayName(row)]));
}

export interface CrewPhotoProof {
  id: number;
  bookingId: number;
  photoType: string;
  fileName: string;
  thumbnailFileName: string | null;
  /** When the phone took it (ISO); null when the phone did not say. */
  takenAt: string | null;
  /** When the server stored it (ISO). */
  createdAt: string;
  lat: number | null;
  lng: number | null;
  accuracyM: number | null;
  workerName: string | null;
}

/** The crew photos of the given bookings, oldest first, each with its time, place and worker. */
export async function crewPhotoProofs(db: Database, bookingIds: readonly number[]): Promise<CrewPhotoProof[]> {
  if (bookingIds.length === 0) return [];
  const rows = await db
    .select()
    .from(photos)
    .where(and(inArray(photos.bookingId, [...bookingIds]), isNotNull(photos.workerId)))
    .orderBy(asc(photos.createdAt), asc(photos.id));
  const names = await workerNames(
    db,
    rows.map((row) => row.workerId),
  );
  return rows.map((row) => ({
    id: row.id,
    bookingId: row.bookingId,
    photoType: row.photoType,
    fileName: row.fileName,
    thumbnailFileName: row.thumbnailFileName,
    takenAt: row.takenAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lat: row.lat,
    lng: row.lng,
    accuracyM: row.accuracyM,
    workerName: row.workerId === null ? null : (names.get(row.workerId) ?? null),
  }));
}

