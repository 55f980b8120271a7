import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { channelLogs, emailOutbox, staffUsers } from '../../db/schema.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, TEST_ORIGIN, TEST_SCRYPT_PARAMS } from '../setup/test-app.ts';
import { adminCookie, adminRequest, staffUser } from '../setup/admin.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { hashAdminPassword } from '../../src/server/admin-password.ts';
import { adminTotp, newTotpSecret } from '../../src/server/services/staff/admin-totp.ts';
import { LOGIN_LIMITS } from '../../src/server/services/staff/sign-in-limits.ts';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator.ts';

// A new person's first hour with their account (issue: the code step, names, plain refusals).
const ctx = await createTestContext({ ADMIN_EMAIL: 'boss@cleanpatch.example' });
const db = ctx.deps.db;
const STRONG = 'lantern orchard violet 42';
const strongHash = await hashAdminPassword(STRONG);

const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0];
const login = (body: Record<string, unknown>) => ctx.app.request('/api/admin/login', jsonRequest(body), freshClient());
const session = (cookie: string) => ctx.app.request('/api/admin/session', { headers: { Cookie: cookie } });

async function deactivate(id: number) {
  const owner = await adminCookie(ctx, 'owner');
  const response = await ctx.app.request(`/api/admin/users/${id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'deactivated' } }));
  expect(response.status).toBe(200);
}

describe('a deactivated person', () => {
  it('is told plainly, but only after the right password: a wrong one still reads "Invalid Password"', async () => {
    const person = await staffUser(ctx, 'staff', { passwordHash: strongHash });
    await deactivate(person.id);
    const wrong = await login({ email: person.email, password: 'not the password at all' });
    expect(await wrong.json()).toMatchObject({ error: 'Invalid Password' });
    const right = await login({ email: person.email, password: STRONG });
    expect(right.status).toBe(401);
    expect(cookieOf(right)).toBeUndefined();
    expect(await right.json()).toMatchObject({ error: 'This account has been deactivated. Ask an owner of the business to reactivate it.' });
  });

  it('with an authenticator, is asked for the code first and told only once it is right', async () => {
    const person = await staffUser(ctx, 'staff', { passwordHash: strongHash });
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    await db.update(staffUsers).set({ totpSecret: secret }).where(eq(staffUsers.id, person.id));
    await deactivate(person.id);
    expect(await (await login({ email: person.email, password: STRONG })).json()).toMatchObject({ codeRequired: true });
    expect(await (await login({ email: person.email, password: STRONG, code: '000000' })).json()).toMatchObject({ codeRequired: true });
    const code = adminTotp(secret).generate({ timestamp: ctx.deps.now().getTime() });
    const told = await login({ email: person.email, password: STRONG, code });
    expect(await told.json()).toMatchObject({ error: 'This account has been deactivated. Ask an owner of the business to reactivate it.' });
  });

  it('spends none of the person’s code allowance: codes tried while deactivated leave every try for after reactivation', async () => {
    // A cheaper hash of the same password: this test checks it nineteen times.
    const person = await staffUser(ctx, 'staff', { passwordHash: await hashAdminPassword(STRONG, TEST_SCRYPT_PARAMS) });
    const secret = newTotpSecret(person.email).secret;
    await db.update(staffUsers).set({ totpSecret: secret }).where(eq(staffUsers.id, person.id));
    const tryCode = (code: string, cookie?: string) =>
      ctx.app.request('/api/admin/login', jsonRequest({ email: person.email, password: STRONG, code }, { headers: cookie ? { Cookie: cookie } : {} }), freshClient());
    await deactivate(person.id);
    // Someone holding the old password tries codes at the deactivated account (under the password's own limit).
    for (let guess = 0; guess < LOGIN_LIMITS.perAccount.limit - 2; guess += 1) expect((await tryCode(String(200000 + guess))).status).toBe(401);

    const owner = await adminCookie(ctx, 'owner');
    const reactivated = await ctx.app.request(`/api/admin/users/${person.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'active' } }));
    expect(reactivated.status).toBe(200);
    const back = await tryCode(adminTotp(secret).generate({ timestamp: ctx.deps.now().getTime() }));
    expect(back.status).toBe(204);
    const device = back.headers.getSetCookie().find((cookie) => cookie.startsWith('cp_device='))!.split(';')[0]!;
    // Back at work, the person mistypes codes on their own phone: every try of the allowance is theirs.
    const statuses: number[] = [];
    for (let guess = 0; guess < LOGIN_LIMITS.codeGuesses.limit - 1; guess += 1) statuses.push((await tryCode(String(300000 + guess), device)).status);
    expect(statuses).toEqual(Array(LOGIN_LIMITS.codeGuesses.limit - 1).fill(401));
  });

  it('is told so by a passkey that signs correctly; an unknown passkey is still "not recognised"', async () => {
    const post = (path: string, cookie: string | null, body?: unknown) =>
      ctx.app.request(path, cookie ? adminRequest(cookie, { method: 'POST', body }) : jsonRequest(body ?? {}));
    const person = await staffUser(ctx, 'viewer');
    const cookie = await adminCookie(ctx, person);
    const device = new SoftwareAuthenticator(TEST_ORIGIN);
    const answer = device.register(await (await post('/api/admin/passkeys/register/options', cookie)).json());
    expect((await post('/api/admin/passkeys/register', cookie, { name: 'Phone', response: answer })).status).toBe(201);
    await deactivate(person.id);
    const refused = await post('/api/admin/passkeys/login', null, device.signIn(await (await post('/api/admin/passkeys/login/options', null)).json()));
    expect(refused.status).toBe(401);
    expect((await refused.json()).error).toBe('This account has been deactivated. Ask an owner of the business to reactivate it.');
    const stranger = new SoftwareAuthenticator(TEST_ORIGIN);
    stranger.register({ challenge: 'x', rp: {}, user: { id: 'nobody' } });
    const unknown = await post('/api/admin/passkeys/login', null, stranger.signIn(await (await post('/api/admin/passkeys/login/options', null)).json()));
    expect((await unknown.json()).error).toBe('This passkey was not recognised. Sign in with your password.');
  });
});

describe('names', () => {
  it('asks the bootstrap owner for a name at the first sign-in; setting it in My account shows everywhere', async () => {
    const signedIn = await login({ password: TEST_ADMIN_PASSWORD });
    const cookie = cookieOf(signedIn)!;
    expect((await (await session(cookie)).json()).user).toMatchObject({ name: 'Owner', nameChosen: false });
    const renamed = await ctx.app.request('/api/admin/me', adminRequest(cookie, { method: 'PATCH', body: { name: '  Maya Okafor ' } }));
    expect(renamed.status).toBe(200);
    expect(await renamed.json()).toMatchObject({ name: 'Maya Okafor', nameChosen: true });
    expect((await (await session(cookie)).json()).user).toMatchObject({ name: 'Maya Okafor', nameChosen: true });
    // Signing in again with the site's password keeps the chosen name.
    const again = cookieOf(await login({ password: TEST_ADMIN_PASSWORD }))!;
    expect((await (await session(again)).json()).user).toMatchObject({ name: 'Maya Okafor', nameChosen: true });
    const logs = await db.select().from(channelLogs).where(eq(channelLogs.action, 'staff_updated'));
    expect(logs.map((row) => row.details)).toContain('Maya Okafor: name Owner → Maya Okafor');
  });

  it('lets every role set their own name, and refuses a blank one with a 400 saying why', async () => {
    const viewer = await staffUser(ctx, 'viewer', { name: 'Temp' });
    const cookie = await adminCookie(ctx, viewer);
    const blank = await ctx.app.request('/api/admin/me', adminRequest(cookie, { method: 'PATCH', body: { name: '   ' } }));
    expect(blank.status).toBe(400);
    expect((await blank.json()).error).toBe('Name is required');
    const ok = await ctx.app.request('/api/admin/me', adminRequest(cookie, { method: 'PATCH', body: { name: 'Vic Viewer' } }));
    expect(ok.status).toBe(200);
    const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, viewer.id));
    expect(row).toMatchObject({ name: 'Vic Viewer', role: 'viewer' });
    expect(row!.nameChosenAt).not.toBeNull();
  });

  it('counts a name the owner typed when inviting as chosen', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const created = await ctx.app.request('/api/admin/users', adminRequest(owner, { body: { name: 'Priya Shah', email: 'priya.first@team.example', role: 'staff' } }));
    const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, (await created.json()).id));
    expect(row!.nameChosenAt).not.toBeNull();
  });
});

describe('the bootstrap owner on a fresh database', () => {
  it('is created only once the whole sign-in, code included, succeeds; the Logs say so and the name is asked for', async () => {
    const secret = newTotpSecret('founder@cleanpatch.example').secret;
    const fresh = await createTestContext({ ADMIN_EMAIL: 'founder@cleanpatch.example', ADMIN_TOTP_SECRET: secret });
    const signIn = (body: Record<string, unknown>) => fresh.app.request('/api/admin/login', jsonRequest(body), freshClient());
    const accounts = () => fresh.deps.db.select().from(staffUsers);
    const created = () => fresh.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'bootstrap_owner_created'));

    expect(await (await signIn({ password: TEST_ADMIN_PASSWORD })).json()).toMatchObject({ codeRequired: true });
    expect(await (await signIn({ password: TEST_ADMIN_PASSWORD, code: '000000' })).json()).toMatchObject({ codeRequired: true });
    expect(await accounts()).toEqual([]);
    expect(await created()).toEqual([]);

    const signedIn = await signIn({ password: TEST_ADMIN_PASSWORD, code: adminTotp(secret).generate({ timestamp: fresh.deps.now().getTime() }) });
    expect(signedIn.status).toBe(204);
    expect(await accounts()).toEqual([expect.objectContaining({ email: 'founder@cleanpatch.example', name: 'Owner', role: 'owner', status: 'active', nameChosenAt: null })]);
    const logged = await created();
    expect(logged).toHaveLength(1);
    expect(logged[0]!.details).toContain('founder@cleanpatch.example');
    const me = await fresh.app.request('/api/admin/session', { headers: { Cookie: cookieOf(signedIn)! } });
    expect((await me.json()).user).toMatchObject({ name: 'Owner', role: 'owner', nameChosen: false });
    // The next sign-in finds the account: nothing is created or logged twice.
    const again = await signIn({ password: TEST_ADMIN_PASSWORD, code: adminTotp(secret).generate({ timestamp: fresh.deps.now().getTime() + 30_000 }) });
    expect(again.status).toBe(204);
    expect(await accounts()).toHaveLength(1);
    expect(await created()).toHaveLength(1);
  });

  it('without a second factor, is created by the first sign-in with the site’s password, and logged', async () => {
    const fresh = await createTestContext({ ADMIN_EMAIL: 'founder@cleanpatch.example' });
    const wrong = await fresh.app.request('/api/admin/login', jsonRequest({ password: 'not the password' }), freshClient());
    expect(wrong.status).toBe(401);
    expect(await fresh.deps.db.select().from(staffUsers)).toEqual([]);
    const signedIn = await fresh.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }), freshClient());
    expect(signedIn.status).toBe(204);
    expect(await fresh.deps.db.select().from(staffUsers)).toEqual([expect.objectContaining({ role: 'owner', status: 'active', nameChosenAt: null })]);
    expect(await fresh.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'bootstrap_owner_created'))).toHaveLength(1);
  });
});

describe('password reasons', () => {
  it.each([
    ['CleanPatch2026!!', "This password contains the business's name, which is the first thing anyone would try. Please choose another."],
    ['my clean-patch password', "This password contains the business's name, which is the first thing anyone would try. Please choose another."],
    ['aaaaaaaaaaaaaa', 'This password is one character repeated or a run of keys, which is easy to guess. Please choose another.'],
    ['password12345', 'This password is one of the most common ones. Please choose another.'],
    ['xpriya.reset9x', 'This password contains the name in your e-mail address, which is easy to guess. Please choose another.'],
  ])('refuses %s at the invitation with its own reason', async (password, reason) => {
    const owner = await adminCookie(ctx, 'owner');
    const mailbox = `priya.reset${Math.random().toString(36).slice(2, 6)}`;
    const email = `${mailbox}@team.example`;
    await ctx.app.request('/api/admin/users', adminRequest(owner, { body: { name: 'Priya Reset', email, role: 'staff' } }));
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.id)).limit(1);
    const token = mail!.text.match(/\/admin\/accept\?t=([\w-]+)/)![1]!;
    const answer = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password: password.replace('priya.reset', mailbox) }));
    expect(answer.status).toBe(400);
    expect((await answer.json()).error).toBe(reason);
  });
});
