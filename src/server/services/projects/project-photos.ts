import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { bookings, photos } from '../../../../db/schema.ts';
import { TOTAL_PROJECT_STEPS } from '../../../domain/project-steps.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, badRequest, notFound } from '../../app/errors.ts';
import { detectFileType, sanitizeOriginalName } from '../files/file-type.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { cleanImage, makeThumbnail } from '../files/image-clean.ts';

export const PHOTO_TYPES = ['before', 'during', 'after', 'reference'] as const;
export type PhotoType = (typeof PHOTO_TYPES)[number];

/**
 * A photo must fit one Netlify function request (about 4.5 MB of file once base64-encoded), so
 * the admin's browser scales it down first (long side 2560 px, JPEG) and sends the 480 px
 * thumbnail with it. Both limits leave that request room to spare.
 */
export const MAX_PHOTO_BYTES = 4 * 1024 * 1024;
export const MAX_THUMBNAIL_BYTES = 512 * 1024;

export const PHOTO_MESSAGES = {
  // admin-dashboard.md §5, word for word.
  missing: 'Please select a file and photo type.',
  notImage: 'Please select an image file.',
  tooLarge: 'Photo is too large. The maximum size is 4MB.',
  photoType: 'Photo type must be before, during, after or reference',
  step: `Step must be a whole number from 1 to ${TOTAL_PROJECT_STEPS}`,
  description: 'Description must be at most 500 characters',
  bookingNotFound: 'Booking not found',
  photoNotFound: 'Photo not found',
} as const;

const DESCRIPTION_MAX_LENGTH = 500;

export interface ImageType {
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp';
  extension: 'png' | 'jpg' | 'webp';
}

/**
 * Photos are judged by their bytes like every upload (api.md), and only raster types a browser
 * shows safely are kept: PNG, JPEG, WebP. SVG is refused here: a photo is never a drawing.
 */
export function detectImageType(bytes: Uint8Array): ImageType | null {
  const isWebp =
    bytes.length >= 12 &&
    String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP';
  if (isWebp) return { mimeType: 'image/webp', extension: 'webp' };
  const type = detectFileType(bytes);
  if (type?.mimeType === 'image/png' || type?.mimeType === 'image/jpeg') return type;
  return null;
}

export type PhotoRow = typeof photos.$inferSelect;

export function toPhotoJson(row: PhotoRow) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    fileName: row.fileName,
    thumbnailFileName: row.thumbnailFileName,
    // Crew proof, for staff only: the tracking page and the gallery select their own fields.
    takenAt: row.takenAt?.toISOString() ?? null,
    lat: row.lat,
    lng: row.lng,
    accuracyM: row.accuracyM,
    workerId: row.workerId,
    originalName: row.originalName,
    photoType: row.photoType,
    step: row.step,
    description: row.description,
    fileSize: row.fileSize,
    mimeType: row.mimeType,
    createdAt: row.createdAt.toISOString(),
    /** When staff hid it from the customer (photo-visibility.ts); null while the customer sees it. */
    hiddenAt: row.hiddenAt?.toISOString() ?? null,
  };
}

export type PhotoJson = ReturnType<typeof toPhotoJson>;

export interface PhotoUpload {
  photo: unknown;
  thumbnail: unknown;
  photoType: unknown;
  step: unknown;
  description: unknown;
  /** A crew's upload (services/crew/crew-photos.ts): when and where it was taken, by whom, and its key. */
  proof?: PhotoProof;
}

export interface PhotoProof {
  takenAt: Date;
  lat: number | null;
  lng: number | null;
  accuracyM: number | null;
  workerId: number;
  /** The phone's Idempotency-Key: a retried upload answers the photo stored the first time. */
  clientUploadId: string;
  /** The photo types a crew may send (no 'reference'). */
  photoTypes: readonly string[];
}

interface Actor {
  userId: string;
  now: Date;
}

async function photoByClientId(db: Deps['db'], bookingId: number, clientUploadId: string): Promise<PhotoRow | undefined> {
  const [row] = await db
    .select()
    .from(photos)
    .where(and(eq(photos.bookingId, bookingId), eq(photos.clientUploadId, clientUploadId)));
  return row;
}

type Deps = Pick<AppDeps, 'db' | 'files' | 'log'>;

/** Reads one file field's bytes and type, refusing what is not a PNG, JPEG or WebP image. */
async function readImage(file: File, maxBytes: number) {
  if (file.size > maxBytes) throw new AppError(413, PHOTO_MESSAGES.tooLarge, { photo: PHOTO_MESSAGES.tooLarge });
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = detectImageType(bytes);
  if (!type) throw new AppError(415, PHOTO_MESSAGES.notImage, { photo: PHOTO_MESSAGES.notImage });
  return { bytes, type };
}

/**
 * Stores a project photo (and its thumbnail) under a random, unguessable name, then records it.
 * The files are written before the transaction (no storage call holds a row lock) and removed
 * again if the row cannot be written.
 */
export async function uploadPhoto(
  deps: Deps,
  bookingId: number,
  upload: PhotoUpload,
  actor: Actor,
): Promise<PhotoJson & { replayed?: boolean }> {
  const { db, files } = deps;
  const [booking] = await db
    .select({ id: bookings.id, currentStep: bookings.currentStep })
    .from(bookings)
    .where(eq(bookings.id, bookingId));
  if (!booking) throw notFound(PHOTO_MESSAGES.bookingNotFound);

  const photoType = typeof upload.photoType === 'string' ? upload.photoType.trim() : '';
  if (!(upload.photo instanceof File) || upload.photo.size === 0 || photoType === '') {
    throw badRequest(PHOTO_MESSAGES.missing, {
      ...(upload.photo instanceof File && upload.photo.size > 0 ? {} : { photo: PHOTO_MESSAGES.missing }),
      ...(photoType ? {} : { photoType: PHOTO_MESSAGES.missing }),
    });
  }
  const allowedTypes: readonly string[] = upload.proof?.photoTypes ?? PHOTO_TYPES;
  if (!allowedTypes.includes(photoType)) {
    const message = upload.proof ? 'Photo type must be before, during or after' : PHOTO_MESSAGES.photoType;
    throw badRequest(message, { photoType: message });
  }
  const proof = upload.proof;
  if (proof) {
    const earlier = await photoByClientId(db, bookingId, proof.clientUploadId);
    if (earlier) return { ...toPhotoJson(earlier), replayed: true };
  }
  const step = parseStep(upload.step, booking.currentStep);
  const description = typeof upload.description === 'string' ? upload.description.trim() : '';
  if (description.length > DESCRIPTION_MAX_LENGTH || description.includes('\u0000')) {
    throw badRequest(PHOTO_MESSAGES.description, { description: PHOTO_MESSAGES.description });
  }

  const read = await readImage(upload.photo, MAX_PHOTO_BYTES);
  // Customers see these files: decoded and encoded again (files/image-clean.ts), so no camera
  // metadata (a phone's GPS position) goes with them. The thumbnail is made here from the clean
  // pixels; one the browser sent is only checked to be an image and its bytes are never kept.
  if (upload.thumbnail instanceof File && upload.thumbnail.size > 0) await readImage(upload.thumbnail, MAX_THUMBNAIL_BYTES);
  const cleaned = await cleanImage(read.bytes, read.type.mimeType, 'photo');
  const photo = { bytes: cleaned.bytes, type: read.type };
  const small = await makeThumbnail(cleaned.bytes, 'photo');
  const thumbnail = { bytes: small.bytes, type: { mimeType: 'image/jpeg', extension: 'jpg' } as const };

  const baseName = `photo-${randomUUID()}`;
  const fileName = `${baseName}.${photo.type.extension}`;
  const thumbnailFileName: string | null = `${baseName}-thumb.${thumbnail.type.extension}`;
  const stored: string[] = [];
  try {
    await files.put(fileName, photo.bytes, photo.type.mimeType);
    stored.push(fileName);
    if (thumbnail && thumbnailFileName) {
      await files.put(thumbnailFileName, thumbnail.bytes, thumbnail.type.mimeType);
      stored.push(thumbnailFileName);
    }
    const row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(photos)
        .values({
          bookingId,
          fileName,
          thumbnailFileName,
          originalName: sanitizeOriginalName(upload.photo instanceof File ? upload.photo.name : '', photo.type.extension),
          description: description || null,
          photoType: photoType as PhotoType,
          step,
          fileSize: photo.bytes.byteLength,
          mimeType: photo.type.mimeType,
          createdAt: actor.now,
          ...(proof
            ? {
                takenAt: proof.takenAt,
                lat: proof.lat,
                lng: proof.lng,
                accuracyM: proof.accuracyM,
                workerId: proof.workerId,
                clientUploadId: proof.clientUploadId,
              }
            : {}),
        })
        .onConflictDoNothing()
        .returning();
      // The same upload arrived twice at once: the first one's row stands.
      if (!inserted) return null;
      await writeChannelLog(tx, {
        channel: 'admin',
        action: 'photo_uploaded',
        entityType: 'booking',
        entityId: bookingId,
        userId: actor.userId,
        details: `${photoType} photo for step ${step} added to booking #${bookingId}`,
        metadata: { photoId: inserted!.id, fileName, fileSize: photo.bytes.byteLength },
      });
      return inserted;
    });
    if (!row) {
      await Promise.all(stored.map((name) => files.delete(name).catch(() => undefined)));
      const earlier = proof ? await photoByClientId(db, bookingId, proof.clientUploadId) : undefined;
      if (!earlier) throw new AppError(409, 'The photo could not be stored. Please try again.');
      return { ...toPhotoJson(earlier), replayed: true };
    }
    return toPhotoJson(row);
  } catch (error) {
    await Promise.all(stored.map((name) => files.delete(name).catch(() => undefined)));
    throw error;
  }
}

function parseStep(value: unknown, currentStep: number): number {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return currentStep;
  const step = Number(value);
  if (!Number.isInteger(step) || step < 1 || step > TOTAL_PROJECT_STEPS) {
    throw badRequest(PHOTO_MESSAGES.step, { step: PHOTO_MESSAGES.step });
  }
  return step;
}

/**
 * Removes the photo's row, then its stored files. Files go after the commit: a failed commit
 * must not leave a row pointing at nothing, and a file already gone is fine.
 */
export async function deletePhoto(deps: Deps, photoId: number, actor: Actor): Promise<void> {
  const row = await deps.db.transaction(async (tx) => {
    const [deleted] = await tx.delete(photos).where(eq(photos.id, photoId)).returning();
    if (!deleted) throw notFound(PHOTO_MESSAGES.photoNotFound);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'photo_deleted',
      entityType: 'booking',
      entityId: deleted.bookingId,
      userId: actor.userId,
      details: `${deleted.photoType} photo #${deleted.id} deleted from booking #${deleted.bookingId}`,
      metadata: { photoId: deleted.id, fileName: deleted.fileName },
    });
    return deleted;
  });
  for (const name of [row.fileName, row.thumbnailFileName]) {
    if (!name) continue;
    try {
      await deps.files.delete(name);
    } catch (error) {
      deps.log.warn('Could not delete a stored photo file', {
        fileName: name,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
