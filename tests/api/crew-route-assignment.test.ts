import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, channelLogs, crewAssignments, crewLinks, crewStops, emailOutbox, jobRuns, photos, workers } from '../../db/schema.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { insertRoutableBooking, scheduledFor } from '../fixtures/routable-bookings.ts';

// Staff give a route to a worker; bookings that join that route afterwards wait for staff to give
// them to someone, everywhere: the Workers board, the Locations tab's day, the 6 PM e-mail and the
// crew's own page. The e-mail lists only stops staff scheduled (step 3 on that day).

const ctx = await createTestContext();
const PNG: Uint8Array<ArrayBuffer> = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));
const db = ctx.deps.db;

const DAY = '2026-11-23';
const EVENING_BEFORE = '2026-11-22T18:00:00Z';
const MORNING = '2026-11-23T09:00:00Z';
const pin = (street: string, n: number) => [{ address: `${street}, Manchester M1 1PT`, lat: 53.4823 + n / 1000, lng: -2.2389 }];

interface BoardStop {
  bookingId: number;
  workerId: number | null;
  waiting: boolean;
  scheduled: boolean;
}
interface Board {
  routes: { routeNumber: number; workerId: number | null; given: string; stops: BoardStop[] }[];
}
interface DayRoute {
  routeNumber: number;
  workerId: number | null;
  bookings: { bookingId: number; workerId: number | null; waiting: boolean }[];
}

let cookie: string;
let sam: number;
let lee: number;

const board = async () => {
  const response = await ctx.app.request(`/api/admin/crew/day?date=${DAY}`, adminRequest(cookie));
  expect(response.status).toBe(200);
  return (await response.json()) as Board;
};
const locationsDay = async () => {
  const response = await ctx.app.request(`/api/locations/grouping?date=${DAY}`, adminRequest(cookie));
  expect(response.status).toBe(200);
  return (await response.json()) as DayRoute[];
};
const assign = (bookingIds: number[], workerId: number | null) =>
  ctx.app.request('/api/admin/crew/assignments', adminRequest(cookie, { method: 'PUT', body: { date: DAY, bookingIds, workerId } }));

async function mailTo(to: string) {
  const [mail] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.to, to), eq(emailOutbox.kind, 'worker-routes')));
  return mail;
}

async function crewStopIds(to: string): Promise<number[]> {
  const mail = await mailTo(to);
  const token = /\/crew\?t=([\w-]+)/.exec(mail!.text)![1]!;
  ctx.setNow(MORNING);
  const response = await ctx.app.request('/api/crew/day', { headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  const day = (await response.json()) as { stops: { bookingId: number }[] };
  return day.stops.map((stop) => stop.bookingId);
}

beforeEach(async () => {
  for (const table of [photos, crewStops, crewAssignments, crewLinks, bookings, workers, jobRuns, emailOutbox, channelLogs]) await db.delete(table);
  ctx.setNow(EVENING_BEFORE);
  cookie = await adminCookie(ctx);
  const added = await db
    .insert(workers)
    .values([
      { email: 'sam@crew.co.uk', name: 'Sam Carter' },
      { email: 'lee@crew.co.uk', name: 'Lee Ward' },
    ])
    .returning({ id: workers.id });
  [sam, lee] = added.map((row) => row.id) as [number, number];
});

describe('stops joining a route staff gave to a worker', () => {
  it('wait for staff, on the board, the Locations day, the 6 PM e-mail and the crew page, until staff give them', async () => {
    const first = await insertRoutableBooking(db, { firstName: 'Priya', ...scheduledFor(DAY), pins: pin('Market Street', 1) });
    const second = await insertRoutableBooking(db, { firstName: 'Tom', ...scheduledFor(DAY), pins: pin('Oldham Street', 2) });
    expect((await assign([first, second], lee)).status).toBe(204);

    // Two bookings join Lee's route after staff gave it to him.
    const joinedA = await insertRoutableBooking(db, { firstName: 'Ada', ...scheduledFor(DAY), pins: pin('Deansgate', 3) });
    const joinedB = await insertRoutableBooking(db, { firstName: 'Bo', ...scheduledFor(DAY), pins: pin('King Street', 4) });

    const [route] = (await board()).routes;
    expect(route).toMatchObject({ routeNumber: 1, workerId: lee, given: 'worker' });
    const waiting = route!.stops.filter((stop) => stop.waiting).map((stop) => stop.bookingId);
    expect(waiting.sort()).toEqual([joinedA, joinedB].sort());
    expect(route!.stops.filter((stop) => stop.workerId === lee).map((stop) => stop.bookingId).sort()).toEqual([first, second].sort());

    // The Locations tab's day shows the same route number, worker and waiting stops.
    const [sameRoute] = await locationsDay();
    expect(sameRoute).toMatchObject({ routeNumber: 1, workerId: lee });
    expect(sameRoute!.bookings.filter((booking) => booking.waiting).map((booking) => booking.bookingId).sort()).toEqual(waiting.sort());

    // The 6 PM job sends Lee only his two stops, and Sam (who holds nothing) no e-mail.
    expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
    const leeMail = await mailTo('lee@crew.co.uk');
    expect(leeMail!.subject).toContain('2 stops');
    expect(leeMail!.text).not.toContain(`booking #${joinedA}`);
    expect(await mailTo('sam@crew.co.uk')).toBeUndefined();
    expect((await crewStopIds('lee@crew.co.uk')).sort()).toEqual([first, second].sort());

    // Staff give the waiting stops to Lee: his day now lists all four.
    ctx.setNow(EVENING_BEFORE);
    cookie = await adminCookie(ctx);
    expect((await assign([joinedA, joinedB], lee)).status).toBe(204);
    const [after] = (await board()).routes;
    expect(after!.stops.every((stop) => stop.workerId === lee && !stop.waiting)).toBe(true);
    expect((await crewStopIds('lee@crew.co.uk')).sort()).toEqual([first, second, joinedA, joinedB].sort());
  });

  it('can be given to a worker from the Locations tab, as from the Workers tab', async () => {
    const first = await insertRoutableBooking(db, { ...scheduledFor(DAY), pins: pin('Market Street', 1) });
    const [route] = await locationsDay();
    expect(route).toMatchObject({ routeNumber: 1, workerId: null });
    expect(route!.bookings[0]).toMatchObject({ bookingId: first, waiting: false });
    expect((await assign([first], sam)).status).toBe(204);
    expect((await board()).routes[0]).toMatchObject({ routeNumber: 1, workerId: sam, given: 'worker' });
  });

  it('go to every active worker on a route nobody was given, and back there when staff take the route back', async () => {
    const first = await insertRoutableBooking(db, { ...scheduledFor(DAY), pins: pin('Market Street', 1) });
    expect((await board()).routes[0]).toMatchObject({ workerId: null, given: 'everyone' });
    expect((await assign([first], lee)).status).toBe(204);
    expect((await assign([first], null)).status).toBe(204);
    expect((await board()).routes[0]!.stops[0]).toMatchObject({ workerId: null, waiting: false });

    expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
    expect(await crewStopIds('sam@crew.co.uk')).toEqual([first]);
    expect(await crewStopIds('lee@crew.co.uk')).toEqual([first]);
  });
});

describe("a crew photo's proof", () => {
  it('shows its time, place and worker on the crew board and in the project list', async () => {
    const stop = await insertRoutableBooking(db, { firstName: 'Priya', ...scheduledFor(DAY), pins: pin('Market Street', 1) });
    expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
    const token = /\/crew\?t=([\w-]+)/.exec((await mailTo('lee@crew.co.uk'))!.text)![1]!;
    ctx.setNow(MORNING);
    const form = new FormData();
    form.set('photo', new File([PNG], 'IMG_0042.png', { type: 'image/png' }));
    form.set('photoType', 'after');
    form.set('takenAt', '2026-11-23T08:50:00.000Z');
    form.set('lat', '53.4824');
    form.set('lng', '-2.2388');
    form.set('accuracy', '9');
    const sent = await ctx.app.request(`/api/crew/stops/${stop}/photos`, { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${token}` } });
    expect(sent.status).toBe(201);

    cookie = await adminCookie(ctx);
    const proof = { takenAt: '2026-11-23T08:50:00.000Z', lat: 53.4824, lng: -2.2388, accuracyM: 9, workerName: 'Lee Ward' };
    const [route] = (await board()).routes as unknown as { stops: { photos: unknown[] }[] }[];
    expect(route!.stops[0]!.photos).toEqual([expect.objectContaining({ photoType: 'after', ...proof })]);
    const projects = (await (await ctx.app.request('/api/admin/projects', adminRequest(cookie))).json()) as { id: number; photos: unknown[] }[];
    expect(projects.find((project) => project.id === stop)!.photos).toEqual([expect.objectContaining(proof)]);
  });
});

describe('the 6 PM e-mail', () => {
  it('lists only the stops staff scheduled for the day, as the crew page does', async () => {
    const scheduled = await insertRoutableBooking(db, { firstName: 'Priya', ...scheduledFor(DAY), pins: pin('Market Street', 1) });
    // Expected that day (its preferred date) but still at step 2: staff have not scheduled it.
    const notYet = await insertRoutableBooking(db, { firstName: 'Tom', preferredDate: DAY, currentStep: 2, pins: pin('Oldham Street', 2) });

    const [route] = (await board()).routes;
    expect(route!.stops.find((stop) => stop.bookingId === notYet)).toMatchObject({ scheduled: false });

    expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
    const mail = await mailTo('sam@crew.co.uk');
    expect(mail!.subject).toContain('1 stop');
    expect(mail!.text).toContain(`booking #${scheduled}`);
    expect(mail!.text).not.toContain(`booking #${notYet}`);
    expect(await crewStopIds('sam@crew.co.uk')).toEqual([scheduled]);
  });

  it('goes to nobody when no stop of the day is scheduled yet', async () => {
    await insertRoutableBooking(db, { preferredDate: DAY, currentStep: 1 });
    expect(await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).toMatchObject({ outcome: 'sent', sent: 0 });
    expect(await db.select().from(emailOutbox)).toEqual([]);
  });
});
