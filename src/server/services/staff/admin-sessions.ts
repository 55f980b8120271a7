import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, isNull, like, lt, or, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { describeDevice } from '../../../domain/device-name.ts';
import { adminSessions } from '../../../../db/schema.ts';

/**
 * Admin sessions (api.md "Admin calls"): a random 256-bit token lives only in the browser's
 * HttpOnly cookie; the database keeps its SHA-256, so a leaked table opens nothing. A session
 * ends after 30 minutes without a request, 8 hours after sign-in whatever its use, or at logout.
 */
export const ADMIN_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
export const ADMIN_ABSOLUTE_TIMEOUT_MS = 8 * 60 * 60 * 1000;

export interface AdminSession {
  tokenHash: string;
  /** The account it belongs to (api.md "Staff accounts"). */
  userId: number;
  createdAt: Date;
  expiresAt: Date;
}

export function hashSessionToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A well-formed token is 43 base64url characters (32 random bytes); anything else is not looked up. */
export function isWellFormedSessionToken(token: string): boolean {
  return /^[\w-]{43}$/.test(token);
}

export async function startAdminSession(
  db: Database,
  now: Date,
  userId: number,
  userAgent: string | null = null,
): Promise<{ token: string; session: AdminSession }> {
  const token = randomBytes(32).toString('base64url');
  const session = {
    tokenHash: hashSessionToken(token),
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ADMIN_ABSOLUTE_TIMEOUT_MS),
  };
  await db.insert(adminSessions).values({ ...session, userAgent: userAgent?.slice(0, 400) ?? null, lastSeenAt: now });
  return { token, session };
}

/**
 * The live session a token names, or null. Each use moves its idle deadline on, in the same
 * statement that checks it, so two instances can never both revive an expired session.
 */
export async function touchAdminSession(db: Database, token: string, now: Date): Promise<AdminSession | null> {
  if (!isWellFormedSessionToken(token)) return null;
  const [row] = await db
    .update(adminSessions)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(adminSessions.tokenHash, hashSessionToken(token)),
        isNotNull(adminSessions.userId),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, now),
        gt(adminSessions.lastSeenAt, new Date(now.getTime() - ADMIN_IDLE_TIMEOUT_MS)),
      ),
    )
    .returning({
      tokenHash: adminSessions.tokenHash,
      userId: adminSessions.userId,
      createdAt: adminSessions.createdAt,
      expiresAt: adminSessions.expiresAt,
    });
  return row && row.userId !== null ? { ...row, userId: row.userId } : null;
}

/**
 * Whether a token names a live session, without using it: for a request that only needs to know
 * who is asking (an analytics beacon), so looking leaves the idle deadline where it was.
 */
export async function isLiveAdminSession(db: Database, token: string, now: Date): Promise<boolean> {
  if (!isWellFormedSessionToken(token)) return false;
  const [row] = await db
    .select({ tokenHash: adminSessions.tokenHash })
    .from(adminSessions)
    .where(
      and(
        eq(adminSessions.tokenHash, hashSessionToken(token)),
        isNull(adminSessions.revokedAt),
        gt(adminSessions.expiresAt, now),
        gt(adminSessions.lastSeenAt, new Date(now.getTime() - ADMIN_IDLE_TIMEOUT_MS)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Ends a session on the server: the cookie, even replayed, opens nothing afterwards. */
export async function endAdminSession(db: Database, token: string, now: Date): Promise<void> {
  if (!isWellFormedSessionToken(token)) return;
  await db
    .update(adminSessions)
    .set({ revokedAt: now })
    .where(and(eq(adminSessions.tokenHash, hashSessionToken(token)), isNull(adminSessions.revokedAt)));
}

/** What My account shows of a session: never the token or its whole hash. */
export interface SessionView {
  id: string;
  device: string;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
}

/** A session's public id: a prefix of its token's hash, which opens nothing on its own. */
export const sessionPublicId = (tokenHash: string) => tokenHash.slice(0, 16);

/** The person's live sessions, most recently used first. */
export async function listUserSessions(db: Database, userId: number, currentHash: string | null, now: Date): Promise<SessionView[]> {
  const rows = await db
    .select()
    .from(adminSessions)
    .where(and(eq(adminSessions.userId, userId), liveAt(now)))
    .orderBy(desc(adminSessions.lastSeenAt));
  return rows.map((row) => ({
    id: sessionPublicId(row.tokenHash),
    device: describeDevice(row.userAgent),
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    current: row.tokenHash === currentHash,
  }));
}

/** Ends one of the person's own sessions by its public id; false when there is none. */
export async function endUserSession(db: Database, userId: number, publicId: string, now: Date): Promise<boolean> {
  if (!/^[0-9a-f]{16}$/.test(publicId)) return false;
  const ended = await db
    .update(adminSessions)
    .set({ revokedAt: now })
    .where(and(eq(adminSessions.userId, userId), like(adminSessions.tokenHash, `${publicId}%`), isNull(adminSessions.revokedAt)))
    .returning({ tokenHash: adminSessions.tokenHash });
  return ended.length > 0;
}

/** Ends every session of a person at once (sign out everywhere, deactivation, a new password). */
export async function endAllUserSessions(db: Database, userId: number, now: Date): Promise<number> {
  const ended = await db
    .update(adminSessions)
    .set({ revokedAt: now })
    .where(and(eq(adminSessions.userId, userId), isNull(adminSessions.revokedAt)))
    .returning({ tokenHash: adminSessions.tokenHash });
  return ended.length;
}

function liveAt(now: Date) {
  return and(
    isNull(adminSessions.revokedAt),
    gt(adminSessions.expiresAt, now),
    gt(adminSessions.lastSeenAt, new Date(now.getTime() - ADMIN_IDLE_TIMEOUT_MS)),
  );
}

/** For the hourly job: sessions that can never be used again. */
export async function pruneAdminSessions(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(adminSessions)
    .where(
      or(
        lt(adminSessions.expiresAt, now),
        lt(adminSessions.lastSeenAt, new Date(now.getTime() - ADMIN_IDLE_TIMEOUT_MS)),
        isNotNull(adminSessions.revokedAt),
      ),
    )
    .returning({ tokenHash: adminSessions.tokenHash });
  return deleted.length;
}
