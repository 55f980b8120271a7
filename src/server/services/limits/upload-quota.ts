import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { uploadedFiles, uploadSessions } from '../../../../db/schema.ts';
import { AppError } from '../../api/errors.ts';
import { RETENTION } from '../jobs/maintenance.ts';

/**
 * The per-client upload limit stops one address; this stops many. Files nobody has attached to a
 * booking yet are kept for a day (maintenance.ts); their total across the whole site is capped so
 * a botnet cannot fill the disk or the blob store with them, and one client's part of that total
 * is capped too (UNCLAIMED_UPLOAD_CLIENT_MB), so a few addresses cannot fill the quota for every
 * customer (api.md "Abuse and availability"). Files still arriving in parts count at their
 * declared size from the moment they are opened: their parts are stored already. Booked files
 * never count.
 *
 * The check and the insert are separate statements, so uploads arriving together can pass the
 * quota by a few files each: it bounds the store, it does not meter it to the byte.
 */
export const UPLOAD_QUOTA_MESSAGE =
  'We are receiving too many uploads right now. Please try again later, or send your files when we contact you.';

/** A client past its own share (api.md: 429 for it, not for others). */
export const UPLOAD_SHARE_MESSAGE =
  'You have sent as many files as we can keep before a booking. Please book with the files you have, or send more when we contact you.';

const MB = 1024 * 1024;

export interface UploadQuotaCheck {
  incomingBytes: number;
  quotaMb: number;
  /** UNCLAIMED_UPLOAD_CLIENT_MB */
  clientShareMb: number;
  /** clientKey() of the uploader. */
  client: string;
  now: Date;
}

export async function checkUnclaimedUploadQuota(db: Database, { incomingBytes, quotaMb, clientShareMb, client, now }: UploadQuotaCheck): Promise<void> {
  const windowStart = new Date(now.getTime() - RETENTION.unclaimedUploads);
  const [site, mine] = await Promise.all([unclaimedBytes(db, windowStart), unclaimedBytes(db, windowStart, client)]);
  // Room returns as the oldest unclaimed file leaves the window (or is claimed sooner).
  const retryAfter = (oldest: Date | null) =>
    String(Math.max(60, Math.ceil(((oldest ?? now).getTime() + RETENTION.unclaimedUploads - now.getTime()) / 1000)));
  if (mine.total + incomingBytes > clientShareMb * MB) {
    throw new AppError(429, UPLOAD_SHARE_MESSAGE, { file: UPLOAD_SHARE_MESSAGE }, { 'Retry-After': retryAfter(mine.oldest) });
  }
  if (site.total + incomingBytes > quotaMb * MB) {
    throw new AppError(429, UPLOAD_QUOTA_MESSAGE, { file: UPLOAD_QUOTA_MESSAGE }, { 'Retry-After': retryAfter(site.oldest) });
  }
}

/** Unclaimed bytes inside the window: finished files no booking claimed, plus unfinished part uploads. */
async function unclaimedBytes(db: Database, windowStart: Date, client?: string): Promise<{ total: number; oldest: Date | null }> {
  const ofClient = (column: typeof uploadedFiles.clientKey | typeof uploadSessions.clientKey): SQL | undefined =>
    client === undefined ? undefined : eq(column, client);
  const [files, sessions] = await Promise.all([
    db
      .select({ total: sql<string>`coalesce(sum(${uploadedFiles.fileSize}), 0)`, oldest: sql<Date | string | null>`min(${uploadedFiles.createdAt})` })
      .from(uploadedFiles)
      .where(and(isNull(uploadedFiles.bookingId), gt(uploadedFiles.createdAt, windowStart), ofClient(uploadedFiles.clientKey))),
    db
      .select({ total: sql<string>`coalesce(sum(${uploadSessions.fileSize}), 0)`, oldest: sql<Date | string | null>`min(${uploadSessions.createdAt})` })
      .from(uploadSessions)
      // A completed session's file is counted in uploaded_files.
      .where(and(isNull(uploadSessions.fileName), gt(uploadSessions.createdAt, windowStart), ofClient(uploadSessions.clientKey))),
  ]);
  const oldest = [files[0]?.oldest, sessions[0]?.oldest].filter(Boolean).map((value) => new Date(value!));
  return {
    total: Number(files[0]?.total ?? 0) + Number(sessions[0]?.total ?? 0),
    oldest: oldest.length ? new Date(Math.min(...oldest.map((date) => date.getTime()))) : null,
  };
}
