import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { readJson } from '../middleware/body.ts';
import {
  adminActor,
  adminSessionToken,
  clearAdminCookie,
  NOT_SIGNED_IN,
  readAdminSession,
  setAdminCookie,
} from '../middleware/admin-auth.ts';
import { verifyAdminPassword } from '../../admin-password.ts';
import { endAdminSession, startAdminSession } from '../../services/admin-sessions.ts';
import { consumeRateLimit, peekRateLimit } from '../../services/rate-limit.ts';
import { useTotpCode } from '../../services/admin-totp.ts';
import { clientKey } from '../../services/client-info.ts';
import { writeChannelLog } from '../../services/channel-log.ts';

/** admin-dashboard.md §8: the gate's only message. */
export const INVALID_PASSWORD = 'Invalid Password';
/** The second factor's refusal: the gate shows it beside the code field. */
export const INVALID_CODE = 'Invalid code';
export const CODE_HINT = 'Enter the 6-digit code from your authenticator app.';

const loginSchema = z.object({
  password: z.string().max(1024, INVALID_PASSWORD),
  code: z.string().max(16).optional(),
});

/**
 * Failed sign-ins, counted in the database (functions share no memory): per client, and for
 * the whole site so that many addresses together cannot try passwords quickly either. Only
 * failures count, so the admin signing in often never locks themself out; once a counter is
 * full, every attempt (even a right one) waits for the window to end.
 */
export const LOGIN_LIMITS = {
  perClient: { name: 'admin-login', limit: 10, windowSeconds: 15 * 60 },
  overall: { name: 'admin-login-all', limit: 100, windowSeconds: 15 * 60 },
} as const;

const TOO_MANY = 'Too many sign-in attempts. Please wait and try again.';

export const adminAuthRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const deps = c.get('deps');
    const now = deps.now();
    const body = await readJson(c, loginSchema);
    const counters = [
      [LOGIN_LIMITS.perClient, clientKey(c)],
      [LOGIN_LIMITS.overall, 'all'],
    ] as const;
    for (const [rule, subject] of counters) {
      const result = await peekRateLimit(deps.db, rule, subject, now);
      if (!result.allowed) {
        throw new AppError(429, TOO_MANY, undefined, { 'Retry-After': String(result.retryAfterSeconds) });
      }
    }
    const refuse = async (reason: string, error: AppError): Promise<never> => {
      for (const [rule, subject] of counters) await consumeRateLimit(deps.db, rule, subject, now);
      await writeChannelLog(deps.db, {
        channel: 'admin',
        action: 'login_failed',
        severity: 'warning',
        ipAddress: clientKey(c),
        details: `Admin sign-in refused: ${reason}`,
      });
      throw error;
    };
    const valid = deps.admin !== null && (await verifyAdminPassword(body.password, deps.admin.passwordHash));
    if (!valid) await refuse('wrong password', new AppError(401, INVALID_PASSWORD));
    const totpSecret = deps.env.ADMIN_TOTP_SECRET;
    if (totpSecret && !(await useTotpCode(deps.db, totpSecret, (body.code ?? '').trim(), now))) {
      await refuse(body.code ? 'wrong or used code' : 'no code', new AppError(401, INVALID_CODE, { code: CODE_HINT }));
    }
    // A new token at every sign-in: a cookie planted before sign-in is never promoted.
    const previous = adminSessionToken(c);
    if (previous) await endAdminSession(deps.db, previous, now);
    const { token, session } = await startAdminSession(deps.db, now);
    setAdminCookie(c, token);
    c.set('adminSession', session);
    await writeChannelLog(deps.db, {
      channel: 'admin',
      action: 'login',
      userId: adminActor(c),
      ipAddress: clientKey(c),
      details: 'Admin signed in',
    });
    return c.body(null, 204);
  })
  .post('/logout', async (c) => {
    const deps = c.get('deps');
    const token = adminSessionToken(c);
    const session = await readAdminSession(c);
    if (token) await endAdminSession(deps.db, token, deps.now());
    clearAdminCookie(c);
    if (session) {
      await writeChannelLog(deps.db, { channel: 'admin', action: 'logout', userId: adminActor(c), details: 'Admin signed out' });
    }
    return c.body(null, 204);
  })
  .get('/session', async (c) => {
    if (!(await readAdminSession(c))) {
      // The gate asks for a code field only when the server wants one.
      return c.json(
        { error: NOT_SIGNED_IN, totpRequired: Boolean(c.get('deps').env.ADMIN_TOTP_SECRET), requestId: c.get('requestId') },
        401,
      );
    }
    return c.json({ authenticated: true });
  });
