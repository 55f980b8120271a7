import { beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, channelLogs, emailOutbox, jobRuns, workers } from '../../db/schema.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { insertRoutableBooking, scheduledFor } from '../fixtures/routable-bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const cookie = await adminCookie(ctx);

const SEND_ERROR_EMAIL = 'Valid email is required';

beforeEach(async () => {
  ctx.setNow('2026-11-22T10:00:00Z');
  for (const table of [bookings, workers, jobRuns, emailOutbox, channelLogs]) await db.delete(table);
});

const get = (path: string) => ctx.app.request(path, adminRequest(cookie));
const send = (body: unknown) => ctx.app.request('/api/worker-notifications/send', adminRequest(cookie, { method: 'POST', body }));
const addWorker = (body: unknown) => ctx.app.request('/api/admin/workers', adminRequest(cookie, { method: 'POST', body }));

interface Preview {
  date: string;
  bookingsCount: number;
  routesCount: number;
  routes: { routeNumber: number; stops: number; distanceKm: number | null; mapsUrl: string | null; workerId?: number | null; bookings: { bookingId: number; customerName: string; postcode: string | null; addresses: string[] }[] }[];
}

async function preview(): Promise<Preview> {
  // A session from the moved clock's "now": the suite's one expired when the clock jumped ahead.
  const response = await ctx.app.request('/api/worker-notifications/preview', adminRequest(await adminCookie(ctx)));
  expect(response.status).toBe(200);
  return (await response.json()) as Preview;
}

describe('without an admin session', () => {
  it.each([
    ['GET', '/api/worker-notifications/preview'],
    ['POST', '/api/worker-notifications/send'],
    ['GET', '/api/admin/workers'],
    ['POST', '/api/admin/workers'],
    ['PATCH', '/api/admin/workers/1'],
    ['DELETE', '/api/admin/workers/1'],
  ])('%s %s answers 401', async (method, path) => {
    const response = await ctx.app.request(path, {
      method,
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: method === 'GET' || method === 'DELETE' ? undefined : '{}',
    });
    expect(response.status).toBe(401);
  });
});

describe('GET /api/worker-notifications/preview', () => {
  it('lists tomorrow in London: installation date when set, else preferred date; up to 5 addresses', async () => {
    ctx.setNow('2027-07-14T15:00:00Z');
    const pins = [1, 2, 3, 4, 5, 6].map((n) => ({ address: `Stop ${n}, Manchester M1 1RG`, lat: 53.48 + n / 1000, lng: -2.23 }));
    const byPreferred = await insertRoutableBooking(db, { firstName: 'Preferred', preferredDate: '2027-07-15', pins });
    // 23:30 UTC on the 14th is 00:30 on the 15th in London (BST).
    const byInstallation = await insertRoutableBooking(db, { firstName: 'Installed', preferredDate: '2027-07-20', installationDate: new Date('2027-07-14T23:30:00Z') });
    await insertRoutableBooking(db, { preferredDate: '2027-07-15', installationDate: new Date('2027-07-16T09:00:00Z') });
    await insertRoutableBooking(db, { preferredDate: '2027-07-15', status: 'cancelled' });
    await insertRoutableBooking(db, { preferredDate: '2027-07-15', status: 'completed' });
    await insertRoutableBooking(db, { preferredDate: '2027-07-15', archived: true });
    await insertRoutableBooking(db, { preferredDate: '2027-07-16' });

    const body = await preview();
    expect(body).toMatchObject({ date: '2027-07-15', bookingsCount: 2, routesCount: 1 });
    const [route] = body.routes;
    expect(route).toMatchObject({ routeNumber: 1, stops: 2, mapsUrl: expect.stringContaining('google.com/maps/dir') });
    expect(route!.bookings.map((booking) => booking.bookingId).sort()).toEqual([byPreferred, byInstallation].sort());
    const preferred = route!.bookings.find((booking) => booking.bookingId === byPreferred)!;
    expect(preferred).toEqual({
      bookingId: byPreferred,
      customerName: 'Preferred Khan',
      postcode: 'M1',
      addresses: pins.slice(0, 5).map((pin) => pin.address),
      workType: 'night',
      workerId: null,
      waiting: false,
      // At step 1: expected that day, but not yet scheduled by staff, so no crew is sent to it.
      scheduled: false,
    });
    expect(route!.workerId).toBeNull();
  });

  it.each([
    ['just before midnight in winter (GMT)', '2026-11-22T23:59:00Z', '2026-11-23'],
    ['just after midnight in London in summer, still the day before in UTC', '2027-07-14T23:30:00Z', '2027-07-16'],
    ['the night the clocks go back', '2027-10-31T00:30:00Z', '2027-11-01'],
    ['the night the clocks go forward', '2027-03-28T00:30:00Z', '2027-03-29'],
  ])('picks tomorrow in London %s', async (_, now, tomorrow) => {
    ctx.setNow(now);
    await insertRoutableBooking(db, { preferredDate: tomorrow });
    const body = await preview();
    expect(body).toMatchObject({ date: tomorrow, bookingsCount: 1, routesCount: 1 });
  });

  it('is empty when nothing is booked for tomorrow', async () => {
    expect(await preview()).toEqual({ date: '2026-11-23', bookingsCount: 0, routesCount: 0, routes: [] });
  });
});

describe('POST /api/worker-notifications/send', () => {
  it.each([
    [{ workerEmail: '' }],
    [{ workerEmail: 'not-an-email' }],
    [{ workerName: 'Sam' }],
    [{ workerEmail: 42 }],
  ])('refuses %j with the spec message', async (body) => {
    await insertRoutableBooking(db, { preferredDate: '2026-11-23' });
    const response = await send(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: SEND_ERROR_EMAIL, fields: { workerEmail: SEND_ERROR_EMAIL } });
    expect(await db.select().from(emailOutbox)).toHaveLength(0);
  });

  it('needs at least one route for tomorrow', async () => {
    await insertRoutableBooking(db, { preferredDate: '2026-11-24' });
    const response = await send({ workerEmail: 'sam@crew.co.uk' });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'There are no routes for tomorrow.' });
  });

  it('e-mails one worker the routes, logs it, and a second press sends again', async () => {
    const id = await insertRoutableBooking(db, { firstName: '<Bea>', ...scheduledFor('2026-11-23') });
    const response = await send({ workerEmail: ' Sam@Crew.co.uk ', workerName: 'Sam' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ success: 1 });

    const [mail] = await db.select().from(emailOutbox);
    expect(mail).toMatchObject({ to: 'sam@crew.co.uk', kind: 'worker-routes', status: 'logged' });
    expect(mail!.subject).toBe('Your routes for 23 November 2026: 1 route, 1 stop');
    expect(mail!.text).toContain('Hello Sam,');
    expect(mail!.text).toContain(`1. <Bea> Khan (M1), booking #${id}`);
    expect(mail!.text).toContain('Piccadilly Gardens, Manchester M1 1RG');
    expect(mail!.text).toMatch(/Open route in Maps: https:\/\/www\.google\.com\/maps\/dir\//);
    expect(mail!.html).toContain('&lt;Bea&gt; Khan');
    expect(mail!.html).not.toContain('<Bea>');

    const logs = await db.select().from(channelLogs).where(eq(channelLogs.channel, 'notification'));
    expect(logs).toEqual([expect.objectContaining({ action: 'worker_routes_sent', entityId: 'sam@crew.co.uk' })]);

    expect(await (await send({ workerEmail: 'sam@crew.co.uk' })).json()).toEqual({ success: 1 });
    expect(await db.select().from(emailOutbox)).toHaveLength(2);
  });

  it('with an empty body, e-mails every active worker', async () => {
    await insertRoutableBooking(db, scheduledFor('2026-11-23'));
    await db.insert(workers).values([
      { email: 'sam@crew.co.uk', name: 'Sam' },
      { email: 'lee@crew.co.uk', name: null },
      { email: 'away@crew.co.uk', name: 'Away', active: false },
    ]);
    const response = await send({});
    expect(await response.json()).toEqual({ success: 2 });
    const sent = await db.select({ to: emailOutbox.to }).from(emailOutbox);
    expect(sent.map((row) => row.to).sort()).toEqual(['lee@crew.co.uk', 'sam@crew.co.uk']);
  });

  it('with an empty body and no active worker answers 409', async () => {
    await insertRoutableBooking(db, { preferredDate: '2026-11-23' });
    const response = await send({});
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'There are no active workers to notify.' });
  });
});

describe('/api/admin/workers', () => {
  it('adds, lists, deactivates and removes a worker, logging each change on the admin channel', async () => {
    const created = await addWorker({ email: 'Sam@Crew.co.uk', name: ' Sam ' });
    expect(created.status).toBe(201);
    const worker = (await created.json()) as { id: number };
    expect(worker).toMatchObject({ email: 'sam@crew.co.uk', name: 'Sam', active: true });

    expect(await (await get('/api/admin/workers')).json()).toEqual([expect.objectContaining({ id: worker.id, email: 'sam@crew.co.uk' })]);

    const patched = await ctx.app.request(`/api/admin/workers/${worker.id}`, adminRequest(cookie, { method: 'PATCH', body: { active: false } }));
    expect(await patched.json()).toMatchObject({ id: worker.id, active: false });

    const removed = await ctx.app.request(`/api/admin/workers/${worker.id}`, adminRequest(cookie, { method: 'DELETE' }));
    expect(removed.status).toBe(204);
    expect(await (await get('/api/admin/workers')).json()).toEqual([]);
    const again = await ctx.app.request(`/api/admin/workers/${worker.id}`, adminRequest(cookie, { method: 'DELETE' }));
    expect(again.status).toBe(404);

    const logs = await db.select({ action: channelLogs.action }).from(channelLogs).where(eq(channelLogs.channel, 'admin'));
    expect(logs.map((log) => log.action)).toEqual(['worker_added', 'worker_updated', 'worker_removed']);
  });

  it('refuses a bad e-mail and a second worker with the same e-mail', async () => {
    const bad = await addWorker({ email: 'nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: SEND_ERROR_EMAIL });
    expect((await addWorker({ email: 'sam@crew.co.uk' })).status).toBe(201);
    const duplicate = await addWorker({ email: 'SAM@crew.co.uk' });
    expect(duplicate.status).toBe(409);
  });

  it.each(['abc', '0', '99999999999'])('PATCH /%s names no worker', async (id) => {
    const response = await ctx.app.request(`/api/admin/workers/${id}`, adminRequest(cookie, { method: 'PATCH', body: { active: true } }));
    expect(response.status).toBe(404);
  });
});

describe('the 6 PM job', () => {
  async function bookTomorrowAndAddWorker(now: string) {
    ctx.setNow(now);
    const { londonTomorrow } = await import('../../src/domain/schedule.ts');
    await insertRoutableBooking(db, scheduledFor(londonTomorrow(new Date(now))));
    await db.insert(workers).values({ email: 'sam@crew.co.uk', name: 'Sam' });
  }
  const outbox = () => db.select().from(emailOutbox);
  const notificationLogs = () => db.select().from(channelLogs).where(eq(channelLogs.channel, 'notification'));

  it.each([
    ['17:00 UTC in July (18:00 BST)', 1, '2027-07-14T17:00:00Z'],
    ['18:00 UTC in July (19:00 BST)', 0, '2027-07-14T18:00:00Z'],
    ['18:00 UTC in December (18:00 GMT)', 1, '2026-12-14T18:00:00Z'],
    ['17:00 UTC in December (17:00 GMT)', 0, '2026-12-14T17:00:00Z'],
  ])('at %s sends %i e-mail', async (_, count, now) => {
    await bookTomorrowAndAddWorker(now);
    const result = await runWorkerNotificationJob(ctx.deps, new Date(now));
    expect(result.outcome).toBe(count ? 'sent' : 'not-the-hour');
    expect(await outbox()).toHaveLength(count);
    if (count) {
      const [run] = await db.select().from(jobRuns).where(eq(jobRuns.job, 'worker-notifications'));
      expect(run).toMatchObject({ runKey: now.slice(0, 10), result: { outcome: 'sent', sent: 1 } });
    }
  });

  it('run twice sends once, and says so in the log', async () => {
    const now = new Date('2027-07-14T17:00:00Z');
    await bookTomorrowAndAddWorker(now.toISOString());
    expect((await runWorkerNotificationJob(ctx.deps, now)).outcome).toBe('sent');
    expect((await runWorkerNotificationJob(ctx.deps, new Date('2027-07-14T17:30:00Z'))).outcome).toBe('already-sent');
    expect(await outbox()).toHaveLength(1);
    expect((await notificationLogs()).map((log) => log.action).sort()).toEqual(['worker_routes_sent', 'worker_routes_skipped']);
  });

  it('run twice at once sends once', async () => {
    const now = new Date('2027-07-14T17:00:00Z');
    await bookTomorrowAndAddWorker(now.toISOString());
    const results = await Promise.all([runWorkerNotificationJob(ctx.deps, now), runWorkerNotificationJob(ctx.deps, now)]);
    expect(results.map((result) => result.outcome).sort()).toEqual(['already-sent', 'sent']);
    expect(await outbox()).toHaveLength(1);
  });

  it('without active workers writes a warning and sends nothing', async () => {
    const now = new Date('2026-12-14T18:00:00Z');
    ctx.setNow(now);
    await insertRoutableBooking(db, scheduledFor('2026-12-15'));
    await db.insert(workers).values({ email: 'away@crew.co.uk', active: false });
    expect((await runWorkerNotificationJob(ctx.deps, now)).outcome).toBe('no-workers');
    expect(await outbox()).toHaveLength(0);
    expect(await notificationLogs()).toEqual([expect.objectContaining({ action: 'worker_routes_no_workers', severity: 'warning' })]);
  });

  it('with no installations tomorrow logs that and sends nothing', async () => {
    const now = new Date('2026-12-14T18:00:00Z');
    await db.insert(workers).values({ email: 'sam@crew.co.uk' });
    expect((await runWorkerNotificationJob(ctx.deps, now)).outcome).toBe('no-routes');
    expect(await outbox()).toHaveLength(0);
    expect(await notificationLogs()).toEqual([expect.objectContaining({ action: 'worker_routes_none', severity: 'info' })]);
  });
});
