import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq, isNull } from 'drizzle-orm';
import { bookings, channelLogs, crewLinks, crewStops, emailOutbox, jobRuns, progressLogs, workers } from '../../db/schema.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';

// A crew's phone on a real day: taps that waited for signal keep the time they were tapped, and
// the 6 PM job sends again the link staff sent the same afternoon instead of ending it.

const ctx = await createTestContext();
const db = ctx.deps.db;

const DAY = '2026-11-23';
const SCHEDULED = { preferredDate: DAY, currentStep: 3, installationDate: new Date('2026-11-23T10:00:00Z'), paymentStatus: 'paid' } as const;
const PINS = [{ address: 'Market Street, Manchester M1 1PT', lat: 53.4823, lng: -2.2389 }];

let sam: number;
let market: number;

const crew = (token: string, path: string, body?: unknown) =>
  ctx.app.request(`/api/crew${path}`, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** Every crew link e-mailed to Sam, newest first, as the worker would tap them. */
async function tokensFromEmails(): Promise<string[]> {
  const mails = await db.select().from(emailOutbox).where(and(eq(emailOutbox.to, 'sam@crew.co.uk'), eq(emailOutbox.kind, 'worker-routes')));
  return mails.reverse().map((mail) => /\/crew\?t=([\w-]+)/.exec(mail.text)![1]!);
}

const dayStatus = async (token: string) => {
  const response = await ctx.app.request('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
};

beforeEach(async () => {
  for (const table of [crewStops, crewLinks, progressLogs, bookings, workers, jobRuns, emailOutbox, channelLogs]) await db.delete(table);
  ctx.setNow('2026-11-22T18:00:00Z');
  [{ id: sam }] = (await db.insert(workers).values({ email: 'sam@crew.co.uk', name: 'Sam Carter' }).returning({ id: workers.id })) as [{ id: number }];
  market = await insertRoutableBooking(db, { firstName: 'Priya', ...SCHEDULED, pins: PINS });
});

describe('a tap that waited for signal', () => {
  beforeEach(async () => {
    await runWorkerNotificationJob(ctx.deps, new Date('2026-11-22T18:00:00Z'));
  });

  it('records On my way and Done at the phone time, with the time the server received them', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T17:19:00Z');
    const way = await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T17:07:22.000Z' });
    expect(way.status).toBe(200);
    const day = (await way.json()) as { stops: { statusAt: string; statusReceivedAt: string }[] };
    expect(day.stops[0]).toMatchObject({ statusAt: '2026-11-23T17:07:22.000Z', statusReceivedAt: '2026-11-23T17:19:00.000Z' });

    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'));
    expect(mail!.text).toContain('at 17:07');
    const tracking = /track-project\?t=([\w-]+)/.exec(mail!.text)![1]!;
    const tracked = await ctx.app.request('/api/track-project', jsonRequest({ token: tracking }));
    expect(await tracked.json()).toMatchObject({ crew: { status: 'on_the_way', at: '2026-11-23T17:07:22.000Z' } });

    ctx.setNow('2026-11-23T17:40:00Z');
    expect((await crew(token!, `/stops/${market}/done`, { tappedAt: '2026-11-23T17:31:05.000Z' })).status).toBe(200);
    const [stop] = await db.select().from(crewStops);
    expect(stop).toMatchObject({ doneAt: new Date('2026-11-23T17:31:05Z'), doneReceivedAt: new Date('2026-11-23T17:40:00Z') });
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking!.statusNotes).toBe('Installed by Sam Carter (crew), marked done at 17:31 (received 17:40)');

    // Staff's board shows both times.
    const board = await ctx.app.request(`/api/admin/crew/day?date=${DAY}`, adminRequest(await adminCookie(ctx), { method: 'GET' }));
    expect(JSON.stringify(await board.json())).toContain('"at":"2026-11-23T17:31:05.000Z","receivedAt":"2026-11-23T17:40:00.000Z"');
  });

  it('takes a tap without a time as made when it arrives', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T09:00:00Z');
    const day = (await (await crew(token!, `/stops/${market}/on-the-way`)).json()) as { stops: { statusAt: string; statusReceivedAt: string }[] };
    expect(day.stops[0]).toMatchObject({ statusAt: '2026-11-23T09:00:00.000Z', statusReceivedAt: '2026-11-23T09:00:00.000Z' });
  });

  it.each([
    ['a time more than 10 minutes ahead of the server', '2026-11-23T09:10:01.000Z'],
    ["a time before the link's day (less the drift)", '2026-11-22T23:49:59.000Z'],
    ['no date', 'yesterday'],
  ])('refuses %s with 400 and records nothing', async (_case, tappedAt) => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T09:00:00Z');
    const response = await crew(token!, `/stops/${market}/on-the-way`, { tappedAt });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fields: { tappedAt: "tappedAt must be an ISO 8601 date and time on the link's day, by the phone's clock" } });
    expect(await db.select().from(crewStops)).toHaveLength(0);
  });

  it('accepts a phone clock up to 10 minutes ahead', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T09:00:00Z');
    expect((await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T09:10:00.000Z' })).status).toBe(200);
  });
});

describe('an On my way that can no longer be true', () => {
  beforeEach(async () => {
    await runWorkerNotificationJob(ctx.deps, new Date('2026-11-22T18:00:00Z'));
  });
  const onTheWayMails = () => db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'));
  type Day = { stops: { status: string; onTheWay: { at: string; customerTold: boolean } | null }[] };

  it('tapped at 09:05 with no signal and sent at noon: recorded, the customer is not e-mailed, the card says so', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T12:00:00Z');
    const way = await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T09:05:00.000Z' });
    expect(way.status).toBe(200);
    expect(((await way.json()) as Day).stops[0]).toMatchObject({ status: 'on_the_way', onTheWay: { at: '2026-11-23T09:05:00.000Z', customerTold: false } });
    expect(await onTheWayMails()).toHaveLength(0);
    const [log] = await db.select().from(channelLogs).where(eq(channelLogs.action, 'crew_on_the_way'));
    expect(log!.details).toBe(`Sam Carter was on the way to booking #${market}; the customer was not e-mailed (tapped 09:05, received 12:00)`);
    // Sent again (a retried queue), it still e-mails nobody.
    expect((await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T09:05:00.000Z' })).status).toBe(200);
    expect(await onTheWayMails()).toHaveLength(0);
  });

  it('overtaken by Done or by work that arrived first: nobody is e-mailed', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T09:20:00Z');
    // The photo reached the server (work started 09:20) before a tap made at 09:10 did.
    await db.insert(crewStops).values({ bookingId: market, day: DAY, status: 'started', workerId: sam, workerName: 'Sam Carter', startedAt: new Date('2026-11-23T09:20:00Z') });
    ctx.setNow('2026-11-23T09:21:00Z');
    const way = await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T09:10:00.000Z' });
    expect(((await way.json()) as Day).stops[0]).toMatchObject({ status: 'started', onTheWay: { customerTold: false } });
    expect(await onTheWayMails()).toHaveLength(0);
  });

  it('tapped after a photo, while fresh: the customer is told, and the card says so', async () => {
    const [token] = await tokensFromEmails();
    ctx.setNow('2026-11-23T09:20:00Z');
    await db.insert(crewStops).values({ bookingId: market, day: DAY, status: 'started', workerId: sam, workerName: 'Sam Carter', startedAt: new Date('2026-11-23T09:20:00Z') });
    ctx.setNow('2026-11-23T09:31:00Z');
    const way = await crew(token!, `/stops/${market}/on-the-way`, { tappedAt: '2026-11-23T09:30:00.000Z' });
    expect(((await way.json()) as Day).stops[0]).toMatchObject({ status: 'started', onTheWay: { at: '2026-11-23T09:30:00.000Z', customerTold: true } });
    expect(await onTheWayMails()).toHaveLength(1);
  });
});

describe('the 6 PM job after staff sent the link that afternoon', () => {
  it('sends the same link again instead of revoking it', async () => {
    const cookie = await adminCookie(ctx);
    ctx.setNow('2026-11-22T17:00:00Z');
    const send = await ctx.app.request('/api/worker-notifications/send', adminRequest(cookie, { method: 'POST', body: {} }));
    expect(send.status).toBe(200);
    const [sentByStaff] = await tokensFromEmails();

    ctx.setNow('2026-11-22T18:00:00Z');
    expect(await runWorkerNotificationJob(ctx.deps, new Date('2026-11-22T18:00:00Z'))).toMatchObject({ outcome: 'sent', sent: 1 });
    const [fromJob] = await tokensFromEmails();
    expect(fromJob).toBe(sentByStaff);
    expect(await db.select().from(crewLinks).where(isNull(crewLinks.revokedAt))).toHaveLength(1);
    ctx.setNow('2026-11-23T08:00:00Z');
    expect(await dayStatus(sentByStaff!)).toBe(200);
  });

  it('replaces a link sent on an earlier day for the same day', async () => {
    // Staff sent Monday's link on Saturday; the job on Sunday evening sends a new one and ends it.
    const cookie = await adminCookie(ctx);
    ctx.setNow('2026-11-21T12:00:00Z');
    const send = await ctx.app.request('/api/admin/crew/workers/' + sam + '/resend', adminRequest(cookie, { body: { date: DAY } }));
    expect(send.status).toBe(200);
    const [early] = await tokensFromEmails();
    ctx.setNow('2026-11-22T18:00:00Z');
    await runWorkerNotificationJob(ctx.deps, new Date('2026-11-22T18:00:00Z'));
    const [fromJob] = await tokensFromEmails();
    expect(fromJob).not.toBe(early);
    ctx.setNow('2026-11-23T08:00:00Z');
    expect(await dayStatus(early!)).toBe(410);
    expect(await dayStatus(fromJob!)).toBe(200);
  });
});
