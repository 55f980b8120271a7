import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { channelLogs, emailOutbox, knownDevices, staffUsers } from '../../db/schema.ts';
import { adminTotp, newTotpSecret } from '../../src/server/services/staff/admin-totp.ts';
import { LOGIN_LIMITS } from '../../src/server/services/staff/sign-in-limits.ts';
import { pruneKnownDevices } from '../../src/server/services/staff/known-devices.ts';
import { consumeRateLimit } from '../../src/server/services/limits/rate-limit.ts';
import { CONFIRM_FIRST, CONFIRM_PASSKEY_REMOVAL } from '../../src/server/api/routes/admin-me.ts';
import { hashAdminPassword } from '../../src/server/admin-password.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest, staffUser } from '../setup/admin.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator.ts';

// Issue #33's attacks on accounts, replayed as an ex-employee or a stranger would
// (api.md "Staff accounts": second factor and links; "A known device is known to one person").
const ctx = await createTestContext({ ADMIN_EMAIL: 'boss@cleanpatch.example' });
const db = ctx.deps.db;
const STRONG = 'lantern orchard violet 42';
const NEWER = 'copper meadow sparrow 77';

const cookieOf = (response: Response, name = 'cp_admin') =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))?.split(';')[0];
const login = (body: Record<string, unknown>, headers: Record<string, string> = {}, client = freshClient()) =>
  ctx.app.request('/api/admin/login', jsonRequest(body, { headers }), client);
const codeAt = (secret: string, offsetSteps = 0) => adminTotp(secret).generate({ timestamp: ctx.deps.now().getTime() + offsetSteps * 30_000 });

let hour = 0;
/** Each test at an hour of its own: no counter or code step carries over. */
function freshHour() {
  hour += 2;
  ctx.setNow(new Date(Date.UTC(2026, 10, 24, 0) + hour * 3_600_000 + 10_000));
}

async function linkSentTo(email: string): Promise<string> {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.id)).limit(1);
  const match = row?.text.match(/\/admin\/accept\?t=([\w-]+)/);
  if (!match) throw new Error(`no link sent to ${email}`);
  return match[1]!;
}

/** An active person with a password (and, if asked, an authenticator app already on). */
async function person(role: 'owner' | 'staff' | 'viewer', withTotp = false) {
  const secret = withTotp ? newTotpSecret('x@team.example').secret : null;
  const user = await staffUser(ctx, role, { passwordHash: await hashAdminPassword(STRONG, { N: 2 ** 12, r: 8, p: 1 }) });
  if (secret) await db.update(staffUsers).set({ totpSecret: secret }).where(eq(staffUsers.id, user.id));
  return { ...user, secret: secret! };
}

const devicesOf = async (userId: number) =>
  (await db.select({ n: sql<number>`cast(count(*) as integer)` }).from(knownDevices).where(eq(knownDevices.userId, userId)))[0]!.n;

describe('row 2: a known device is known to one person', () => {
  it('a viewer’s device cookie lifts no limit for guesses at another owner from 40 addresses', async () => {
    freshHour();
    const viewer = await person('viewer');
    const signedIn = await login({ email: viewer.email, password: STRONG });
    expect(signedIn.status).toBe(204);
    const device = cookieOf(signedIn, 'cp_device')!;
    const owner = await person('owner');
    const statuses: number[] = [];
    for (let guess = 0; guess < 40; guess += 1) statuses.push((await login({ email: owner.email, password: `guess ${guess}` }, { Cookie: device })).status);
    expect(statuses.slice(0, LOGIN_LIMITS.perAccount.limit).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(LOGIN_LIMITS.perAccount.limit).every((status) => status === 429)).toBe(true);
    // Under site-wide pressure the same cookie asks the stranger for work, while the viewer's own
    // sign-in from it is spared the challenge.
    for (let index = 0; index < LOGIN_LIMITS.overall.limit + 5; index += 1) await consumeRateLimit(db, LOGIN_LIMITS.overall, 'all', ctx.deps.now());
    expect((await login({ email: owner.email, password: 'another guess' }, { Cookie: device })).status).toBe(428);
    expect((await login({ email: viewer.email, password: STRONG }, { Cookie: device })).status).toBe(204);
  });

  it('never helps guess codes: from the person’s own device, the 11th code after the right password is refused', async () => {
    freshHour();
    const staff = await person('staff', true);
    const first = await login({ email: staff.email, password: STRONG, code: codeAt(staff.secret) });
    expect(first.status).toBe(204);
    const device = cookieOf(first, 'cp_device')!;
    const statuses: number[] = [];
    for (let guess = 0; guess < LOGIN_LIMITS.codeGuesses.limit + 1; guess += 1) {
      statuses.push((await login({ email: staff.email, password: STRONG, code: String(100000 + guess) }, { Cookie: device })).status);
    }
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('deactivation and a password reset forget the person’s devices; old rows are pruned', async () => {
    freshHour();
    const owner = await adminCookie(ctx, 'owner');
    const staff = await person('staff');
    const signedIn = await login({ email: staff.email, password: STRONG });
    expect(await devicesOf(staff.id)).toBe(1);
    const device = cookieOf(signedIn, 'cp_device')!;
    expect((await ctx.app.request(`/api/admin/users/${staff.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'deactivated' } }))).status).toBe(200);
    expect(await devicesOf(staff.id)).toBe(0);
    expect((await ctx.app.request(`/api/admin/users/${staff.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'active' } }))).status).toBe(200);
    // Back again: the old cookie is a stranger's under pressure.
    for (let index = 0; index < LOGIN_LIMITS.overall.limit + 5; index += 1) await consumeRateLimit(db, LOGIN_LIMITS.overall, 'all', ctx.deps.now());
    expect((await login({ email: staff.email, password: STRONG }, { Cookie: device })).status).toBe(428);

    freshHour();
    const owner2 = await adminCookie(ctx, 'owner');
    const other = await person('staff');
    const oldDevice = cookieOf(await login({ email: other.email, password: STRONG }), 'cp_device')!.split('=')[1]!;
    expect(await devicesOf(other.id)).toBe(1);
    expect((await ctx.app.request(`/api/admin/users/${other.id}/password-reset`, adminRequest(owner2, { method: 'POST' }))).status).toBe(202);
    expect((await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: await linkSentTo(other.email), password: NEWER }))).status).toBe(204);
    // Only the browser that took the link is known now.
    const known = await db.select({ tokenHash: knownDevices.tokenHash }).from(knownDevices).where(eq(knownDevices.userId, other.id));
    expect(known.map((row) => row.tokenHash)).not.toContain(createHash('sha256').update(oldDevice).digest('base64url'));
    expect(known).toHaveLength(1);

    expect(await pruneKnownDevices(db, new Date(ctx.deps.now().getTime() + 401 * 24 * 3_600_000))).toBeGreaterThan(0);
    expect(await devicesOf(other.id)).toBe(0);
  });
});

describe('row 3: a link sets the password and nothing else when the person has a second factor', () => {
  it('a reset link read by someone else gives no session; sign-in still needs the code', async () => {
    freshHour();
    const owner = await adminCookie(ctx, 'owner');
    const staff = await person('staff', true);
    await ctx.app.request(`/api/admin/users/${staff.id}/password-reset`, adminRequest(owner, { method: 'POST' }));
    const accepted = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: await linkSentTo(staff.email), password: NEWER }));
    expect(accepted.status).toBe(204);
    expect(cookieOf(accepted)).toBeUndefined();
    expect((await login({ email: staff.email, password: NEWER })).status).toBe(401);
    expect((await login({ email: staff.email, password: NEWER, code: codeAt(staff.secret) })).status).toBe(204);
  });

  it('removing or replacing the authenticator asks for the current code or the password again', async () => {
    freshHour();
    const staff = await person('staff', true);
    const cookie = await adminCookie(ctx, staff);
    const removed = await ctx.app.request('/api/admin/me/totp', adminRequest(cookie, { method: 'DELETE' }));
    expect(removed.status).toBe(415);
    const bare = await ctx.app.request('/api/admin/me/totp', adminRequest(cookie, { method: 'DELETE', body: {} }));
    expect(bare.status).toBe(400);
    expect((await bare.json()).error).toBe(CONFIRM_FIRST);
    expect((await ctx.app.request('/api/admin/me/totp', adminRequest(cookie, { method: 'DELETE', body: { code: '123456' } }))).status).toBe(400);
    expect((await ctx.app.request('/api/admin/me/totp/setup', adminRequest(cookie, { body: {} }))).status).toBe(400);
    const [still] = await db.select().from(staffUsers).where(eq(staffUsers.id, staff.id));
    expect(still!.totpSecret).toBe(staff.secret);
    expect(still!.totpPendingSecret).toBeNull();

    expect((await ctx.app.request('/api/admin/me/totp/setup', adminRequest(cookie, { body: { code: codeAt(staff.secret) } }))).status).toBe(200);
    expect((await ctx.app.request('/api/admin/me/totp', adminRequest(cookie, { method: 'DELETE', body: { password: STRONG } }))).status).toBe(204);
    const [after] = await db.select().from(staffUsers).where(eq(staffUsers.id, staff.id));
    expect(after!.totpSecret).toBeNull();
  });
});

describe('row 3, passkeys: removing one asks for the password or code again', () => {
  it('a session alone (a browser left open) cannot take a passkey away; the password can', async () => {
    freshHour();
    const staff = await person('staff');
    const cookie = await adminCookie(ctx, staff);
    const device = new SoftwareAuthenticator(TEST_ORIGIN);
    const options = await (await ctx.app.request('/api/admin/passkeys/register/options', adminRequest(cookie, { body: {} }))).json();
    expect((await ctx.app.request('/api/admin/passkeys/register', adminRequest(cookie, { body: { name: 'Work phone', response: device.register(options) } }))).status).toBe(201);
    const [passkey] = (await (await ctx.app.request('/api/admin/me', adminRequest(cookie))).json()).passkeys;
    const remove = (body?: unknown) => ctx.app.request(`/api/admin/me/passkeys/${passkey.id}`, adminRequest(cookie, { method: 'DELETE', body }));
    const signsIn = async () => {
      const challenge = await (await ctx.app.request('/api/admin/passkeys/login/options', jsonRequest({}), freshClient())).json();
      return (await ctx.app.request('/api/admin/passkeys/login', jsonRequest(device.signIn(challenge)), freshClient())).status === 204;
    };

    // The attack: the session removes the passkey with nothing else.
    expect((await remove()).status).toBe(415);
    const bare = await remove({});
    expect(bare.status).toBe(400);
    expect((await bare.json()).error).toBe(CONFIRM_PASSKEY_REMOVAL);
    expect((await remove({ password: 'not the password' })).status).toBe(400);
    expect((await remove({ code: '123456' })).status).toBe(400);
    expect(await signsIn()).toBe(true);

    expect((await remove({ password: STRONG })).status).toBe(204);
    expect(await signsIn()).toBe(false);
  });
});

describe('row 6: the bootstrap owner', () => {
  it('is restored only after the whole sign-in, code included, succeeds, and the Logs say so', async () => {
    freshHour();
    // The bootstrap account exists, has an authenticator, and was demoted by another owner.
    expect((await login({ password: TEST_ADMIN_PASSWORD })).status).toBe(204);
    const secret = newTotpSecret('boss@cleanpatch.example').secret;
    await db.update(staffUsers).set({ role: 'staff', totpSecret: secret }).where(eq(staffUsers.email, 'boss@cleanpatch.example'));
    const roleNow = async () => (await db.select().from(staffUsers).where(eq(staffUsers.email, 'boss@cleanpatch.example')))[0]!.role;

    expect((await login({ password: TEST_ADMIN_PASSWORD, code: '000000' })).status).toBe(401);
    expect(await roleNow()).toBe('staff');
    expect((await login({ password: TEST_ADMIN_PASSWORD, code: codeAt(secret) })).status).toBe(204);
    expect(await roleNow()).toBe('owner');
    const logged = await db.select().from(channelLogs).where(eq(channelLogs.action, 'bootstrap_owner_restored'));
    expect(logged).toHaveLength(1);
    expect(logged[0]!.details).toContain('staff → owner');
    await db.update(staffUsers).set({ totpSecret: null }).where(eq(staffUsers.email, 'boss@cleanpatch.example'));
  });
});

describe('row 7: unused links end at deactivation', () => {
  it('a reset link sent before deactivation does not open after reactivation', async () => {
    freshHour();
    const owner = await adminCookie(ctx, 'owner');
    const staff = await person('staff');
    await ctx.app.request(`/api/admin/users/${staff.id}/password-reset`, adminRequest(owner, { method: 'POST' }));
    const token = await linkSentTo(staff.email);
    await ctx.app.request(`/api/admin/users/${staff.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'deactivated' } }));
    await ctx.app.request(`/api/admin/users/${staff.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'active' } }));
    expect((await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password: NEWER }))).status).toBe(410);
  });
});

describe('row 9: account e-mails are resent by owners only', () => {
  it('a staff member’s resend of an invitation is 403; the owner’s is 202', async () => {
    freshHour();
    const owner = await adminCookie(ctx, 'owner');
    const email = `invited-${hour}@team.example`;
    await ctx.app.request('/api/admin/users', adminRequest(owner, { body: { name: 'Ivy Invited', email, role: 'staff' } }));
    const [message] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.to, email), eq(emailOutbox.kind, 'staff-invitation')));
    await db.update(emailOutbox).set({ status: 'sent' }).where(eq(emailOutbox.id, message!.id));
    const staff = await adminCookie(ctx, 'staff');
    const refused = await ctx.app.request(`/api/admin/messages/${message!.id}/resend`, adminRequest(staff, { method: 'POST' }));
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe('Your role cannot do this');
    expect((await ctx.app.request(`/api/admin/messages/${message!.id}/resend`, adminRequest(owner, { method: 'POST' }))).status).toBe(202);
  });
});

describe('row 10: what is logged', () => {
  it('ending one session, a refused passkey sign-in and starting an authenticator set-up', async () => {
    freshHour();
    const staff = await person('staff');
    const first = cookieOf(await login({ email: staff.email, password: STRONG }))!;
    await login({ email: staff.email, password: STRONG });
    const sessions = await (await ctx.app.request('/api/admin/me/sessions', adminRequest(first))).json();
    const other = sessions.find((row: { current: boolean }) => !row.current);
    expect((await ctx.app.request(`/api/admin/me/sessions/${other.id}`, adminRequest(first, { method: 'DELETE' }))).status).toBe(204);
    expect((await ctx.app.request('/api/admin/me/totp/setup', adminRequest(first, { method: 'POST' }))).status).toBe(200);
    const passkey = await ctx.app.request(
      '/api/admin/passkeys/login',
      jsonRequest({ id: 'bm90LWEta2V5', rawId: 'bm90LWEta2V5', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' } }),
      freshClient(),
    );
    expect(passkey.status).toBe(401);
    const actions = (await db.select({ action: channelLogs.action, details: channelLogs.details }).from(channelLogs)).map((row) => `${row.action}: ${row.details}`);
    expect(actions).toContain(`session_ended: ${staff.name} ended one of their sessions`);
    expect(actions).toContain(`totp_setup: ${staff.name} started setting up an authenticator app`);
    expect(actions.some((line) => line.startsWith('login_failed: Passkey sign-in refused'))).toBe(true);
  });

  it('refuses an SVG that declares more than 50 megapixels, as any other image', async () => {
    const huge = '<svg xmlns="http://www.w3.org/2000/svg" width="200000" height="200000"><rect width="10" height="10"/></svg>';
    const boxed = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10000 10000"><rect width="10" height="10"/></svg>';
    const fine = '<svg xmlns="http://www.w3.org/2000/svg" width="120mm" height="80mm"><rect width="10" height="10"/></svg>';
    const send = (svg: string) => {
      const form = new FormData();
      form.set('file', new File([svg], 'logo.svg', { type: 'image/svg+xml' }));
      return ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: 'http://localhost:8888' } }, freshClient());
    };
    expect((await send(huge)).status).toBe(413);
    expect((await send(boxed)).status).toBe(413);
    expect((await send(fine)).status).toBe(201);
  });
});

describe('row 10: the bootstrap owner’s e-mail answers as fast as any other', () => {
  it('checks one password: the account’s own when it has one, the site’s admin password without an e-mail', async () => {
    const timed = createTestContext({ ADMIN_EMAIL: 'boss@cleanpatch.example' }, { productionPasswordHash: true });
    const context = await timed;
    // The owner also set a password of their own (from a reset link): two hashes to check.
    await context.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }), freshClient());
    await context.deps.db.update(staffUsers).set({ passwordHash: await hashAdminPassword(STRONG) }).where(eq(staffUsers.email, 'boss@cleanpatch.example'));
    const time = async (email: string) => {
      const started = performance.now();
      expect((await context.app.request('/api/admin/login', jsonRequest({ email, password: 'wrong password' }), freshClient())).status).toBe(401);
      return performance.now() - started;
    };
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    const owner = median([await time('boss@cleanpatch.example'), await time('boss@cleanpatch.example'), await time('boss@cleanpatch.example')]);
    const other = median([await time('nobody@team.example'), await time('nobody@team.example'), await time('nobody@team.example')]);
    // One check's time, never two in a row.
    expect(owner).toBeLessThan(other * 1.6);
    // The site's admin password still signs the owner in, without the e-mail.
    expect((await context.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }), freshClient())).status).toBe(204);
    expect((await context.app.request('/api/admin/login', jsonRequest({ email: 'boss@cleanpatch.example', password: STRONG }), freshClient())).status).toBe(204);
  }, 60_000);
});
