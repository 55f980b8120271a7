import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { ADMIN_ABSOLUTE_TIMEOUT_MS, isLiveAdminSession, touchAdminSession, type AdminSession } from '../../services/staff/admin-sessions.ts';

/**
 * One guard for every admin endpoint (api.md: "Every admin call answers 401 without a valid
 * admin session"). The cookie is HttpOnly and SameSite=Strict; over HTTPS it is also Secure
 * and carries the `__Host-` prefix, which pins it to this host and path '/'.
 */
export const NOT_SIGNED_IN = 'Please sign in to the admin dashboard.';

export function adminCookieName(siteUrl: string): string {
  return isHttps(siteUrl) ? '__Host-cp_admin' : 'cp_admin';
}

function isHttps(siteUrl: string): boolean {
  return new URL(siteUrl).protocol === 'https:';
}

function sessionToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, adminCookieName(c.get('deps').env.SITE_URL));
}

/** The caller's live admin session, or null; looked up once per request. */
export async function readAdminSession(c: Context<AppEnv>): Promise<AdminSession | null> {
  const cached = c.get('adminSession');
  if (cached !== undefined) return cached;
  const token = sessionToken(c);
  const { db, now } = c.get('deps');
  const session = token ? await touchAdminSession(db, token, now()) : null;
  c.set('adminSession', session);
  return session;
}

/** Whether the caller is signed in as staff, without counting the look as the session's use. */
export async function isSignedInStaff(c: Context<AppEnv>): Promise<boolean> {
  const token = sessionToken(c);
  const { db, now } = c.get('deps');
  return token ? isLiveAdminSession(db, token, now()) : false;
}

export const requireAdmin: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await readAdminSession(c))) throw new AppError(401, NOT_SIGNED_IN);
  await next();
};

/** Who did it, for channel logs: a session's short, non-secret label (never the token). */
export function adminActor(c: Context<AppEnv>): string {
  const session = c.get('adminSession');
  return session ? `admin:${session.tokenHash.slice(0, 8)}` : 'admin';
}

export function setAdminCookie(c: Context<AppEnv>, token: string): void {
  const siteUrl = c.get('deps').env.SITE_URL;
  setCookie(c, adminCookieName(siteUrl), token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: isHttps(siteUrl),
    path: '/',
    maxAge: Math.floor(ADMIN_ABSOLUTE_TIMEOUT_MS / 1000),
  });
}

export function clearAdminCookie(c: Context<AppEnv>): void {
  const siteUrl = c.get('deps').env.SITE_URL;
  deleteCookie(c, adminCookieName(siteUrl), { path: '/', secure: isHttps(siteUrl) });
}

export { sessionToken as adminSessionToken };
