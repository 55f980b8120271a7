import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { knownDevices } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';

/**
 * api.md "Abuse and availability": the owner can always sign in, whatever a flood of wrong
 * passwords from other clients does, and a known device is known to one person. A browser that
 * signed in once gets a long-lived random device cookie; known_devices keeps its SHA-256 once per
 * person who signed in from it. For those people only, the password check from that browser keeps
 * its ordinary per-client allowance, passes the per-account and site-wide counters and asks no
 * proof of work (sign-in-limits.ts); for anyone else the cookie is nothing. It never helps guess a
 * code, and deactivation or a new password forgets the person's devices (forgetDevices). The
 * cookie proves nothing by itself: the password (and code) are still checked every time.
 */
const DEVICE_COOKIE = 'cp_device';
/** Browsers keep a cookie at most 400 days; the hourly job deletes rows unseen for as long. */
export const DEVICE_COOKIE_DAYS = 400;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const isHttps = (c: Context<AppEnv>) => new URL(c.get('deps').env.SITE_URL).protocol === 'https:';
const cookieName = (c: Context<AppEnv>) => (isHttps(c) ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE);
const deviceToken = (c: Context<AppEnv>) => {
  const token = getCookie(c, cookieName(c));
  return token && token.length <= 64 ? token : undefined;
};

/** Whether this browser signed in before as `userId` (and the device was not forgotten since). */
export async function isKnownDevice(c: Context<AppEnv>, userId: number | undefined): Promise<boolean> {
  const token = deviceToken(c);
  if (!token || userId === undefined) return false;
  const { db, now } = c.get('deps');
  const seen = await db
    .update(knownDevices)
    .set({ lastSeenAt: now() })
    .where(and(eq(knownDevices.tokenHash, hashOf(token)), eq(knownDevices.userId, userId)))
    .returning({ tokenHash: knownDevices.tokenHash });
  return seen.length === 1;
}

/**
 * After a successful sign-in: this browser is known to `userId` from now on. A browser already
 * known to someone keeps its token (so each person who signs in from it is remembered); any other
 * cookie is replaced by a new random one, so a planted value is never adopted.
 */
export async function rememberDevice(c: Context<AppEnv>, userId: number): Promise<void> {
  const { db, now } = c.get('deps');
  const previous = deviceToken(c);
  const adopted = previous
    ? (await db.select({ tokenHash: knownDevices.tokenHash }).from(knownDevices).where(eq(knownDevices.tokenHash, hashOf(previous))).limit(1)).length === 1
    : false;
  const token = adopted ? previous! : randomBytes(32).toString('base64url');
  await db
    .insert(knownDevices)
    .values({ tokenHash: hashOf(token), userId, createdAt: now(), lastSeenAt: now() })
    .onConflictDoUpdate({ target: [knownDevices.tokenHash, knownDevices.userId], set: { lastSeenAt: now() } });
  setCookie(c, cookieName(c), token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(c),
    path: '/',
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}

/** Deactivation and a new password: the person's browsers are strangers again. */
export async function forgetDevices(db: Database, userId: number): Promise<void> {
  await db.delete(knownDevices).where(eq(knownDevices.userId, userId));
}

/** The hourly job: rows whose cookie every browser has dropped by now. */
export async function pruneKnownDevices(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(knownDevices)
    .where(lt(knownDevices.lastSeenAt, new Date(now.getTime() - DEVICE_COOKIE_DAYS * 24 * 3600_000)))
    .returning({ tokenHash: knownDevices.tokenHash });
  return deleted.length;
}
