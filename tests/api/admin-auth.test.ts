import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminSessions, channelLogs } from '../../db/schema.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD } from '../setup/test-app.ts';
import { ADMIN_ABSOLUTE_TIMEOUT_MS, ADMIN_IDLE_TIMEOUT_MS } from '../../src/server/services/admin-sessions.ts';

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
