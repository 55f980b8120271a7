import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { adminSessions, pageViews } from '../../db/schema.ts';
import { hashSessionToken } from '../../src/server/services/staff/admin-sessions.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// Staff are not visitors: the page-view beacon records neither the staff pages nor anything a
// signed-in staff member views, and the server decides it (the browser still sends every view).

const ctx = await createTestContext();
const db = ctx.deps.db;
const NOW = new Date('2026-11-22T10:00:00Z');

const pageView = (path: string, cookie?: string) =>
  ctx.app.request('/api/analytics/pageview', jsonRequest({ path }, cookie ? { headers: { Cookie: cookie } } : {}));

const recordedPaths = async () => (await db.select({ path: pageViews.path }).from(pageViews).orderBy(pageViews.id)).map((row) => row.path);

beforeEach(async () => {
  ctx.setNow(NOW);
  await db.delete(pageViews);
});

describe('POST /api/analytics/pageview leaves staff out', () => {
  it.each(['/admin', '/admin/', '/admin?tab=analytics', '/crew', '/crew/', '/crew/today', '/CREW'])('does not record %s', async (path) => {
    const response = await pageView(path);
    expect(response.status).toBe(204);
    expect(await recordedPaths()).toEqual([]);
  });

  it('records public pages, including ones that only start like a staff page', async () => {
    for (const path of ['/', '/booking', '/administration-fees', '/crews', '/gallery/admin']) expect((await pageView(path)).status).toBe(204);
    expect(await recordedPaths()).toEqual(['/', '/booking', '/administration-fees', '/crews', '/gallery/admin']);
  });

  it('does not record a public page viewed with a live admin session, and leaves the session’s idle deadline alone', async () => {
    const cookie = await adminCookie(ctx);
    const token = cookie.split('=')[1]!;
    ctx.setNow(new Date(NOW.getTime() + 10 * 60_000));
    expect((await pageView('/pricing', cookie)).status).toBe(204);
    expect(await recordedPaths()).toEqual([]);
    const [session] = await db.select().from(adminSessions).where(eq(adminSessions.tokenHash, hashSessionToken(token)));
    expect(session!.lastSeenAt).toEqual(NOW);
  });

  it('records a visitor whose cookie names no live session: ended, expired or made up', async () => {
    const ended = await adminCookie(ctx);
    await db.update(adminSessions).set({ revokedAt: NOW }).where(eq(adminSessions.tokenHash, hashSessionToken(ended.split('=')[1]!)));
    const idle = await adminCookie(ctx);
    ctx.setNow(new Date(NOW.getTime() + 31 * 60_000)); // past the 30-minute idle timeout
    const madeUp = `${ended.split('=')[0]}=${'x'.repeat(43)}`;
    for (const cookie of [ended, idle, madeUp]) expect((await pageView('/pricing', cookie)).status).toBe(204);
    expect(await recordedPaths()).toEqual(['/pricing', '/pricing', '/pricing']);
  });
});
