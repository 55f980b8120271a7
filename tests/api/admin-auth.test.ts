import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminSessions, channelLogs } from '../../db/schema.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, type TestContext } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { solve428, solvedHeader } from '../fixtures/challenge.ts';
import { LOGIN_LIMITS } from '../../src/server/api/routes/admin-auth.ts';
import { consumeRateLimit } from '../../src/server/services/limits/rate-limit.ts';
import { ADMIN_ABSOLUTE_TIMEOUT_MS, ADMIN_IDLE_TIMEOUT_MS } from '../../src/server/services/staff/admin-sessions.ts';
import { adminTotp, newTotpSecret, TOTP_PERIOD_SECONDS } from '../../src/server/services/staff/admin-totp.ts';

const ctx = await createTestContext();

async function signIn(password = TEST_ADMIN_PASSWORD, headers: Record<string, string> = {}) {
  const response = await ctx.app.request('/api/admin/login', jsonRequest({ password }, { headers }));
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  return { response, cookie };
}

const session = (cookie: string) => ctx.app.request('/api/admin/session', { headers: { Cookie: cookie } });

describe('admin sign-in', () => {
  it('refuses a wrong password with the spec message and sets no cookie', async () => {
    const { response, cookie } = await signIn('not the password', { 'X-Forwarded-For': '10.0.0.1' });
    expect(response.status).toBe(401);
    expect((await response.json()).error).toBe('Invalid Password');
    expect(cookie).toBeUndefined();
  });

  it('answers 401 for the session call without a cookie', async () => {
    const response = await ctx.app.request('/api/admin/session');
    expect(response.status).toBe(401);
  });

  it('answers the dashboard\'s optional session question with 200 {authenticated: false}, not an error', async () => {
    const response = await ctx.app.request('/api/admin/session?optional=1');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ authenticated: false });
    const { cookie } = await signIn();
    const signedIn = await ctx.app.request('/api/admin/session?optional=1', { headers: { Cookie: cookie! } });
    expect(await signedIn.json()).toMatchObject({ authenticated: true, user: { role: 'owner' } });
  });

  it('signs in with an HttpOnly, SameSite=Strict cookie whose token is stored only hashed', async () => {
    const { response, cookie } = await signIn();
    expect(response.status).toBe(204);
    const header = response.headers.get('set-cookie')!;
    expect(header).toMatch(/HttpOnly/i);
    expect(header).toMatch(/SameSite=Strict/i);
    expect((await session(cookie!)).status).toBe(200);
    const token = cookie!.split('=')[1]!;
    const rows = await ctx.deps.db.select().from(adminSessions);
    expect(rows.some((row) => row.tokenHash === token)).toBe(false);
    const logs = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'login'));
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.stringify(logs)).not.toContain(token);
  });

  it('ends the session on the server at logout: the old cookie no longer works', async () => {
    const { cookie } = await signIn();
    const out = await ctx.app.request('/api/admin/logout', { method: 'POST', headers: { Cookie: cookie!, Origin: 'http://localhost:8888' } });
    expect(out.status).toBe(204);
    expect((await session(cookie!)).status).toBe(401);
  });

  it('ends a session after 30 idle minutes, and after 8 hours however busy', async () => {
    const start = new Date('2026-11-22T10:00:00Z');
    ctx.setNow(start);
    const idle = (await signIn()).cookie!;
    const busy = (await signIn()).cookie!;
    // The busy session is used every 20 minutes; the idle one not at all.
    for (let minutes = 20; minutes < ADMIN_ABSOLUTE_TIMEOUT_MS / 60_000; minutes += 20) {
      ctx.setNow(new Date(start.getTime() + minutes * 60_000));
      expect((await session(busy)).status).toBe(200);
    }
    expect((await session(idle)).status).toBe(401);
    ctx.setNow(new Date(start.getTime() + ADMIN_ABSOLUTE_TIMEOUT_MS + 1000));
    expect((await session(busy)).status).toBe(401);
    ctx.setNow(new Date(start.getTime() + ADMIN_IDLE_TIMEOUT_MS / 2));
  });

  it('refuses a sign-in from another site', async () => {
    const response = await ctx.app.request(
      '/api/admin/login',
      jsonRequest({ password: TEST_ADMIN_PASSWORD }, { headers: { Origin: 'https://evil.example' } }),
    );
    expect(response.status).toBe(403);
  });
});

// Each context is a fresh database: made once per file, as creating one takes seconds.
const lockoutCtx = await createTestContext();
const httpsCtx = await createTestContext({ SITE_URL: 'https://cleanpatch.example' });
const totpSecret = newTotpSecret().secret;
const totpCtx = await createTestContext({ ADMIN_TOTP_SECRET: totpSecret });

describe('admin sign-in lockout: only failures count', () => {
  it('never locks out successful sign-ins, and answers 429 with Retry-After after 10 failures', async () => {
    const local = lockoutCtx;
    local.setNow('2026-11-22T10:00:00Z');
    const attempt = (password: string) => local.app.request('/api/admin/login', jsonRequest({ password }));
    // More successes than the failure limit: none of them counts.
    for (let i = 0; i < 11; i += 1) expect((await attempt(TEST_ADMIN_PASSWORD)).status).toBe(204);
    for (let i = 0; i < 10; i += 1) expect((await attempt('wrong')).status).toBe(401);
    const locked = await attempt(TEST_ADMIN_PASSWORD);
    expect(locked.status).toBe(429);
    // The limit slides over the last 15 minutes: the ten failures at 10:00 keep the door shut
    // past the fixed window's end at 10:15, until enough of them have faded (10:16:30).
    expect(locked.headers.get('Retry-After')).toBe(String(16.5 * 60));
    local.setNow('2026-11-22T10:15:00Z');
    expect((await attempt(TEST_ADMIN_PASSWORD)).status).toBe(429);
    local.setNow('2026-11-22T10:16:30Z');
    expect((await attempt(TEST_ADMIN_PASSWORD)).status).toBe(204);
  }, 180_000);
});

describe('admin sign-in under a burst: every attempt is counted before it is checked', () => {
  const raceCtx = lockoutCtx;
  const attempt = (context: TestContext, body: Record<string, unknown>, client: ReturnType<typeof freshClient>) =>
    context.app.request('/api/admin/login', jsonRequest(body), client);

  it('answers 44 parallel wrong passwords from one client with 10 refusals and 34 × 429', async () => {
    raceCtx.setNow('2026-11-23T09:00:00Z');
    const client = freshClient();
    const responses = await Promise.all(Array.from({ length: 44 }, () => attempt(raceCtx, { password: 'wrong' }, client)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(34);
    // The door stays shut for this client, even for the right password.
    expect((await attempt(raceCtx, { password: TEST_ADMIN_PASSWORD }, client)).status).toBe(429);
  }, 180_000);

  it('with the second factor on, a burst tries at most 10 codes', async () => {
    totpCtx.setNow('2026-11-23T09:00:10Z');
    const client = freshClient();
    const responses = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        attempt(totpCtx, { password: TEST_ADMIN_PASSWORD, code: String(100000 + index) }, client),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(statuses.filter((status) => status !== 429).every((status) => status === 401)).toBe(true);
  }, 180_000);

  it('site-wide pressure asks an unknown browser for proof of work and slows it to 3 tries, but never locks the admin out', async () => {
    raceCtx.setNow('2026-11-23T12:00:00Z');
    // The admin signed in from this browser before: it carries the device cookie.
    const before = await attempt(raceCtx, { password: TEST_ADMIN_PASSWORD }, freshClient());
    expect(before.status).toBe(204);
    const device = before.headers.getSetCookie().find((cookie) => cookie.startsWith('cp_device='))!.split(';')[0]!;
    // Strangers from many addresses have just spent far more than the site-wide limit.
    for (let i = 0; i < LOGIN_LIMITS.overall.limit + 20; i += 1) {
      await consumeRateLimit(raceCtx.deps.db, LOGIN_LIMITS.overall, 'all', raceCtx.deps.now());
    }
    const stranger = freshClient();
    const unsolved = await attempt(raceCtx, { password: 'wrong' }, stranger);
    const tries = [];
    for (let i = 0; i < 4; i += 1) {
      const header = await solvedHeader((await (await raceCtx.app.request('/api/challenge?for=sign-in', {}, stranger)).json()));
      tries.push((await raceCtx.app.request('/api/admin/login', jsonRequest({ password: 'wrong' }, { headers: { 'X-Altcha': header } }), stranger)).status);
    }
    expect([unsolved.status, ...tries]).toEqual([428, 401, 401, 401, 429]);
    // The admin, from a new browser at their own address: one challenge, then signed in.
    const admin = freshClient();
    const asked = await attempt(raceCtx, { password: TEST_ADMIN_PASSWORD }, admin);
    const solved = await raceCtx.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }, { headers: { 'X-Altcha': await solve428(asked) } }), admin);
    expect(solved.status).toBe(204);
    // From the browser that signed in before: no challenge, and the ordinary 10 tries.
    const fromDevice = (password: string) =>
      raceCtx.app.request('/api/admin/login', jsonRequest({ password }, { headers: { Cookie: device } }), freshClient());
    const deviceClient = freshClient();
    const wrongFromDevice = [];
    for (let i = 0; i < 5; i += 1) {
      wrongFromDevice.push((await raceCtx.app.request('/api/admin/login', jsonRequest({ password: 'wrong' }, { headers: { Cookie: device } }), deviceClient)).status);
    }
    expect(wrongFromDevice).toEqual([401, 401, 401, 401, 401]);
    expect((await fromDevice(TEST_ADMIN_PASSWORD)).status).toBe(204);
    // A made-up device cookie is no device.
    expect((await raceCtx.app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }, { headers: { Cookie: 'cp_device=guessed' } }), freshClient())).status).toBe(428);
  }, 180_000);
});

describe('admin cookie over HTTPS', () => {
  it('is Secure with the __Host- prefix when SITE_URL is https', async () => {
    const response = await httpsCtx.app.request(
      '/api/admin/login',
      jsonRequest({ password: TEST_ADMIN_PASSWORD }, { headers: { Origin: 'https://cleanpatch.example' } }),
    );
    expect(response.status).toBe(204);
    const header = response.headers.get('set-cookie')!;
    expect(header).toMatch(/^__Host-cp_admin=/);
    expect(header).toMatch(/;\s*Secure/i);
    expect(header).toMatch(/;\s*Path=\//i);
    expect(header).not.toMatch(/Domain=/i);
  });
});

describe('admin sign-in with a second factor (ADMIN_TOTP_SECRET)', () => {
  const totp = adminTotp(totpSecret);
  const STEP_MS = TOTP_PERIOD_SECONDS * 1000;
  // Each test signs in at its own hour, so no test sees a step another one used.
  let hour = 0;
  function clock() {
    hour += 1;
    const at = new Date(Date.UTC(2026, 10, 22, hour, 0, 10));
    totpCtx.setNow(at);
    return (offsetSteps: number) => totp.generate({ timestamp: at.getTime() + offsetSteps * STEP_MS });
  }
  const login = (body: Record<string, unknown>) => totpCtx.app.request('/api/admin/login', jsonRequest(body));

  it('asks for the code as the next step after a right password, and refuses the password alone', async () => {
    clock();
    const response = await login({ password: TEST_ADMIN_PASSWORD });
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body).toMatchObject({ error: 'Enter the 6-digit code from your authenticator app.', codeRequired: true });
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('accepts a valid code once: the same code is refused the second time with "wait for the next code"', async () => {
    const code = clock()(0);
    expect((await login({ password: TEST_ADMIN_PASSWORD, code })).status).toBe(204);
    const again = await login({ password: TEST_ADMIN_PASSWORD, code });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({
      error: 'That code was already used. Wait for the next code in your authenticator app, then enter it.',
      codeRequired: true,
    });
  });

  it.each([
    [-1, 204],
    [1, 204],
    [-2, 401],
    [2, 401],
  ])('a code %i step(s) from the server clock answers %i', async (offset, status) => {
    const codeAt = clock();
    expect((await login({ password: TEST_ADMIN_PASSWORD, code: codeAt(offset) })).status).toBe(status);
  });

  it('answers a wrong password the same with or without a code, and says when a code is wrong', async () => {
    const codeAt = clock();
    const wrongPassword = await login({ password: 'wrong', code: codeAt(0) });
    const wrongPasswordNoCode = await login({ password: 'wrong' });
    const bodies = await Promise.all(
      [wrongPassword, wrongPasswordNoCode].map(async (response) => {
        const { requestId: _requestId, ...body } = await response.json();
        return { status: response.status, body };
      }),
    );
    expect(bodies[0]).toEqual({ status: 401, body: { error: 'Invalid Password' } });
    expect(bodies[1]).toEqual(bodies[0]);
    const wrongCode = await login({ password: TEST_ADMIN_PASSWORD, code: codeAt(5) });
    expect(await wrongCode.json()).toMatchObject({
      error: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
      codeRequired: true,
    });
  });

  it('still says Invalid Password for a wrong password with a right code, and does not burn the code', async () => {
    const code = clock()(0);
    const wrong = await login({ password: 'wrong', code });
    expect((await wrong.json()).error).toBe('Invalid Password');
    expect((await login({ password: TEST_ADMIN_PASSWORD, code })).status).toBe(204);
  });

  it('gives the code step back: a person who signs in with a code many times never runs out of tries', async () => {
    // All within one 15-minute window: a new 30-second step each round, so each code is unused.
    const start = Date.UTC(2026, 10, 25, 9, 0, 10);
    for (let round = 0; round < LOGIN_LIMITS.perClient.limit + 2; round += 1) {
      const at = start + round * STEP_MS;
      totpCtx.setNow(new Date(at));
      const code = totp.generate({ timestamp: at });
      expect([round, (await login({ password: TEST_ADMIN_PASSWORD })).status]).toEqual([round, 401]);
      expect([round, (await login({ password: TEST_ADMIN_PASSWORD, code })).status]).toEqual([round, 204]);
    }
  });
});
