import { and, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { uploadedFiles } from '../../../../db/schema.ts';
import { AppError } from '../../api/errors.ts';
import { RETENTION } from '../jobs/maintenance.ts';

/**
 * The per-client upload limit stops one address; this stops many. Files nobody has attached to a
 * booking yet are kept for a day (maintenance.ts); their total across the whole site is capped so
 * a botnet cannot fill the disk or the blob store with them. Booked files never count.
 *
 * The check and the insert are separate statements, so uploads arriving together can pass the
 * quota by a few files each: it bounds the store, it does not meter it to the byte.
 */
export const UPLOAD_QUOTA_MESSAGE =
  'We are receiving too many uploads right now. Please try again later, or send your files when we contact you.';

export async function checkUnclaimedUploadQuota(
  db: Database,
  { incomingBytes, quotaMb, now }: { incomingBytes: number; quotaMb: number; now: Date },
): Promise<void> {
  const windowStart = new Date(now.getTime() - RETENTION.unclaimedUploads);
  const [row] = await db
    .select({
      total: sql<string>`coalesce(sum(${uploadedFiles.fileSize}), 0)`,
      oldest: sql<Date | string | null>`min(${uploadedFiles.createdAt})`,
    })
    .from(uploadedFiles)
    .where(and(isNull(uploadedFiles.bookingId), gt(uploadedFiles.createdAt, windowStart)));
  const total = Number(row?.total ?? 0);
  if (total + incomingBytes <= quotaMb * 1024 * 1024) return;
  // Room returns as the oldest unclaimed file leaves the window (or is claimed sooner).
  const oldest = row?.oldest ? new Date(row.oldest).getTime() : now.getTime();
  const retryAfter = Math.max(60, Math.ceil((oldest + RETENTION.unclaimedUploads - now.getTime()) / 1000));
  throw new AppError(429, UPLOAD_QUOTA_MESSAGE, { file: UPLOAD_QUOTA_MESSAGE }, { 'Retry-After': String(retryAfter) });
}
