/**
 * A booking's brand files: which stored files it uses (booking_files, the one home of that fact),
 * storing the ones uploaded straight to Uploadcare before the booking's transaction, claiming
 * every named upload inside it (services/bookings/bookings.ts), and letting go of them when a
 * booking's data is erased or expires.
 */
import { and, asc, eq, exists, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingFiles, uploadedFiles } from '../../../../db/schema.ts';
import type { BookingPayload } from '../../../domain/booking-schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError, badRequest } from '../../app/errors.ts';
import { createUploadcare, UploadcareUnavailableError } from '../../providers/uploadcare.ts';
import { grantedBookingIds } from '../projects/tracking.ts';

export const BOOKING_FILE_MESSAGES = {
  fileNotFound: (name: string) => `Uploaded file not found: ${name}`,
  filesNotKept: 'Your uploaded files could not be saved just now, so the booking was not made. Please try again.',
} as const;

type ClaimedFile = Pick<typeof uploadedFiles.$inferSelect, 'fileName' | 'originalName' | 'storage'>;

/** An upload no booking uses yet: what the quota counts and the hourly clean-up removes. */
export function isUnclaimedFile(): SQL {
  return sql`not exists (select 1 from ${bookingFiles} where ${bookingFiles.fileId} = ${uploadedFiles.id})`;
}

/** The files of these bookings, each with the booking that uses it (a shared file once per booking), oldest upload first. */
export function filesOfBookings(db: Database, bookingIds: number[]) {
  return db
    .select({
      bookingId: bookingFiles.bookingId,
      id: uploadedFiles.id,
      fileName: uploadedFiles.fileName,
      originalName: uploadedFiles.originalName,
      fileSize: uploadedFiles.fileSize,
      mimeType: uploadedFiles.mimeType,
      storage: uploadedFiles.storage,
    })
    .from(bookingFiles)
    .innerJoin(uploadedFiles, eq(uploadedFiles.id, bookingFiles.fileId))
    .where(inArray(bookingFiles.bookingId, bookingIds))
    .orderBy(asc(uploadedFiles.id));
}

export interface FileClaim {
  /** The files, in the order the form listed them, each once. */
  files: ClaimedFile[];
  /** The rows that attach them to the booking, not yet run (the caller combines its writes). */
  write?: SQLWrapper;
}

/**
 * Decides which of the named uploads the new booking may use, and returns the rows that attach
 * them. A file qualifies when no booking uses it yet (a fresh upload), or when it belongs to a
 * booking the caller holds a live tracking grant for (Book again: the same grant that let it read
 * that booking's files through GET /api/bookings/{id}/rebook). So a booking cannot take another
 * customer's file, and a reused file is the same stored file, counted once against the upload
 * quota (which counts unclaimed files only). Anything else is the form's usual "not found", and
 * throwing leaves nothing written. The file rows stay locked until the booking commits, so a
 * second booking naming the same fresh upload, the hourly clean-up and an erasure wait for it
 * (or it waits for them and finds the file taken or gone).
 */
export async function claimUploadedFiles(
  tx: Database,
  bookingId: number,
  files: BookingPayload['uploadedFiles'],
  access: { grantTokens: string[]; now: Date },
): Promise<FileClaim> {
  if (files.length === 0) return { files: [] };
  const names = [...new Set(files.map((file) => file.filename))];
  const reusable = access.grantTokens.length
    ? exists(
        tx
          .select({ one: sql`1` })
          .from(bookingFiles)
          .where(and(eq(bookingFiles.fileId, uploadedFiles.id), inArray(bookingFiles.bookingId, grantedBookingIds(tx, access.grantTokens, access.now)))),
      )
    : sql`false`;
  // Locked first, then judged in a statement of its own: a statement sees the database as it was
  // when the statement began, so judging in the locking statement would miss a claim committed
  // while it waited for the lock, and two bookings could claim one fresh upload.
  await tx.select({ id: uploadedFiles.id }).from(uploadedFiles).where(inArray(uploadedFiles.fileName, names)).orderBy(asc(uploadedFiles.id)).for('update');
  const found = await tx
    .select({
      id: uploadedFiles.id,
      fileName: uploadedFiles.fileName,
      originalName: uploadedFiles.originalName,
      storage: uploadedFiles.storage,
      usable: sql<boolean>`(${isUnclaimedFile()} or ${reusable})`,
    })
    .from(uploadedFiles)
    .where(inArray(uploadedFiles.fileName, names));
  const byName = new Map(found.filter((file) => file.usable).map((file) => [file.fileName, file]));
  const missing = files.find((file) => !byName.has(file.filename));
  if (missing) {
    // The name the person recognises, not the random stored one. Nothing is written yet.
    const message = BOOKING_FILE_MESSAGES.fileNotFound(missing.originalName);
    throw badRequest(message, { uploadedFiles: message });
  }
  const claimed = names.map((name) => byName.get(name)!);
  return {
    files: claimed.map(({ fileName, originalName, storage }) => ({ fileName, originalName, storage })),
    write: tx.insert(bookingFiles).values(claimed.map((file) => ({ bookingId, fileId: file.id }))),
  };
}

/**
 * Ends these bookings' use of their files (erasure, retention) and deletes the rows of the files
 * no other booking still uses: a file shared by Book again stays while a booking uses it. Returns
 * the deleted files, whose stored bytes the caller removes after its transaction commits. The
 * file rows are locked first, so a booking attaching one of them at the same moment either
 * commits first (and the file stays) or finds it gone.
 */
export async function releaseBookingFiles(tx: Database, bookingIds: number[]): Promise<ClaimedFile[]> {
  if (bookingIds.length === 0) return [];
  const used = await tx
    .select({ id: uploadedFiles.id })
    .from(bookingFiles)
    .innerJoin(uploadedFiles, eq(uploadedFiles.id, bookingFiles.fileId))
    .where(inArray(bookingFiles.bookingId, bookingIds))
    .for('update', { of: uploadedFiles });
  if (used.length === 0) return [];
  await tx.delete(bookingFiles).where(inArray(bookingFiles.bookingId, bookingIds));
  return tx
    .delete(uploadedFiles)
    .where(and(inArray(uploadedFiles.id, [...new Set(used.map((file) => file.id))]), isUnclaimedFile()))
    .returning({ fileName: uploadedFiles.fileName, originalName: uploadedFiles.originalName, storage: uploadedFiles.storage });
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
        isUnclaimedFile(),
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
