import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
import { ADMIN_ABSOLUTE_TIMEOUT_MS, isLiveAdminSession, touchAdminSession, type AdminSession } from '../../services/staff/admin-sessions.ts';
import { findUser, type StaffUserRow } from '../../services/staff/staff-users.ts';
import { ROLE_FORBIDDEN, roleAllows, type StaffRole } from '../../../domain/staff-roles.ts';

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

/**
 * The caller's live admin session, or null; looked up once per request. A session whose account
 * is no longer active opens nothing (deactivation also revokes its sessions at once).
 */
export async function readAdminSession(c: Context<AppEnv>): Promise<AdminSession | null> {
  const cached = c.get('adminSession');
  if (cached !== undefined) return cached;
  const token = sessionToken(c);
  const { db, now } = c.get('deps');
  let session = token ? await touchAdminSession(db, token, now()) : null;
  const user = session ? await findUser(db, session.userId) : null;
  if (!user || user.status !== 'active') session = null;
  c.set('adminSession', session);
  c.set('adminUser', session ? user : null);
  return session;
}

/** The signed-in person (after a guard has run), or null. */
export async function readAdminUser(c: Context<AppEnv>): Promise<StaffUserRow | null> {
  await readAdminSession(c);
  return c.get('adminUser') ?? null;
}

/** Whether the caller is signed in as staff, without counting the look as the session's use. */
export async function isSignedInStaff(c: Context<AppEnv>): Promise<boolean> {
  const token = sessionToken(c);
  const { db, now } = c.get('deps');
  return token ? isLiveAdminSession(db, token, now()) : false;
}

/**
 * The one guard for admin routes, with the role the route needs (api.md "Staff accounts"):
 * 401 without a live session, 403 {"error": "Your role cannot do this"} outside the role.
 * `'read'` is the rule most routes declare: a viewer may read (GET, HEAD), a change needs staff.
 */
export function requireRole(needed: StaffRole | 'read'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const user = (await readAdminSession(c)) ? c.get('adminUser') : null;
    if (!user) throw new AppError(401, NOT_SIGNED_IN);
    const role = needed === 'read' ? (c.req.method === 'GET' || c.req.method === 'HEAD' ? 'viewer' : 'staff') : needed;
    if (!roleAllows(user.role, role)) throw new AppError(403, ROLE_FORBIDDEN);
    await next();
  };
}

/** Every signed-in role reads; changes need staff or owner. Owner-only routes use requireOwner. */
export const requireAdmin: MiddlewareHandler<AppEnv> = requireRole('read');
/** Accounts and privacy requests (erasure): owners only. */
export const requireOwner: MiddlewareHandler<AppEnv> = requireRole('owner');
/** Calls about one's own account (sessions, passkeys, authenticator): any signed-in role. */
export const requireSignedIn: MiddlewareHandler<AppEnv> = requireRole('viewer');

/**
 * Who did it, for logs and records: the account's id (api.md: `userId` is the account's id); the
 * Logs tab and notes show the person's name for it (staff-users.ts actorNames).
 */
export function adminActor(c: Context<AppEnv>): string {
  const session = c.get('adminSession');
  return session ? String(session.userId) : 'admin';
}

/** The signed-in person's name, for words written into a record (an e-mail's "invited by"). */
export function adminActorName(c: Context<AppEnv>): string {
  return c.get('adminUser')?.name ?? 'The owner';
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
