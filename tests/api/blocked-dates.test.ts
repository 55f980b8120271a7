import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { scheduleDays, bookings, channelLogs } from '../../db/schema.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { NOT_SIGNED_IN } from '../../src/server/api/middleware/admin-auth.ts';
import { BLOCK_DATE_MESSAGES } from '../../src/server/services/bookings/blocked-dates.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
// 23:30 in London on 1 July 2027 is still the 1st there (BST), though not in every zone.
ctx.setNow('2027-07-01T22:30:00Z');
// Signed in at that moment: a session is only good for hours.
const cookie = await adminCookie(ctx);

const block = (body: unknown) => ctx.app.request('/api/admin/blocked-dates', adminRequest(cookie, { method: 'POST', body }));
const unblock = (date: string) => ctx.app.request(`/api/admin/blocked-dates/${date}`, adminRequest(cookie, { method: 'DELETE' }));
const list = async () => (await ctx.app.request('/api/admin/blocked-dates', adminRequest(cookie))).json();

async function unavailableDates(): Promise<string[]> {
  return (await (await ctx.app.request('/api/bookings/unavailable-dates')).json()).unavailableDates;
}

async function book(date: string, quantity = 5) {
  const response = await ctx.app.request(
    '/api/bookings',
    jsonRequest(bookingPayload({ preferredDate: date, quantity }), { headers: { 'Idempotency-Key': crypto.randomUUID() } }),
    freshClient(),
  );
  return response;
}

describe('blocked dates without a session', () => {
  it.each([
    ['GET', '/api/admin/blocked-dates'],
    ['POST', '/api/admin/blocked-dates'],
    ['DELETE', '/api/admin/blocked-dates/2027-07-20'],
  ])('%s %s answers 401', async (method, path) => {
    const init = method === 'POST' ? jsonRequest({ date: '2027-07-20' }) : { method, headers: { Origin: TEST_ORIGIN } };
    const response = await ctx.app.request(path, init);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: NOT_SIGNED_IN });
    expect(await db.select().from(scheduleDays)).toEqual([]);
  });
});

describe('blocking a date', () => {
  it('closes the date to new bookings but keeps the booking already on it, and says so', async () => {
    const existing = await book('2027-07-20');
    expect(existing.status).toBe(201);
    const { id } = (await existing.json()) as { id: number };

    const response = await block({ date: '2027-07-20', reason: 'Team at a festival' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      date: '2027-07-20',
      reason: 'Team at a festival',
      bookings: [{ id, name: 'Amira Khan', quantity: 5 }],
    });

    expect(await unavailableDates()).toContain('2027-07-20');
    const [kept] = await db.select().from(bookings).where(eq(bookings.id, id));
    expect(kept).toMatchObject({ status: 'pending', archived: false });
    expect((await book('2027-07-20')).status).toBe(409);

    expect(await list()).toEqual([
      expect.objectContaining({ date: '2027-07-20', reason: 'Team at a festival', bookings: [{ id, name: 'Amira Khan', quantity: 5 }] }),
    ]);
    const [log] = await db.select().from(channelLogs).where(and(eq(channelLogs.channel, 'admin'), eq(channelLogs.action, 'date_blocked')));
    expect(log).toMatchObject({ entityType: 'blocked_date', entityId: '2027-07-20', metadata: { bookingIds: [id] } });
    expect(log!.userId).toMatch(/^\d+$/);
  });

  it('is idempotent: blocking again keeps one row and updates the reason', async () => {
    await block({ date: '2027-07-22' });
    const again = await block({ date: '2027-07-22', reason: 'Rain forecast' });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ date: '2027-07-22', reason: 'Rain forecast', bookings: [] });
    expect(await db.select().from(scheduleDays).where(eq(scheduleDays.date, '2027-07-22'))).toHaveLength(1);
  });

  it.each([
    [{ date: '2027-06-30' }, BLOCK_DATE_MESSAGES.pastDate],
    [{ date: '2027-02-30' }, BLOCK_DATE_MESSAGES.invalidDate],
    [{ date: '20/07/2027' }, BLOCK_DATE_MESSAGES.invalidDate],
    [{}, BLOCK_DATE_MESSAGES.invalidDate],
  ])('refuses %j with 400', async (body, message) => {
    const response = await block(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: message });
  });

  it("accepts today's date in London", async () => {
    expect((await block({ date: '2027-07-01' })).status).toBe(200);
  });
});

describe('unblocking a date', () => {
  it('opens the date again, logs it, and a second unblock is harmless', async () => {
    await block({ date: '2027-07-25' });
    expect(await unavailableDates()).toContain('2027-07-25');
    const response = await unblock('2027-07-25');
    expect(response.status).toBe(204);
    expect(await unavailableDates()).not.toContain('2027-07-25');
    expect((await list()).map((row: { date: string }) => row.date)).not.toContain('2027-07-25');
    expect((await book('2027-07-25')).status).toBe(201);
    expect((await unblock('2027-07-25')).status).toBe(204);
    const logs = await db.select().from(channelLogs).where(and(eq(channelLogs.action, 'date_unblocked'), eq(channelLogs.entityId, '2027-07-25')));
    expect(logs).toHaveLength(1);
    expect((await unblock('not-a-date')).status).toBe(400);
  });
});
