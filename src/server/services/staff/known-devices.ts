import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { eq } from 'drizzle-orm';
import { knownDevices } from '../../../../db/schema.ts';
import type { AppEnv } from '../../api/deps.ts';

/**
 * api.md "Abuse and availability": the owner can always sign in, whatever a flood of wrong
 * passwords from other clients does. A browser that signed in once gets a long-lived random
 * device cookie (only its SHA-256 is stored, in known_devices); from it, sign-in keeps its
 * ordinary per-client allowance and asks no proof of work while the whole site is under pressure.
 * The cookie proves nothing by itself: the password (and code) are still checked every time.
 */
const DEVICE_COOKIE = 'cp_device';
/** Browsers keep a cookie at most 400 days; the hourly job leaves the rows (they are small). */
const DEVICE_COOKIE_DAYS = 400;

const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');
const isHttps = (c: Context<AppEnv>) => new URL(c.get('deps').env.SITE_URL).protocol === 'https:';
const cookieName = (c: Context<AppEnv>) => (isHttps(c) ? `__Host-${DEVICE_COOKIE}` : DEVICE_COOKIE);

/** Whether this browser signed in before (and the device was not forgotten). */
export async function isKnownDevice(c: Context<AppEnv>): Promise<boolean> {
  const token = getCookie(c, cookieName(c));
  if (!token || token.length > 64) return false;
  const { db, now } = c.get('deps');
  const seen = await db.update(knownDevices).set({ lastSeenAt: now() }).where(eq(knownDevices.tokenHash, hashOf(token))).returning({ tokenHash: knownDevices.tokenHash });
  return seen.length === 1;
}

/** After a successful sign-in: this browser is known from now on (a new token each time). */
export async function rememberDevice(c: Context<AppEnv>): Promise<void> {
  const { db, now } = c.get('deps');
  const previous = getCookie(c, cookieName(c));
  if (previous && previous.length <= 64) await db.delete(knownDevices).where(eq(knownDevices.tokenHash, hashOf(previous)));
  const token = randomBytes(32).toString('base64url');
  await db.insert(knownDevices).values({ tokenHash: hashOf(token), createdAt: now(), lastSeenAt: now() });
  setCookie(c, cookieName(c), token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(c),
    path: '/',
    maxAge: DEVICE_COOKIE_DAYS * 24 * 60 * 60,
  });
}
