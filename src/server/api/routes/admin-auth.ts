import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../deps.ts';
import { AppError } from '../errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminSessionToken, clearAdminCookie, NOT_SIGNED_IN, readAdminSession, setAdminCookie } from '../middleware/admin-auth.ts';
import { hashAdminPassword, verifyAdminPassword } from '../../admin-password.ts';
import { endAdminSession, startAdminSession } from '../../services/staff/admin-sessions.ts';
import { claimTotpStep, totpStepOf } from '../../services/staff/admin-totp.ts';
import { clientKey } from '../../services/limits/client-info.ts';
import { rememberDevice } from '../../services/staff/known-devices.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';
import { admitSignIn } from '../../services/staff/sign-in-limits.ts';
import {
  ACCOUNT_DEACTIVATED,
  bootstrapOwnerEmail,
  ensureBootstrapOwner,
  findUserByEmail,
  markSignedIn,
  normaliseEmail,
  type StaffUserRow,
} from '../../services/staff/staff-users.ts';

export { LOGIN_LIMITS } from '../../services/staff/sign-in-limits.ts';
export { ACCOUNT_DEACTIVATED } from '../../services/staff/staff-users.ts';

/** admin-dashboard.md §8: the gate's only message; the same for an unknown e-mail and a wrong password. */
export const INVALID_PASSWORD = 'Invalid Password';
/**
 * The code step (api.md "Staff accounts"). With a second factor on, a right password alone answers
 * 401 `{codeRequired: true}` and the gate asks for the code next; the per-account and per-client
 * counters bound how many codes anyone can try. A wrong password answers INVALID_PASSWORD whatever
 * the account, so an unknown e-mail and a wrong password stay indistinguishable.
 */
export const CODE_NEEDED = 'Enter the 6-digit code from your authenticator app.';
export const CODE_WRONG = 'That code is not right. Enter the current 6-digit code from your authenticator app.';
export const CODE_USED = 'That code was already used. Wait for the next code in your authenticator app, then enter it.';

const loginSchema = z.object({
  email: z.string().trim().max(320, INVALID_PASSWORD).optional(),
  password: z.string().max(1024, INVALID_PASSWORD),
  code: z.string().max(16).optional(),
});

/** Checked against for an unknown e-mail, so its answer takes as long as a wrong password's. */
let decoyHash: Promise<string> | undefined;

/**
 * A new token at every sign-in (a cookie planted before sign-in is never promoted), the account's
 * last sign-in, and the log line naming the person. Shared by password, passkey and invitation.
 */
export async function signIn(c: Context<AppEnv>, user: StaffUserRow, how: string): Promise<void> {
  const deps = c.get('deps');
  const now = deps.now();
  const previous = adminSessionToken(c);
  if (previous) await endAdminSession(deps.db, previous, now);
  const { token, session } = await startAdminSession(deps.db, now, user.id, c.req.header('user-agent') ?? null);
  setAdminCookie(c, token);
  // This browser is known from now on: under a flood of wrong passwords it keeps its allowance.
  await rememberDevice(c);
  c.set('adminSession', session);
  c.set('adminUser', user);
  await markSignedIn(deps.db, user.id, now);
  await writeChannelLog(deps.db, {
    channel: 'admin',
    action: 'login',
    userId: String(user.id),
    ipAddress: await clientKey(c),
    details: `${user.name} signed in (${how})`,
  });
}

export const adminAuthRoutes = new Hono<AppEnv>()
  .post('/login', async (c) => {
    const deps = c.get('deps');
    const now = deps.now();
    const body = await readJson(c, loginSchema);
    const client = await clientKey(c);
    // Without an e-mail the password signs in the bootstrap owner, as before accounts existed.
    const ownerEmail = bootstrapOwnerEmail(deps.env.ADMIN_EMAIL);
    const email = body.email ? normaliseEmail(body.email) : ownerEmail;
    const attempt = await admitSignIn(c, client, email);

    let user = await findUserByEmail(deps.db, email);
    const isBootstrap = email === ownerEmail;
    // The environment's password always signs in the bootstrap owner; a password the owner set
    // from a reset link works too.
    let passwordOk = isBootstrap && deps.admin !== null && (await verifyAdminPassword(body.password, deps.admin.passwordHash));
    if (!passwordOk && user?.passwordHash) passwordOk = await verifyAdminPassword(body.password, user.passwordHash);
    else if (!passwordOk && !isBootstrap && !user?.passwordHash) {
      await verifyAdminPassword(body.password, await (decoyHash ??= hashAdminPassword('not a password anyone has')));
    }
    if (passwordOk && isBootstrap) user = await ensureBootstrapOwner(deps.db, deps.env.ADMIN_EMAIL, now);

    const totpSecret = user?.totpSecret ?? (isBootstrap ? deps.env.ADMIN_TOTP_SECRET : undefined);
    const code = (body.code ?? '').trim();
    const refuse = async (reason: string, error: AppError): Promise<never> => {
      await writeChannelLog(deps.db, {
        channel: 'admin',
        action: 'login_failed',
        severity: 'warning',
        ipAddress: client,
        userId: user && passwordOk ? String(user.id) : undefined,
        details: `Sign-in refused for ${email}: ${reason}`,
      });
      throw error;
    };
    if (!passwordOk || !user) return refuse('wrong password or unknown e-mail', new AppError(401, INVALID_PASSWORD));
    if (totpSecret) {
      if (code === '') {
        // Not a guess of anything: the attempt is given back, so the code step costs no allowance.
        await attempt.succeeded();
        return refuse('no code', new AppError(401, CODE_NEEDED, undefined, undefined, { codeRequired: true }));
      }
      const step = totpStepOf(totpSecret, code, now);
      if (step === null) return refuse('wrong code', new AppError(401, CODE_WRONG, { code: CODE_WRONG }, undefined, { codeRequired: true }));
      // Only an active account claims the step: a deactivated one is told so without spending it.
      if (user.status === 'active' && !(await claimTotpStep(deps.db, user.id, step, now))) {
        return refuse('used code', new AppError(401, CODE_USED, { code: CODE_USED }, undefined, { codeRequired: true }));
      }
    }
    if (user.status !== 'active') return refuse('account not active', new AppError(401, ACCOUNT_DEACTIVATED));
    await attempt.succeeded();
    await signIn(c, user!, 'password');
    return c.body(null, 204);
  })
  .post('/logout', async (c) => {
    const deps = c.get('deps');
    const token = adminSessionToken(c);
    const session = await readAdminSession(c);
    if (token) await endAdminSession(deps.db, token, deps.now());
    clearAdminCookie(c);
    const user = c.get('adminUser');
    if (session && user) {
      await writeChannelLog(deps.db, { channel: 'admin', action: 'logout', userId: String(user.id), details: `${user.name} signed out` });
    }
    return c.body(null, 204);
  })
  .get('/session', async (c) => {
    const user = (await readAdminSession(c)) ? c.get('adminUser') : null;
    if (!user) {
      // api.md: 401 for a caller without a session. The dashboard asks with `?optional=1`, the
      // question "am I signed in?" whose "no" is an answer, not an error: a signed-out /admin load
      // then logs no failed request in the browser's console.
      if (c.req.query('optional') === '1') return c.json({ authenticated: false });
      return c.json({ error: NOT_SIGNED_IN, requestId: c.get('requestId') }, 401);
    }
    return c.json({
      authenticated: true,
      user: { id: user.id, name: user.name, email: user.email, role: user.role, nameChosen: user.nameChosenAt !== null },
    });
  });
