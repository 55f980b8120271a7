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
import { endAdminSession, startAdminSession } from '../../services/staff/admin-sessions.ts';
import { admitAttempt, consumeRateLimit, refundRateLimit } from '../../services/limits/rate-limit.ts';
import { claimTotpStep, totpStepOf } from '../../services/staff/admin-totp.ts';
import { clientKey } from '../../services/limits/client-info.ts';
import { CHALLENGE_HEADER, spendSolvedChallenge } from '../../services/limits/challenge.ts';
import { challengeRequired } from '../../services/limits/site-ceilings.ts';
import { isKnownDevice, rememberDevice } from '../../services/staff/known-devices.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';

/** admin-dashboard.md §8: the gate's only message. */
export const INVALID_PASSWORD = 'Invalid Password';
/**
 * With the second factor on, every refusal (wrong password, missing, wrong or used code) is this
 * same answer, so it never tells a guesser that the password was right.
 */
export const CODE_HINT = 'Check the password, and enter the current 6-digit code from your authenticator app.';

const loginSchema = z.object({
  password: z.string().max(1024, INVALID_PASSWORD),
  code: z.string().max(16).optional(),
});

/**
 * Sign-in attempts, counted in the database (functions share no memory) BEFORE the password is
 * checked, in one atomic statement per counter: a burst of parallel guesses each takes its own
 * number, so the eleventh is refused even while the first ten are still being checked (and never
 * costs an scrypt). A success gives its attempt back, so the admin signing in often never locks
 * themself out. With the second factor on, the same counter gates code guesses.
 *
 * The per-client counter is a wall. The site-wide one is not: a wall there would let strangers
 * lock the real admin out from everywhere. When the whole site sees more attempts than
 * `overall.limit` (many addresses guessing together), each client's allowance drops to
 * `perClientUnderPressure` instead, and an unknown browser must carry a solved proof-of-work
 * challenge (428 otherwise): guessing from many addresses slows to a crawl, while the admin, from
 * a browser that signed in before (known-devices.ts), keeps the ordinary allowance and no
 * challenge, and from a new one still has a few tries.
 */
export const LOGIN_LIMITS = {
  perClient: { name: 'admin-login', limit: 10, windowSeconds: 15 * 60 },
  perClientUnderPressure: 3,
  overall: { name: 'admin-login-all', limit: 100, windowSeconds: 15 * 60 },
} as const;

const TOO_MANY = 'Too many sign-in attempts. Please wait and try again.';

export const adminAuthRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const deps = c.get('deps');
    const now = deps.now();
    const body = await readJson(c, loginSchema);
    const client = await clientKey(c);
    const knownDevice = await isKnownDevice(c);
    const everyone = await consumeRateLimit(deps.db, LOGIN_LIMITS.overall, 'all', now);
    // Under pressure an unknown browser must also carry a solved challenge (api.md "Abuse and
    // availability"); a browser that signed in before is spared both (known-devices.ts).
    const underPressure = !everyone.allowed && !knownDevice;
    if (underPressure && !(await spendSolvedChallenge(deps, c.req.header(CHALLENGE_HEADER)))) {
      await refundRateLimit(deps.db, LOGIN_LIMITS.overall, 'all', now);
      throw await challengeRequired(deps);
    }
    const allowance = underPressure ? LOGIN_LIMITS.perClientUnderPressure : LOGIN_LIMITS.perClient.limit;
    const mine = await admitAttempt(deps.db, LOGIN_LIMITS.perClient, client, now, allowance);
    if (!mine.allowed) {
      // A refused attempt is not a guess: it leaves the site-wide pressure as it was.
      await refundRateLimit(deps.db, LOGIN_LIMITS.overall, 'all', now);
      throw new AppError(429, TOO_MANY, undefined, { 'Retry-After': String(mine.retryAfterSeconds) });
    }

    // Both checks run for every attempt; only a right password may claim the code's time step.
    const totpSecret = deps.env.ADMIN_TOTP_SECRET;
    const passwordOk = deps.admin !== null && (await verifyAdminPassword(body.password, deps.admin.passwordHash));
    const step = totpSecret ? totpStepOf(totpSecret, (body.code ?? '').trim(), now) : null;
    const codeOk = !totpSecret || (passwordOk && step !== null && (await claimTotpStep(deps.db, step, now)));
    if (!passwordOk || !codeOk) {
      await writeChannelLog(deps.db, {
        channel: 'admin',
        action: 'login_failed',
        severity: 'warning',
        ipAddress: client,
        details: `Admin sign-in refused: ${!passwordOk ? 'wrong password' : body.code ? 'wrong or used code' : 'no code'}`,
      });
      throw new AppError(401, INVALID_PASSWORD, totpSecret ? { code: CODE_HINT } : undefined);
    }
    await Promise.all([
      refundRateLimit(deps.db, LOGIN_LIMITS.perClient, client, now),
      refundRateLimit(deps.db, LOGIN_LIMITS.overall, 'all', now),
    ]);
    // A new token at every sign-in: a cookie planted before sign-in is never promoted.
    const previous = adminSessionToken(c);
    if (previous) await endAdminSession(deps.db, previous, now);
    const { token, session } = await startAdminSession(deps.db, now);
    setAdminCookie(c, token);
    await rememberDevice(c);
    c.set('adminSession', session);
    await writeChannelLog(deps.db, {
      channel: 'admin',
      action: 'login',
      userId: adminActor(c),
      ipAddress: client,
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
