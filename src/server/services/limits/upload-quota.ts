import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { uploadedFiles, uploadSessions } from '../../../../db/schema.ts';
import { AppError } from '../../app/errors.ts';
import { isUnclaimedFile } from '../bookings/booking-files.ts';

/**
 * The per-client upload limit stops one address; this stops many. Files nobody has attached to a
 * booking yet are kept for a day (maintenance.ts); their total across the whole site is capped so
 * a botnet cannot fill the disk or the blob store with them, and one client's part of that total
 * is capped too (UNCLAIMED_UPLOAD_CLIENT_MB), so a few addresses cannot fill the quota for every
 * customer (api.md "Abuse and availability"). Booked files never count.
 *
 * No wall made of promises (api.md): a file still arriving in parts counts by the bytes it has
 * received, not the size it declares, and a part upload idle for UPLOAD_SESSION_IDLE_MINUTES has
 * ended (its parts are refused, it counts for nothing, the hourly job deletes them). And no quota
 * refuses a client that has stored nothing: past the site quota, a fresh client pays in work (a
 * proof-of-work challenge, site-ceilings.ts) like past any ceiling; a client holding files of its
 * own gets 429 there, as past its own share.
 *
 * The check and the insert are separate statements, so uploads arriving together can pass the
 * quota by a few files each: it bounds the store, it does not meter it to the byte.
 */
export const UPLOAD_QUOTA_MESSAGE =
  'We are receiving too many uploads right now. Please try again later, or send your files when we contact you.';

/** A client past its own share (api.md: 429 for it, not for others). */
export const UPLOAD_SHARE_MESSAGE =
  'You have sent as many files as we can keep before a booking. Please book with the files you have, or send more when we contact you.';

/**
 * A file no booking claimed is kept this long, and counts against the quota until then; the
 * hourly job deletes it after (jobs/upload-cleanup.ts).
 */
export const UNCLAIMED_UPLOAD_LIFETIME_MS = 24 * 60 * 60_000;

/** A part upload with no part for this long has ended (api.md "No wall made of promises"). */
export const UPLOAD_SESSION_IDLE_MINUTES = 15;
const IDLE_MS = UPLOAD_SESSION_IDLE_MINUTES * 60_000;

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

export interface UploadQuotaAnswer {
  /** The site is past its quota and this client has stored nothing: it pays in work (428). */
  mustPay: boolean;
}

/** Whether a part upload last heard from at `lastActivityAt` has ended by `now`. */
export const isIdleSession = (lastActivityAt: Date, now: Date) => lastActivityAt.getTime() <= now.getTime() - IDLE_MS;

export async function checkUnclaimedUploadQuota(db: Database, { incomingBytes, quotaMb, clientShareMb, client, now }: UploadQuotaCheck): Promise<UploadQuotaAnswer> {
  const [site, mine] = await Promise.all([unclaimedBytes(db, now), unclaimedBytes(db, now, client)]);
  if (mine.total + incomingBytes > clientShareMb * MB) throw quotaRefusal(UPLOAD_SHARE_MESSAGE, mine.freesAt, now);
  if (site.total + incomingBytes <= quotaMb * MB) return { mustPay: false };
  if (mine.total === 0) return { mustPay: true };
  throw quotaRefusal(UPLOAD_QUOTA_MESSAGE, site.freesAt, now);
}

/** A part arriving: only the client's own share is checked (the upload was admitted when opened). */
export async function checkUploadShare(db: Database, { incomingBytes, clientShareMb, client, now }: Omit<UploadQuotaCheck, 'quotaMb'>): Promise<void> {
  const mine = await unclaimedBytes(db, now, client);
  if (mine.total + incomingBytes > clientShareMb * MB) throw quotaRefusal(UPLOAD_SHARE_MESSAGE, mine.freesAt, now);
}

// Room returns when the first unclaimed thing leaves the count: a file after a day, an idle
// part upload after UPLOAD_SESSION_IDLE_MINUTES (or anything sooner, once a booking claims it).
const quotaRefusal = (message: string, freesAt: Date | null, now: Date) =>
  new AppError(429, message, { file: message }, { 'Retry-After': String(Math.max(60, Math.ceil(((freesAt ?? now).getTime() - now.getTime()) / 1000))) });

/** Unclaimed bytes: finished files no booking claimed within their day, plus what live part uploads received. */
async function unclaimedBytes(db: Database, now: Date, client?: string): Promise<{ total: number; freesAt: Date | null }> {
  const ofClient = (column: typeof uploadedFiles.clientKey | typeof uploadSessions.clientKey): SQL | undefined =>
    client === undefined ? undefined : eq(column, client);
  const windowStart = new Date(now.getTime() - UNCLAIMED_UPLOAD_LIFETIME_MS);
  const idleBefore = new Date(now.getTime() - IDLE_MS);
  const [files, sessions] = await Promise.all([
    db
      .select({ total: sql<string>`coalesce(sum(${uploadedFiles.fileSize}), 0)`, oldest: sql<Date | string | null>`min(${uploadedFiles.createdAt})` })
      .from(uploadedFiles)
      .where(and(isUnclaimedFile(), gt(uploadedFiles.createdAt, windowStart), ofClient(uploadedFiles.clientKey))),
    db
      .select({ total: sql<string>`coalesce(sum(${uploadSessions.receivedBytes}), 0)`, quietest: sql<Date | string | null>`min(${uploadSessions.lastActivityAt})` })
      .from(uploadSessions)
      // A completed session's file is counted in uploaded_files.
      .where(and(isNull(uploadSessions.fileName), gt(uploadSessions.lastActivityAt, idleBefore), gt(uploadSessions.receivedBytes, 0), ofClient(uploadSessions.clientKey))),
  ]);
  const frees = [
    files[0]?.oldest ? new Date(files[0].oldest).getTime() + UNCLAIMED_UPLOAD_LIFETIME_MS : null,
    sessions[0]?.quietest ? new Date(sessions[0].quietest).getTime() + IDLE_MS : null,
  ].filter((time): time is number => time !== null);
  return {
    total: Number(files[0]?.total ?? 0) + Number(sessions[0]?.total ?? 0),
    freesAt: frees.length ? new Date(Math.min(...frees)) : null,
  };
}
