import { describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { adminSessions, bookings, emailOutbox, staffPasskeys, staffUsers } from '../../db/schema.ts';
import { hashSessionToken } from '../../src/server/services/staff/admin-sessions.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest, staffUser } from '../setup/admin.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { adminTotp } from '../../src/server/services/staff/admin-totp.ts';
import { LOGIN_LIMITS } from '../../src/server/services/staff/sign-in-limits.ts';
import { SoftwareAuthenticator } from '../fixtures/software-authenticator.ts';
import { hashAdminPassword } from '../../src/server/admin-password.ts';

const ctx = await createTestContext({ ADMIN_EMAIL: 'boss@cleanpatch.example' });
const db = ctx.deps.db;
const STRONG = 'lantern orchard violet 42';

const cookieOf = (response: Response) => response.headers.get('set-cookie')?.split(';')[0];
const session = (cookie: string) => ctx.app.request('/api/admin/session', { headers: { Cookie: cookie } });
const login = (body: Record<string, unknown>) => ctx.app.request('/api/admin/login', jsonRequest(body), freshClient());

/** The link in the newest e-mail to an address, as the invitee would click it. */
async function linkSentTo(email: string): Promise<string> {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email)).orderBy(desc(emailOutbox.id)).limit(1);
  const match = row?.text.match(/\/admin\/accept\?t=([\w-]+)/);
  if (!match) throw new Error(`no link sent to ${email}`);
  return match[1]!;
}

async function invite(owner: string, body: { name: string; email: string; role: string }) {
  return ctx.app.request('/api/admin/users', adminRequest(owner, { body }));
}

async function acceptedPerson(owner: string, role: 'owner' | 'staff' | 'viewer', name: string) {
  const email = `${name.toLowerCase().replace(/\W/g, '.')}@team.example`;
  const created = await (await invite(owner, { name, email, role })).json();
  const accepted = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: await linkSentTo(email), password: STRONG }));
  expect(accepted.status).toBe(204);
  return { id: created.id as number, email, cookie: cookieOf(accepted)! };
}

describe('the bootstrap owner', () => {
  it('signs in with ADMIN_PASSWORD and no e-mail, as before accounts, and the session names the owner', async () => {
    const response = await login({ password: TEST_ADMIN_PASSWORD });
    expect(response.status).toBe(204);
    const body = await (await session(cookieOf(response)!)).json();
    expect(body).toEqual({ authenticated: true, user: { id: expect.any(Number), name: 'Owner', email: 'boss@cleanpatch.example', role: 'owner', nameChosen: false } });
  });

  it('signs in with the ADMIN_EMAIL address too, and the same 401 for an unknown e-mail and a wrong password', async () => {
    expect((await login({ email: 'Boss@CleanPatch.example', password: TEST_ADMIN_PASSWORD })).status).toBe(204);
    const unknown = await login({ email: 'nobody@team.example', password: TEST_ADMIN_PASSWORD });
    const wrong = await login({ email: 'boss@cleanpatch.example', password: 'not it at all' });
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(await unknown.json()).toEqual({ ...(await wrong.json()), requestId: expect.any(String) });
  });
});

describe('sessions from before accounts', () => {
  it('open nothing: the owner signs in once more with the same password', async () => {
    const token = 'x'.repeat(43);
    await db.insert(adminSessions).values({ tokenHash: hashSessionToken(token), expiresAt: new Date(ctx.deps.now().getTime() + 3600_000), lastSeenAt: ctx.deps.now() });
    expect((await session(`cp_admin=${token}`)).status).toBe(401);
    expect((await login({ password: TEST_ADMIN_PASSWORD })).status).toBe(204);
  });
});

describe('invitations', () => {
  it('invites by name, e-mail and role: 201 invited, an e-mail with a 48-hour single-use link, 409 for the same e-mail', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const response = await invite(owner, { name: 'Priya Shah', email: 'Priya@Team.example', role: 'staff' });
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ name: 'Priya Shah', email: 'priya@team.example', role: 'staff', status: 'invited', passkeys: 0, totp: false });
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'priya@team.example'));
    expect(mail).toMatchObject({ kind: 'staff-invitation' });
    expect(mail!.text).toContain(`${TEST_ORIGIN}/admin/accept?t=`);
    expect((await invite(owner, { name: 'Again', email: 'priya@team.example', role: 'viewer' })).status).toBe(409);
  });

  it('accepts once: 204 and a session, then 410 for the same link', async () => {
    const owner = await adminCookie(ctx, 'owner');
    await invite(owner, { name: 'Tom Reid', email: 'tom@team.example', role: 'viewer' });
    const token = await linkSentTo('tom@team.example');
    const inspected = await ctx.app.request('/api/admin/invitations/inspect', jsonRequest({ token }));
    expect(await inspected.json()).toEqual({ name: 'Tom Reid', email: 'tom@team.example', role: 'viewer', purpose: 'invite' });
    const first = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password: STRONG }));
    expect(first.status).toBe(204);
    expect((await (await session(cookieOf(first)!)).json()).user).toMatchObject({ name: 'Tom Reid', role: 'viewer' });
    const again = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password: STRONG }));
    expect(again.status).toBe(410);
    // The chosen password signs in with the e-mail.
    expect((await login({ email: 'tom@team.example', password: STRONG })).status).toBe(204);
  });

  it('answers 410 for a link past 48 hours, and a re-sent invitation retires the older link', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const created = await (await invite(owner, { name: 'Late Larry', email: 'larry@team.example', role: 'staff' })).json();
    const first = await linkSentTo('larry@team.example');
    expect((await ctx.app.request(`/api/admin/users/${created.id}/invitation`, adminRequest(owner, { method: 'POST' }))).status).toBe(202);
    const second = await linkSentTo('larry@team.example');
    expect(second).not.toBe(first);
    expect((await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: first, password: STRONG }))).status).toBe(410);
    const start = ctx.deps.now();
    ctx.setNow(new Date(start.getTime() + 48 * 3600_000 + 1000));
    try {
      expect((await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: second, password: STRONG }))).status).toBe(410);
    } finally {
      ctx.setNow(start);
    }
  });

  it.each([
    ['password1234', 'one of the most common'],
    ['qwertyuiop12', 'a run of keys'],
    ['aaaaaaaaaaaaaaaa', 'one character repeated'],
    ['short pass', 'at least 12 characters'],
  ])('refuses %s (%s) and keeps the link usable', async (password, message) => {
    const owner = await adminCookie(ctx, 'owner');
    const email = `weak-${Math.random().toString(36).slice(2, 8)}@team.example`;
    await invite(owner, { name: 'Weak Wendy', email, role: 'staff' });
    const token = await linkSentTo(email);
    const refused = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields.password).toContain(message);
    expect((await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token, password: STRONG }))).status).toBe(204);
  });

  it('sends a reset link that sets a new password and ends the old sessions', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await acceptedPerson(owner, 'staff', 'Reset Rita');
    expect((await ctx.app.request(`/api/admin/users/${person.id}/password-reset`, adminRequest(owner, { method: 'POST' }))).status).toBe(202);
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'staff-password-reset'));
    expect(mail!.to).toBe(person.email);
    const reset = await ctx.app.request('/api/admin/invitations/accept', jsonRequest({ token: await linkSentTo(person.email), password: 'a brand new passphrase' }));
    expect(reset.status).toBe(204);
    expect((await session(person.cookie)).status).toBe(401);
    expect((await login({ email: person.email, password: STRONG })).status).toBe(401);
    expect((await login({ email: person.email, password: 'a brand new passphrase' })).status).toBe(204);
  });
});

describe('roles, deactivation and the last owner', () => {
  it('lists the team for owners only, with each person\'s passkeys counted', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const keyed = await staffUser(ctx, 'staff', { name: 'Kim Keys' });
    await db.insert(staffPasskeys).values([
      { userId: keyed.id, credentialId: `cred-a-${keyed.id}`, publicKey: 'AA', name: 'Phone' },
      { userId: keyed.id, credentialId: `cred-b-${keyed.id}`, publicKey: 'AA', name: 'Laptop' },
    ]);
    const list = await (await ctx.app.request('/api/admin/users', adminRequest(owner))).json();
    expect(list.find((row: { id: number }) => row.id === keyed.id)).toEqual({
      id: keyed.id,
      name: 'Kim Keys',
      email: keyed.email,
      role: 'staff',
      status: 'active',
      lastSignInAt: null,
      passkeys: 2,
      totp: false,
    });
    const staff = await adminCookie(ctx, 'staff');
    const refused = await ctx.app.request('/api/admin/users', adminRequest(staff));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'Your role cannot do this' });
  });

  it('changes a role, and deactivating a person ends their sessions at once', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await acceptedPerson(owner, 'staff', 'Dee Activated');
    const promoted = await ctx.app.request(`/api/admin/users/${person.id}`, adminRequest(owner, { method: 'PATCH', body: { role: 'viewer' } }));
    expect(await promoted.json()).toMatchObject({ role: 'viewer', status: 'active' });
    expect((await session(person.cookie)).status).toBe(200);
    const off = await ctx.app.request(`/api/admin/users/${person.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'deactivated' } }));
    expect(await off.json()).toMatchObject({ status: 'deactivated' });
    expect((await session(person.cookie)).status).toBe(401);
    expect((await login({ email: person.email, password: STRONG })).status).toBe(401);
  });

  it('refuses to demote or deactivate the last active owner (409), and allows it once another owner exists', async () => {
    const isolated = await createTestContext();
    const [only] = await isolated.deps.db.insert(staffUsers).values({ name: 'Only Owner', email: 'only@team.example', role: 'owner', status: 'active' }).returning();
    const cookie = await adminCookie(isolated, only!);
    for (const body of [{ role: 'staff' }, { status: 'deactivated' }]) {
      const response = await isolated.app.request(`/api/admin/users/${only!.id}`, adminRequest(cookie, { method: 'PATCH', body }));
      expect(response.status).toBe(409);
      expect((await response.json()).error).toBe('The last active owner cannot be demoted or deactivated.');
    }
    await staffUser(isolated, 'owner');
    const demoted = await isolated.app.request(`/api/admin/users/${only!.id}`, adminRequest(cookie, { method: 'PATCH', body: { role: 'staff' } }));
    expect(demoted.status).toBe(200);
  });
});

describe('My account: sessions and the authenticator', () => {
  it('lists own sessions with the device, ends one, and signs out everywhere', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await acceptedPerson(owner, 'viewer', 'Sam Sessions');
    const phone = await ctx.app.request(
      '/api/admin/login',
      jsonRequest({ email: person.email, password: STRONG }, { headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36' } }),
      freshClient(),
    );
    const phoneCookie = cookieOf(phone)!;
    const list = await (await ctx.app.request('/api/admin/me/sessions', adminRequest(person.cookie))).json();
    expect(list).toHaveLength(2);
    const phoneRow = list.find((row: { current: boolean }) => !row.current);
    expect(phoneRow).toMatchObject({ device: 'Chrome on Android', createdAt: expect.any(String), lastSeenAt: expect.any(String) });
    expect((await ctx.app.request(`/api/admin/me/sessions/${phoneRow.id}`, adminRequest(person.cookie, { method: 'DELETE' }))).status).toBe(204);
    expect((await session(phoneCookie)).status).toBe(401);
    expect((await session(person.cookie)).status).toBe(200);
    expect((await ctx.app.request('/api/admin/me/sessions', adminRequest(person.cookie, { method: 'DELETE' }))).status).toBe(204);
    expect((await session(person.cookie)).status).toBe(401);
  });

  it('sets a personal authenticator, confirmed by a code, which sign-in then needs', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await acceptedPerson(owner, 'staff', 'Tara Totp');
    const { secret, uri } = await (await ctx.app.request('/api/admin/me/totp/setup', adminRequest(person.cookie, { method: 'POST' }))).json();
    expect(uri).toMatch(/^otpauth:\/\/totp\/CleanPatch:/);
    const wrong = await ctx.app.request('/api/admin/me/totp/confirm', adminRequest(person.cookie, { body: { code: '000000' } }));
    expect(wrong.status).toBe(400);
    const code = adminTotp(secret).generate({ timestamp: ctx.deps.now().getTime() });
    expect((await ctx.app.request('/api/admin/me/totp/confirm', adminRequest(person.cookie, { body: { code } }))).status).toBe(204);
    const withoutCode = await login({ email: person.email, password: STRONG });
    expect(withoutCode.status).toBe(401);
    expect((await withoutCode.json()).codeRequired).toBe(true);
    const next = adminTotp(secret).generate({ timestamp: ctx.deps.now().getTime() + 30_000 });
    expect((await login({ email: person.email, password: STRONG, code: next })).status).toBe(204);
  });
});

describe('sign-in limits per account', () => {
  it('slows guesses at one person from many addresses, while other people still sign in', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const target = await acceptedPerson(owner, 'staff', 'Guessed Gina');
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LOGIN_LIMITS.perAccount.limit; attempt += 1) {
      statuses.push((await login({ email: target.email, password: `wrong guess ${attempt}` })).status);
    }
    expect(statuses.slice(0, LOGIN_LIMITS.perAccount.limit).every((status) => status === 401)).toBe(true);
    const refused = await login({ email: target.email, password: STRONG });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await acceptedPerson(owner, 'staff', 'Other Olu');
    expect((await login({ email: other.email, password: STRONG })).status).toBe(204);
  });
});

describe('a person behind every change', () => {
  it('records the account on a status change and a progress note, and the Logs tab and notes show the name', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await acceptedPerson(owner, 'staff', 'Nadia Notes');
    const [booking] = await db
      .insert(bookings)
      .values({
        firstName: 'Omar',
        lastName: 'Patel',
        email: 'omar@patelprint.co.uk',
        phone: '+44 113 496 0000',
        quantity: 10,
        locationAddress: 'Briggate, Leeds LS1 6HD',
        workType: 'day',
        preferredDate: '2026-12-01',
        totalPricePence: 34_900,
      })
      .returning();
    const status = await ctx.app.request(`/api/bookings/${booking!.id}/status`, adminRequest(person.cookie, { method: 'PATCH', body: { status: 'confirmed' } }));
    expect(status.status).toBe(200);
    const note = await ctx.app.request(`/api/admin/bookings/${booking!.id}/notes`, adminRequest(person.cookie, { body: { notes: 'Called the client' } }));
    expect(note.status).toBeLessThan(300);
    const logs = await (await ctx.app.request(`/api/admin/channel-logs?entityType=booking&search=${booking!.id}`, adminRequest(owner))).json();
    const change = logs.find((row: { action: string }) => row.action === 'status_changed' || row.action.includes('status'));
    expect(change).toMatchObject({ userId: String(person.id), userName: 'Nadia Notes' });
    const list = await (await ctx.app.request('/api/bookings', adminRequest(owner))).json();
    const mine = list.find((row: { id: number }) => row.id === booking!.id);
    expect(mine.progressLogs.at(-1)).toMatchObject({ notes: 'Called the client', author: 'Nadia Notes' });
  });

  it('hides invitation links from people who are not owners when they read the e-mail', async () => {
    const owner = await adminCookie(ctx, 'owner');
    await invite(owner, { name: 'Link Lee', email: 'link@team.example', role: 'staff' });
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'link@team.example'));
    const asStaff = await (await ctx.app.request(`/api/admin/messages/${mail!.id}`, adminRequest(await adminCookie(ctx, 'staff')))).json();
    expect(asStaff.text).toContain('/admin/accept?t=[hidden]');
    const asOwner = await (await ctx.app.request(`/api/admin/messages/${mail!.id}`, adminRequest(owner))).json();
    expect(asOwner.text).toMatch(/\/admin\/accept\?t=[\w-]{32}/);
  });
});

describe('passkeys', () => {
  const post = (path: string, cookie: string | null, body?: unknown) =>
    ctx.app.request(path, cookie ? adminRequest(cookie, { method: 'POST', body }) : jsonRequest(body ?? {}));

  it('registers a named passkey from My account, then signs in with one tap as that person; each challenge works once', async () => {
    const passwordHash = await hashAdminPassword('pia passkey password 1', { N: 2 ** 12, r: 8, p: 1 });
    const person = await staffUser(ctx, 'staff', { name: 'Pia Passkey', passwordHash });
    const cookie = await adminCookie(ctx, person);
    const device = new SoftwareAuthenticator(TEST_ORIGIN);
    const registration = await (await post('/api/admin/passkeys/register/options', cookie)).json();
    expect(registration.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const answer = device.register(registration);
    const saved = await post('/api/admin/passkeys/register', cookie, { name: 'Pia phone', response: answer });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ id: expect.any(Number), name: 'Pia phone', lastUsedAt: null });
    // The same registration again: its challenge is spent.
    expect((await post('/api/admin/passkeys/register', cookie, { name: 'Again', response: answer })).status).toBe(400);

    const options = await (await post('/api/admin/passkeys/login/options', null)).json();
    expect(options.allowCredentials ?? []).toEqual([]);
    const assertion = device.signIn(options);
    const signedIn = await post('/api/admin/passkeys/login', null, assertion);
    expect(signedIn.status).toBe(204);
    expect((await (await session(cookieOf(signedIn)!)).json()).user).toMatchObject({ id: person.id, name: 'Pia Passkey' });
    // A replayed assertion: the challenge was used.
    expect((await post('/api/admin/passkeys/login', null, assertion)).status).toBe(401);

    const me = await (await ctx.app.request('/api/admin/me', adminRequest(cookie))).json();
    expect(me.passkeys).toEqual([expect.objectContaining({ name: 'Pia phone', lastUsedAt: expect.any(String) })]);
    // Removing it asks for the password again (staff-hardening.test.ts replays it without).
    const removal = (body: unknown) => ctx.app.request(`/api/admin/me/passkeys/${me.passkeys[0].id}`, adminRequest(cookie, { method: 'DELETE', body }));
    expect((await removal({})).status).toBe(400);
    expect((await removal({ password: 'pia passkey password 1' })).status).toBe(204);
    const removed = device.signIn(await (await post('/api/admin/passkeys/login/options', null)).json());
    expect((await post('/api/admin/passkeys/login', null, removed)).status).toBe(401);
  });

  it('refuses a passkey of a deactivated person, and an unknown credential, with 401', async () => {
    const owner = await adminCookie(ctx, 'owner');
    const person = await staffUser(ctx, 'viewer', { name: 'Gone Gary' });
    const cookie = await adminCookie(ctx, person);
    const device = new SoftwareAuthenticator(TEST_ORIGIN);
    const answer = device.register(await (await post('/api/admin/passkeys/register/options', cookie)).json());
    expect((await post('/api/admin/passkeys/register', cookie, { name: 'Phone', response: answer })).status).toBe(201);
    await ctx.app.request(`/api/admin/users/${person.id}`, adminRequest(owner, { method: 'PATCH', body: { status: 'deactivated' } }));
    const refused = await post('/api/admin/passkeys/login', null, device.signIn(await (await post('/api/admin/passkeys/login/options', null)).json()));
    expect(refused.status).toBe(401);
    const stranger = new SoftwareAuthenticator(TEST_ORIGIN);
    stranger.register({ challenge: 'x', rp: {}, user: { id: 'nobody' } });
    expect((await post('/api/admin/passkeys/login', null, stranger.signIn(await (await post('/api/admin/passkeys/login/options', null)).json()))).status).toBe(401);
  });

  it('gets through after a flood of wrong passwords at the same account', async () => {
    const person = await staffUser(ctx, 'owner', { name: 'Flooded Fay', email: 'fay@team.example' });
    const cookie = await adminCookie(ctx, person);
    const device = new SoftwareAuthenticator(TEST_ORIGIN);
    const answer = device.register(await (await post('/api/admin/passkeys/register/options', cookie)).json());
    await post('/api/admin/passkeys/register', cookie, { name: 'Phone', response: answer });
    for (let attempt = 0; attempt <= LOGIN_LIMITS.perAccount.limit; attempt += 1) await login({ email: 'fay@team.example', password: `guess ${attempt}` });
    expect((await login({ email: 'fay@team.example', password: 'guess again' })).status).toBe(429);
    const signedIn = await post('/api/admin/passkeys/login', null, device.signIn(await (await post('/api/admin/passkeys/login/options', null)).json()));
    expect(signedIn.status).toBe(204);
  });
});
