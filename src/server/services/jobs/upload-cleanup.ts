import { and, inArray, isNull, lt, or } from 'drizzle-orm';
import { isUnclaimedFile } from '../bookings/booking-files.ts';
import { uploadSessions, uploadedFiles } from '../../../../db/schema.ts';
import type { AppDeps } from '../../app/deps.ts';

// The maintenance job's clean-up of uploads no booking claimed (maintenance.ts runs it hourly).

type CleanupDeps = Pick<AppDeps, 'db' | 'files' | 'log'>;
const UPLOAD_BATCH = 100;

/**
 * Uploads no booking claimed within a day. Each batch holds its rows locked while the stored
 * files go, so a booking claiming one of them at that moment waits and then finds it gone
 * (instead of claiming a row whose file was just deleted). Uploadcare rows are only records
 * here: an unclaimed Uploadcare file was normally never stored (only a booking stores one), so
 * Uploadcare deletes it itself after 24 hours and just the row is removed. (A booking refused
 * after storing its files leaves them stored; docs/ARCHITECTURE.md, "Storing".)
 */
export async function deleteUnclaimedUploads(deps: CleanupDeps, createdBefore: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const { done, deleted } = await deps.db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: uploadedFiles.id, fileName: uploadedFiles.fileName, storage: uploadedFiles.storage })
        .from(uploadedFiles)
        .where(and(isUnclaimedFile(), lt(uploadedFiles.createdAt, createdBefore)))
        .orderBy(uploadedFiles.id)
        .limit(UPLOAD_BATCH)
        .for('update', { skipLocked: true });
      const removable: number[] = [];
      for (const row of rows) {
        if (row.storage === deps.files.kind) {
          try {
            await deps.files.delete(row.fileName);
          } catch (error) {
            // Kept for the next run rather than leaving a file no row points at.
            deps.log.warn('Could not delete an unclaimed upload', {
              fileName: row.fileName,
              error: error instanceof Error ? error.message : String(error),
            });
            continue;
          }
        } else if (row.storage !== 'uploadcare') {
          continue; // stored by a different store (disk vs Blobs) than this runtime has
        }
        removable.push(row.id);
      }
      if (removable.length) await tx.delete(uploadedFiles).where(inArray(uploadedFiles.id, removable));
      return { done: rows.length < UPLOAD_BATCH || removable.length === 0, deleted: removable.length };
    });
    total += deleted;
    if (done) return total;
  }
}

/**
 * Part uploads older than a day, and unfinished ones idle since `idleBefore` (they have ended,
 * upload-quota.ts): an unfinished one's parts are removed from the store (a finished one's parts
 * went when it was assembled; its file is an ordinary upload, handled above).
 */
export async function pruneUploadSessions(deps: CleanupDeps, createdBefore: Date, idleBefore: Date = createdBefore): Promise<number> {
  const stale = await deps.db
    .delete(uploadSessions)
    .where(or(lt(uploadSessions.createdAt, createdBefore), and(isNull(uploadSessions.fileName), lt(uploadSessions.lastActivityAt, idleBefore))))
    .returning({ id: uploadSessions.id, partCount: uploadSessions.partCount, fileName: uploadSessions.fileName });
  for (const session of stale) {
    if (session.fileName) continue;
    for (let index = 0; index < session.partCount; index += 1) {
      await deps.files.delete(`${session.id}.part${index}`).catch((error: unknown) =>
        deps.log.warn('Could not delete an unfinished upload part', { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  }
  return stale.length;
}
