/**
 * A booking's uploaded files: storing the ones uploaded straight to Uploadcare before the
 * booking's transaction, and claiming every named upload inside it (services/bookings/bookings.ts).
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { uploadedFiles } from '../../../../db/schema.ts';
import type { BookingPayload } from '../../../domain/booking-schema.ts';
import type { AppDeps } from '../../api/deps.ts';
import { AppError, badRequest } from '../../api/errors.ts';
import { createUploadcare, UploadcareUnavailableError } from '../../providers/uploadcare.ts';

export const BOOKING_FILE_MESSAGES = {
  fileNotFound: (name: string) => `Uploaded file not found: ${name}`,
  filesNotKept: 'Your uploaded files could not be saved just now, so the booking was not made. Please try again.',
} as const;

type ClaimedFile = Pick<typeof uploadedFiles.$inferSelect, 'fileName' | 'originalName' | 'storage'>;

/**
 * Attaches the uploads the payload names: each must exist and belong to no booking yet, so a
 * booking cannot take another customer's file. Returns the claimed files.
 */
export async function claimUploadedFiles(
  tx: Database,
  bookingId: number,
  files: BookingPayload['uploadedFiles'],
): Promise<ClaimedFile[]> {
  if (files.length === 0) return [];
  const claimed = await tx
    .update(uploadedFiles)
    .set({ bookingId })
    .where(
      and(
        inArray(
          uploadedFiles.fileName,
          files.map((file) => file.filename),
        ),
        isNull(uploadedFiles.bookingId),
      ),
    )
    .returning({ fileName: uploadedFiles.fileName, originalName: uploadedFiles.originalName, storage: uploadedFiles.storage });
  const byName = new Map(claimed.map((file) => [file.fileName, file]));
  const missing = files.find((file) => !byName.has(file.filename));
  if (missing) {
    // The name the person recognises, not the random stored one. Throwing rolls the claims back.
    const message = BOOKING_FILE_MESSAGES.fileNotFound(missing.originalName);
    throw badRequest(message, { uploadedFiles: message });
  }
  // In the order the form listed them, each once.
  return [...new Set(files.map((file) => file.filename))].map((name) => byName.get(name)!);
}

/**
 * Files uploaded straight to Uploadcare are temporary there (deleted after 24 hours) until
 * stored. The booking stores the unclaimed ones it names before its transaction starts: if
 * Uploadcare cannot store one, the booking is not made, so no booking points at a file
 * Uploadcare will delete. A booking that then fails (a full date, a file another booking took
 * meanwhile) leaves stored files no booking claims, which cost only their storage; a repeat of
 * the request finds them stored already (storing is idempotent at Uploadcare).
 */
export async function storeUploadcareFiles(deps: AppDeps, requested: BookingPayload['uploadedFiles']): Promise<void> {
  if (!requested.length) return;
  const remote = await deps.db
    .select({ fileName: uploadedFiles.fileName, originalName: uploadedFiles.originalName })
    .from(uploadedFiles)
    .where(
      and(
        inArray(
          uploadedFiles.fileName,
          requested.map((file) => file.filename),
        ),
        isNull(uploadedFiles.bookingId),
        eq(uploadedFiles.storage, 'uploadcare'),
      ),
    );
  if (!remote.length) return;
  const uploadcare = createUploadcare(deps.env);
  if (!uploadcare) {
    deps.log.error('A booking claims Uploadcare files but Uploadcare is not configured', { files: remote.length });
    throw new AppError(503, BOOKING_FILE_MESSAGES.filesNotKept);
  }
  const outcomes = await Promise.allSettled(remote.map((file) => uploadcare.storeFile(file.fileName)));
  const gone = remote.find((_, index) => {
    const outcome = outcomes[index]!;
    return outcome.status === 'fulfilled' && (!outcome.value || outcome.value.isRemoved);
  });
  if (gone) {
    const message = BOOKING_FILE_MESSAGES.fileNotFound(gone.originalName);
    throw badRequest(message, { uploadedFiles: message });
  }
  for (const outcome of outcomes) {
    if (outcome.status === 'fulfilled') continue;
    if (!(outcome.reason instanceof UploadcareUnavailableError)) throw outcome.reason;
    deps.log.warn('Uploadcare could not store a booked file', { error: outcome.reason.message });
    throw new AppError(503, BOOKING_FILE_MESSAGES.filesNotKept);
  }
}
