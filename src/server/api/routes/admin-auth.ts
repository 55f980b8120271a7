import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
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
  await rememberDevice(c, user.id);
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

/**
 * One password check for every attempt, whatever the e-mail (api.md; SECURITY.md): an account's
 * own password when it has one; the site's admin password (ADMIN_PASSWORD / _HASH) for the
 * bootstrap owner when the sign-in names no e-mail (the bootstrap way in, which keeps working
 * after the owner set a password of their own) or the owner has none of their own yet; a decoy
 * for an e-mail with no password, so its refusal takes as long. `viaBootstrap`: the admin
 * password matched.
 */
async function checkPassword(
  c: Context<AppEnv>,
  password: string,
  isBootstrap: boolean,
  namedEmail: boolean,
  user: StaffUserRow | null,
): Promise<{ passwordOk: boolean; viaBootstrap: boolean }> {
  const admin = c.get('deps').admin;
  if (isBootstrap && admin && (!namedEmail || !user?.passwordHash)) {
    const ok = await verifyAdminPassword(password, admin.passwordHash);
    return { passwordOk: ok, viaBootstrap: ok };
  }
  const hash = user?.passwordHash ?? (await (decoyHash ??= hashAdminPassword('not a password anyone has')));
  const ok = await verifyAdminPassword(password, hash);
  return { passwordOk: ok && Boolean(user?.passwordHash), viaBootstrap: false };
}

/**
 * The environment's password is the business's way back in: a demoted bootstrap owner is owner
 * again, only after the whole sign-in (code included) succeeded, and the Logs say so.
 */
async function restoreBootstrapOwner(c: Context<AppEnv>, user: StaffUserRow, client: string): Promise<StaffUserRow> {
  const deps = c.get('deps');
  const restored = await ensureBootstrapOwner(deps.db, deps.env.ADMIN_EMAIL, deps.now());
  await writeChannelLog(deps.db, {
    channel: 'admin',
    action: 'bootstrap_owner_restored',
    severity: 'warning',
    entityType: 'staff_user',
    entityId: String(user.id),
    userId: String(user.id),
    ipAddress: client,
    details: `${user.name} signed in with the site's admin password: role ${user.role} → owner, status ${user.status} → ${restored.status}`,
  });
  return restored;
}

/**
 * The bootstrap owner's first sign-in on a fresh database (the site's admin password, and its code
 * when ADMIN_TOTP_SECRET is set): the account is created, named "Owner" until they choose a name
 * (the dashboard asks at once), and the Logs say so.
 */
async function createBootstrapOwner(db: Database, adminEmail: string | undefined, client: string, now: Date): Promise<StaffUserRow> {
  const owner = await ensureBootstrapOwner(db, adminEmail, now);
  await writeChannelLog(db, {
    channel: 'admin',
    action: 'bootstrap_owner_created',
    severity: 'warning',
    entityType: 'staff_user',
    entityId: String(owner.id),
    userId: String(owner.id),
    ipAddress: client,
    details: `The owner account ${owner.email} was created at its first sign-in with the site's admin password`,
  });
  return owner;
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
    let user = await findUserByEmail(deps.db, email);
    const attempt = await admitSignIn(c, client, email, user?.id);
    const isBootstrap = email === ownerEmail;
    const { passwordOk, viaBootstrap } = await checkPassword(c, body.password, isBootstrap, Boolean(body.email), user);
    // The environment's password may sign in the bootstrap owner even while it is invited or
    // demoted (restored below, once the whole sign-in has succeeded); never a deactivated one.
    const active = passwordOk && (user ? user.status === 'active' || (viaBootstrap && user.status === 'invited') : viaBootstrap);

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
    if (!passwordOk) return refuse('wrong password or unknown e-mail', new AppError(401, INVALID_PASSWORD));
    let step: number | null = null;
    if (totpSecret) {
      if (code === '') {
        // Not a guess of anything: the attempt is given back, so the code step costs no allowance.
        await attempt.succeeded();
        return refuse('no code', new AppError(401, CODE_NEEDED, undefined, undefined, { codeRequired: true }));
      }
      // A code tried for an account that can sign in is a guess at it: counted per account,
      // whatever the device (api.md). A deactivated account's code signs nobody in, so its tries
      // take nothing from the person's allowance for when they are reactivated; the password's
      // own limits (no device lifts them for a deactivated person) still bound them.
      if (active) await attempt.admitCodeGuess();
      step = totpStepOf(totpSecret, code, now);
      if (step === null) return refuse('wrong code', new AppError(401, CODE_WRONG, { code: CODE_WRONG }, undefined, { codeRequired: true }));
    }
    // Told plainly only once the whole sign-in (password, and code where there is one) was right,
    // and before the code's step is spent.
    if (!active) return refuse('account not active', new AppError(401, ACCOUNT_DEACTIVATED));
    // The sign-in's last check and its first write, together: the code's step is claimed for the
    // account, and on a fresh database the bootstrap owner's account is created (and logged) in the
    // same transaction, so a refused code leaves no account behind.
    const account =
      user && step === null
        ? user
        : await deps.db.transaction(async (tx) => {
            const db = tx as unknown as Database;
            const signingIn = user ?? (await createBootstrapOwner(db, deps.env.ADMIN_EMAIL, client, now));
            if (step !== null && !(await claimTotpStep(db, signingIn.id, step, now))) return null;
            return signingIn;
          });
    if (!account) return refuse('used code', new AppError(401, CODE_USED, { code: CODE_USED }, undefined, { codeRequired: true }));
    user = account;
    if (viaBootstrap && (user.role !== 'owner' || user.status !== 'active')) user = await restoreBootstrapOwner(c, user, client);
    await attempt.succeeded();
    await signIn(c, user, 'password');
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
