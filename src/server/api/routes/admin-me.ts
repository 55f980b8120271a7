import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { eq } from 'drizzle-orm';
import { staffUsers } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminSessionToken, clearAdminCookie, requireSignedIn } from '../middleware/admin-auth.ts';
import { endAllUserSessions, endUserSession, hashSessionToken, listUserSessions } from '../../services/staff/admin-sessions.ts';
import { listPasskeys, removePasskey } from '../../services/staff/passkeys.ts';
import { claimTotpStep, newTotpSecret, totpStepOf } from '../../services/staff/admin-totp.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';
import { consumeRateLimit, tooManyRequests } from '../../services/limits/rate-limit.ts';
import { bootstrapOwnerEmail, updateUser, type StaffUserRow } from '../../services/staff/staff-users.ts';
import { verifyAdminPassword } from '../../admin-password.ts';
import { staffNameSchema } from './admin-users.ts';

export const WRONG_CODE = 'That code is not right. Enter the current 6-digit code from your authenticator app.';

const codeSchema = z.object({ code: z.string().trim().max(16) });
/** One's own name, by the Team tab's rule for names. */
const nameSchema = z.object({ name: staffNameSchema });

/** Asked before an authenticator is removed or replaced (api.md "Second factor and links"). */
export const CONFIRM_FIRST = 'Enter the current 6-digit code from your authenticator app, or your password, to change it.';
/** Asked before a passkey is removed: a session alone cannot take a second factor away. */
export const CONFIRM_PASSKEY_REMOVAL = 'Enter your password, or the current 6-digit code from your authenticator app, to remove a passkey.';
const confirmSchema = z.object({ code: z.string().trim().max(16).optional(), password: z.string().max(1024).optional() });
// A session is not a licence to guess: ten tries per person per quarter hour.
const CONFIRM_LIMIT = { name: 'admin-confirm', limit: 10, windowSeconds: 15 * 60 };

/**
 * Removing or replacing a second factor asks for the current code or the password again, so a
 * session alone (a browser left open, a link's session) cannot take the second factor away.
 */
async function confirmIdentity(c: Context<AppEnv>, user: StaffUserRow, message = CONFIRM_FIRST): Promise<void> {
  const { db, env, admin, now } = c.get('deps');
  const { code, password } = await readJson(c, confirmSchema);
  if (!code && !password) throw new AppError(400, message, { code: message });
  const attempt = await consumeRateLimit(db, CONFIRM_LIMIT, String(user.id), now());
  if (!attempt.allowed) throw tooManyRequests(attempt.retryAfterSeconds);
  const step = code && user.totpSecret ? totpStepOf(user.totpSecret, code, now()) : null;
  if (step !== null && (await claimTotpStep(db, user.id, step, now()))) return;
  if (password) {
    const isBootstrap = user.email === bootstrapOwnerEmail(env.ADMIN_EMAIL);
    const [own, bootstrap] = await Promise.all([
      user.passwordHash ? verifyAdminPassword(password, user.passwordHash) : false,
      isBootstrap && admin ? verifyAdminPassword(password, admin.passwordHash) : false,
    ]);
    if (own || bootstrap) return;
  }
  throw new AppError(400, message, { code: message });
}

/** My account: one's own sessions, passkeys and authenticator, for every role (api.md "Staff accounts"). */
export const adminMeRoutes = new Hono<AppEnv>()
  .use('*', requireSignedIn)
  .get('/', async (c) => {
    const user = c.get('adminUser')!;
    const { db } = c.get('deps');
    return c.json({
      id: user.id,
      name: user.name,
      email: user.email,
      role: user.role,
      totp: user.totpSecret !== null,
      passkeys: await listPasskeys(db, user.id),
    });
  })
  // Everyone names themself (the name shows in invitations, logs and notes); logged as a change.
  .patch('/', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    const { name } = await readJson(c, nameSchema);
    const row = await updateUser(db, user.id, { name }, String(user.id), now());
    return c.json({ id: row.id, name: row.name, email: row.email, role: row.role, nameChosen: true });
  })
  .get('/sessions', async (c) => {
    const { db, now } = c.get('deps');
    const token = adminSessionToken(c);
    return c.json(await listUserSessions(db, c.get('adminUser')!.id, token ? hashSessionToken(token) : null, now()));
  })
  .delete('/sessions/:id', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    if (!(await endUserSession(db, user.id, c.req.param('id'), now()))) throw new AppError(404, 'No such session.');
    await writeChannelLog(db, { channel: 'admin', action: 'session_ended', userId: String(user.id), details: `${user.name} ended one of their sessions` });
    return c.body(null, 204);
  })
  // Sign out everywhere, this browser included.
  .delete('/sessions', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    const ended = await endAllUserSessions(db, user.id, now());
    clearAdminCookie(c);
    await writeChannelLog(db, { channel: 'admin', action: 'logout_everywhere', userId: String(user.id), details: `${user.name} signed out everywhere (${ended} sessions)` });
    return c.body(null, 204);
  })
  .delete('/passkeys/:id', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isInteger(id) || id < 1 || id > 2 ** 31 - 1) throw new AppError(404, 'No such passkey.');
    const user = c.get('adminUser')!;
    // A passkey is a second factor: taking one away asks for the password or code again.
    await confirmIdentity(c, user, CONFIRM_PASSKEY_REMOVAL);
    await removePasskey(c.get('deps').db, user, id);
    return c.body(null, 204);
  })
  // A new authenticator secret, shown once; it signs nobody in until confirmed with a code.
  // Replacing one that is on asks for its current code or the password first.
  .post('/totp/setup', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    if (user.totpSecret) await confirmIdentity(c, user);
    const { secret, uri } = newTotpSecret(user.email);
    await db.update(staffUsers).set({ totpPendingSecret: secret, updatedAt: now() }).where(eq(staffUsers.id, user.id));
    await writeChannelLog(db, { channel: 'admin', action: 'totp_setup', userId: String(user.id), details: `${user.name} started setting up an authenticator app` });
    return c.json({ secret, uri });
  })
  .post('/totp/confirm', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    const { code } = await readJson(c, codeSchema);
    const secret = user.totpPendingSecret;
    const step = secret ? totpStepOf(secret, code, now()) : null;
    if (!secret || step === null || !(await claimTotpStep(db, user.id, step, now()))) throw new AppError(400, WRONG_CODE, { code: WRONG_CODE });
    await db.update(staffUsers).set({ totpSecret: secret, totpPendingSecret: null, updatedAt: now() }).where(eq(staffUsers.id, user.id));
    await writeChannelLog(db, { channel: 'admin', action: 'totp_enabled', userId: String(user.id), details: `${user.name} turned on an authenticator app` });
    return c.body(null, 204);
  })
  .delete('/totp', async (c) => {
    const { db, now } = c.get('deps');
    const user = c.get('adminUser')!;
    if (user.totpSecret) await confirmIdentity(c, user);
    await db.update(staffUsers).set({ totpSecret: null, totpPendingSecret: null, updatedAt: now() }).where(eq(staffUsers.id, user.id));
    await writeChannelLog(db, { channel: 'admin', action: 'totp_disabled', userId: String(user.id), severity: 'warning', details: `${user.name} turned off their authenticator app` });
    return c.body(null, 204);
  });
