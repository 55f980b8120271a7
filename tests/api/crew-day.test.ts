import { beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import {
  bookings,
  channelLogs,
  crewAssignments,
  crewLinks,
  crewStops,
  emailOutbox,
  jobRuns,
  photos,
  progressLogs,
  workers,
} from '../../db/schema.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const PNG: Uint8Array<ArrayBuffer> = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));

// The crew's day is Monday 23 November 2026 (GMT). The 6 PM job the evening before sends the links.
const DAY = '2026-11-23';
const EVENING_BEFORE = '2026-11-22T18:00:00Z';
const MORNING = '2026-11-23T09:00:00Z';
/** Staff scheduled the installation for the day (step 3) and the customer paid. */
const SCHEDULED = { preferredDate: DAY, currentStep: 3, installationDate: new Date('2026-11-23T18:00:00Z'), paymentStatus: 'paid' } as const;

const MANCHESTER = [{ address: 'Market Street, Manchester M1 1PT', lat: 53.4823, lng: -2.2389 }];
const OLDHAM_STREET = [{ address: 'Oldham Street, Manchester M4 1LE', lat: 53.4842, lng: -2.2336 }];
const LEEDS = [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.7986, lng: -1.5418 }];

interface Day {
  worker: { name: string };
  date: string;
  stops: { bookingId: number; order: number; status: string; statusAt: string | null; hours: string; customerFirstName: string; addresses: string[]; photos: { id: number; photoType: string }[] }[];
}

let sam: number;
let lee: number;
let market: number;
let oldham: number;
let leeds: number;
let samToken: string;
let leeToken: string;

const crew = (token: string | null, path: string, init: RequestInit = {}) =>
  ctx.app.request(`/api/crew${path}`, {
    method: 'POST',
    ...init,
    headers: { Origin: TEST_ORIGIN, ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
  });
const getDay = (token: string | null) => crew(token, '/day', { method: 'GET' });

function photoForm(fields: Record<string, string>, file: Uint8Array<ArrayBuffer> = PNG): FormData {
  const form = new FormData();
  form.set('photo', new File([file], 'IMG_0042.jpg', { type: 'image/jpeg' }));
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

/** The crew link in the worker's e-mail, as the worker would tap it. */
async function tokenFromEmail(to: string): Promise<string> {
  const [mail] = await db.select().from(emailOutbox).where(and(eq(emailOutbox.to, to), eq(emailOutbox.kind, 'worker-routes')));
  const match = /\/crew\?t=([\w-]+)/.exec(mail!.text);
  expect(match).not.toBeNull();
  return match![1]!;
}

beforeEach(async () => {
  for (const table of [crewStops, crewAssignments, crewLinks, photos, progressLogs, bookings, workers, jobRuns, emailOutbox, channelLogs]) await db.delete(table);
  ctx.setNow(EVENING_BEFORE);
  const added = await db
    .insert(workers)
    .values([
      { email: 'sam@crew.co.uk', name: 'Sam Carter' },
      { email: 'lee@crew.co.uk', name: 'Lee Ward' },
    ])
    .returning({ id: workers.id });
  [sam, lee] = added.map((row) => row.id) as [number, number];
  market = await insertRoutableBooking(db, { firstName: 'Priya', ...SCHEDULED, pins: MANCHESTER });
  oldham = await insertRoutableBooking(db, { firstName: 'Tom', ...SCHEDULED, pins: OLDHAM_STREET });
  leeds = await insertRoutableBooking(db, { firstName: 'Aisha', ...SCHEDULED, pins: LEEDS, postcode: 'LS1', region: 'West Yorkshire' });
  // Staff gave the Leeds route to Lee; the Manchester route was given to nobody.
  await db.insert(crewAssignments).values({ bookingId: leeds, day: DAY, workerId: lee });
  expect((await runWorkerNotificationJob(ctx.deps, new Date(EVENING_BEFORE))).outcome).toBe('sent');
  samToken = await tokenFromEmail('sam@crew.co.uk');
  leeToken = await tokenFromEmail('lee@crew.co.uk');
  ctx.setNow(MORNING);
});

describe('the 6 PM e-mail', () => {
  it('gives each worker a link to their day, with day or night work and hours per stop', async () => {
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'sam@crew.co.uk'));
    expect(mail!.text).toContain('/crew?t=');
    expect(mail!.text).toContain('Night work, 6pm - 6am');
    expect(mail!.text).not.toContain('Briggate');
    const [link] = await db.select().from(crewLinks).where(eq(crewLinks.workerId, sam));
    // Only the hash is kept; the link works until noon London the next day.
    expect(link!.tokenHash).not.toContain(samToken);
    expect(link!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(link!.expiresAt.toISOString()).toBe('2026-11-24T12:00:00.000Z');
  });
});

describe('GET /api/crew/day', () => {
  it("lists the worker's stops in route order: their routes and the routes given to nobody", async () => {
    const response = await getDay(samToken);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const day = (await response.json()) as Day;
    expect(day.worker).toEqual({ name: 'Sam Carter' });
    expect(day.date).toBe(DAY);
    expect(day.stops.map((stop) => stop.bookingId).sort()).toEqual([market, oldham].sort());
    expect(day.stops.map((stop) => stop.order)).toEqual([1, 2]);
    expect(day.stops[0]).toMatchObject({ status: 'planned', statusAt: null, hours: 'Night work, 6pm - 6am', photos: [] });
    expect(day.stops.map((stop) => stop.customerFirstName).sort()).toEqual(['Priya', 'Tom']);

    const lees = (await (await getDay(leeToken)).json()) as Day;
    expect(lees.stops.map((stop) => stop.bookingId)).toContain(leeds);
  });

  it('answers 404 for no token and an unknown one', async () => {
    expect((await getDay(null)).status).toBe(404);
    const unknown = await getDay('A'.repeat(32));
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'This crew link is not valid. Ask the office for a new one.' });
  });

  it('answers 410 after noon the next day', async () => {
    ctx.setNow('2026-11-24T11:59:00Z');
    expect((await getDay(samToken)).status).toBe(200);
    ctx.setNow('2026-11-24T12:00:00Z');
    expect((await getDay(samToken)).status).toBe(410);
  });

  it('answers 410 once staff revoke the link, and a resent link works instead', async () => {
    const cookie = await adminCookie(ctx);
    const revoked = await ctx.app.request(`/api/admin/crew/workers/${sam}/revoke`, adminRequest(cookie, { body: { date: DAY } }));
    expect(await revoked.json()).toEqual({ revoked: 1 });
    expect((await getDay(samToken)).status).toBe(410);

    await db.delete(emailOutbox);
    const resent = await ctx.app.request(`/api/admin/crew/workers/${sam}/resend`, adminRequest(cookie, { body: { date: DAY } }));
    expect(await resent.json()).toEqual({ success: 1 });
    const fresh = await tokenFromEmail('sam@crew.co.uk');
    expect((await getDay(fresh)).status).toBe(200);
    expect((await getDay(samToken)).status).toBe(410);
  });

  it('ends the link in use when staff resend one while it is live (what the Workers tab asks before doing)', async () => {
    const cookie = await adminCookie(ctx);
    ctx.setNow(MORNING);
    expect((await getDay(samToken)).status).toBe(200);
    await db.delete(emailOutbox);
    const resent = await ctx.app.request(`/api/admin/crew/workers/${sam}/resend`, adminRequest(cookie, { body: { date: DAY } }));
    expect(resent.status).toBe(200);
    expect((await getDay(samToken)).status).toBe(410);
    expect((await getDay(await tokenFromEmail('sam@crew.co.uk'))).status).toBe(200);
    // Lee's link is Lee's: another worker's resend leaves it working.
    expect((await getDay(leeToken)).status).toBe(200);
  });
});

describe('POST /api/crew/stops/{bookingId}/on-the-way', () => {
  it('e-mails the customer once with their tracking link, and the tracking page shows it with the time', async () => {
    const first = await crew(samToken, `/stops/${market}/on-the-way`);
    expect(first.status).toBe(200);
    const day = (await first.json()) as Day;
    expect(day.stops.find((stop) => stop.bookingId === market)).toMatchObject({ status: 'on_the_way', statusAt: MORNING.replace('Z', '.000Z') });
    ctx.setNow('2026-11-23T09:05:00Z');
    expect((await crew(samToken, `/stops/${market}/on-the-way`)).status).toBe(200);

    const mails = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe('amira@northernroasters.co.uk');
    expect(mails[0]!.text).toContain('at 09:00');
    const token = /track-project\?t=([\w-]+)/.exec(mails[0]!.text)![1]!;

    const tracked = await ctx.app.request('/api/track-project', jsonRequest({ token }));
    expect(await tracked.json()).toMatchObject({ id: market, crew: { status: 'on_the_way', at: '2026-11-23T09:00:00.000Z' } });
  });

  it("answers 404 for a stop given to another worker and for a booking on no one's day", async () => {
    expect((await crew(samToken, `/stops/${leeds}/on-the-way`)).status).toBe(404);
    const elsewhere = await insertRoutableBooking(db, { preferredDate: '2026-11-30' });
    expect((await crew(samToken, `/stops/${elsewhere}/on-the-way`)).status).toBe(404);
    expect((await crew(samToken, '/stops/999999/on-the-way')).status).toBe(404);
    expect((await crew(samToken, '/stops/abc/done')).status).toBe(404);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'))).toHaveLength(0);
  });
});

describe('POST /api/crew/stops/{bookingId}/photos', () => {
  it('stores a retried upload once, keeps when and where for staff only, and starts the stop', async () => {
    const fields = { photoType: 'before', takenAt: '2026-11-23T08:58:00.000Z', lat: '53.48231', lng: '-2.23892', accuracy: '12' };
    const send = () => crew(samToken, `/stops/${market}/photos`, { body: photoForm(fields), headers: { 'Idempotency-Key': 'phone-photo-1' } });
    const first = await send();
    expect(first.status).toBe(201);
    const again = await send();
    expect(again.status).toBe(201);
    const [a, b] = [await first.json(), await again.json()];
    expect(b).toEqual(a);

    const rows = await db.select().from(photos).where(eq(photos.bookingId, market));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ photoType: 'before', lat: 53.48231, lng: -2.23892, accuracyM: 12, workerId: sam });
    expect(rows[0]!.takenAt?.toISOString()).toBe(fields.takenAt);

    const day = (await (await getDay(samToken)).json()) as Day;
    expect(day.stops.find((stop) => stop.bookingId === market)).toMatchObject({ status: 'started', photos: [{ photoType: 'before' }] });

    // Staff see the proof; the customer's photo list has no position.
    const cookie = await adminCookie(ctx);
    const projects = (await (await ctx.app.request('/api/admin/projects', adminRequest(cookie))).json()) as { id: number; photos: unknown[]; crew: unknown }[];
    const project = projects.find((item) => item.id === market)!;
    expect(project.photos[0]).toMatchObject({ lat: 53.48231, lng: -2.23892, accuracyM: 12, takenAt: fields.takenAt });
    expect(project.crew).toMatchObject({ status: 'started', workerName: 'Sam Carter', day: DAY });
    const customer = await ctx.app.request(`/api/bookings/${market}/photos`, adminRequest(cookie));
    expect(JSON.stringify(await customer.json())).not.toContain('53.48231');
  });

  it('refuses a JPEG the decoder cannot read (metadata and a few bytes of scan) instead of storing it as sent', async () => {
    // tests/api/image-privacy.test.ts runs real camera files through every upload path.
    const exif = new TextEncoder().encode('Exif\0\0GPSLatitude 53.4823');
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, exif.length + 2, ...exif, 0xff, 0xda, 0, 4, 1, 2, 0x11, 0x22, 0xff, 0xd9]);
    const response = await crew(samToken, `/stops/${market}/photos`, {
      body: photoForm({ photoType: 'after', takenAt: '2026-11-23T08:59:00.000Z' }, jpeg),
      headers: { 'Idempotency-Key': 'phone-photo-2' },
    });
    expect(response.status).toBe(415);
    expect(await db.select().from(photos).where(eq(photos.bookingId, market))).toHaveLength(0);
  });

  it('takes at most CREW_PHOTOS_PER_STOP photos a stop a day, with a 409 that says so; a retry still gets its answer', async () => {
    const env = ctx.deps.env as { CREW_PHOTOS_PER_STOP: number };
    const cap = env.CREW_PHOTOS_PER_STOP;
    expect(cap).toBe(30);
    env.CREW_PHOTOS_PER_STOP = 2;
    try {
      const send = (key: string) =>
        crew(samToken, `/stops/${market}/photos`, { body: photoForm({ photoType: 'during', takenAt: MORNING }), headers: { 'Idempotency-Key': key } });
      expect((await send('cap-1')).status).toBe(201);
      expect((await send('cap-2')).status).toBe(201);
      const third = await send('cap-3');
      expect(third.status).toBe(409);
      expect(await third.json()).toMatchObject({
        error: 'This stop already has 2 photos from today, the most a stop takes. Ask the office if you need to send more.',
      });
      expect((await send('cap-2')).status).toBe(201);
      expect(await db.select().from(photos).where(eq(photos.bookingId, market))).toHaveLength(2);
      // Another stop has its own count.
      expect((await crew(samToken, `/stops/${oldham}/photos`, { body: photoForm({ photoType: 'during', takenAt: MORNING }), headers: { 'Idempotency-Key': 'cap-4' } })).status).toBe(201);
    } finally {
      env.CREW_PHOTOS_PER_STOP = cap;
    }
  });

  it.each([
    ['a reference photo', { photoType: 'reference', takenAt: '2026-11-23T08:58:00.000Z' }],
    ['no time taken', { photoType: 'before' }],
    ['a latitude out of range', { photoType: 'before', takenAt: '2026-11-23T08:58:00.000Z', lat: '91', lng: '0' }],
  ])('refuses %s with 400', async (_name, fields) => {
    const response = await crew(samToken, `/stops/${market}/photos`, { body: photoForm(fields) });
    expect(response.status).toBe(400);
    expect(await db.select().from(photos)).toHaveLength(0);
  });

  it("answers 404 for another worker's stop", async () => {
    const response = await crew(samToken, `/stops/${leeds}/photos`, { body: photoForm({ photoType: 'before', takenAt: MORNING }) });
    expect(response.status).toBe(404);
  });
});

describe('POST /api/crew/stops/{bookingId}/done', () => {
  it("moves the project to step 4 with today's date and a note naming the worker, once", async () => {
    ctx.setNow('2026-11-23T11:15:00Z');
    const first = await crew(samToken, `/stops/${market}/done`);
    expect(first.status).toBe(200);
    ctx.setNow('2026-11-23T11:20:00Z');
    expect((await crew(samToken, `/stops/${market}/done`)).status).toBe(200);

    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking).toMatchObject({ currentStep: 4, status: 'installation_complete' });
    expect(booking!.installationDate?.toISOString()).toBe('2026-11-23T11:15:00.000Z');
    const logs = await db.select().from(progressLogs).where(eq(progressLogs.bookingId, market));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ step: 4, stepName: 'On-Site Installation' });
    expect(logs[0]!.notes).toContain('Sam Carter');

    const day = (await (await getDay(samToken)).json()) as Day;
    expect(day.stops.find((stop) => stop.bookingId === market)).toMatchObject({ status: 'done', statusAt: '2026-11-23T11:15:00.000Z' });

    // Staff's board shows it without a reload of anything but the board.
    const board = await ctx.app.request(`/api/admin/crew/day?date=${DAY}`, adminRequest(await adminCookie(ctx)));
    const json = (await board.json()) as { routes: { stops: { bookingId: number; crew: unknown }[] }[] };
    const stop = json.routes.flatMap((route) => route.stops).find((item) => item.bookingId === market);
    expect(stop!.crew).toMatchObject({ status: 'done', workerName: 'Sam Carter' });
  });
});

describe('/api/admin/crew', () => {
  it('gives a route to a worker and back to everyone', async () => {
    const cookie = await adminCookie(ctx);
    const assign = (workerId: number | null) =>
      ctx.app.request('/api/admin/crew/assignments', adminRequest(cookie, { method: 'PUT', body: { date: DAY, bookingIds: [market, oldham], workerId } }));
    expect((await assign(lee)).status).toBe(204);
    expect(((await (await getDay(samToken)).json()) as Day).stops).toEqual([]);
    expect((await assign(null)).status).toBe(204);
    expect(((await (await getDay(samToken)).json()) as Day).stops).toHaveLength(2);
  });

  it('needs an admin session', async () => {
    const response = await ctx.app.request(`/api/admin/crew/day?date=${DAY}`);
    expect(response.status).toBe(401);
  });
});

describe('a crew link before its day', () => {
  it('answers 403 naming the day until midnight London at its start, then opens', async () => {
    ctx.setNow(EVENING_BEFORE);
    const early = await getDay(samToken);
    expect(early.status).toBe(403);
    expect(await early.json()).toMatchObject({ error: 'This link opens on Monday 23 November', opensOn: DAY });
    expect((await crew(samToken, `/stops/${market}/on-the-way`)).status).toBe(403);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'))).toHaveLength(0);
    ctx.setNow('2026-11-22T23:59:59Z');
    expect((await getDay(samToken)).status).toBe(403);
    ctx.setNow('2026-11-23T00:00:00Z');
    expect((await getDay(samToken)).status).toBe(200);
  });

  it('opens at midnight London time in summer, an hour before midnight UTC', async () => {
    const [link] = await db.select().from(crewLinks).where(eq(crewLinks.workerId, sam));
    await db.update(crewLinks).set({ day: '2027-07-14', expiresAt: new Date('2027-07-15T11:00:00Z') }).where(eq(crewLinks.tokenHash, link!.tokenHash));
    ctx.setNow('2027-07-13T22:59:00Z');
    expect(await (await getDay(samToken)).json()).toMatchObject({ error: 'This link opens on Wednesday 14 July' });
    ctx.setNow('2027-07-13T23:00:00Z');
    expect((await getDay(samToken)).status).toBe(200);
  });
});

describe('which bookings are stops', () => {
  it('lists only installations staff scheduled for the day, and marks an unpaid one', async () => {
    const unpaid = await insertRoutableBooking(db, { firstName: 'Noor', ...SCHEDULED, paymentStatus: 'unpaid', pins: MANCHESTER });
    const notScheduled = await insertRoutableBooking(db, { firstName: 'Ben', preferredDate: DAY, pins: MANCHESTER });
    const otherDay = await insertRoutableBooking(db, { ...SCHEDULED, installationDate: new Date('2026-11-25T18:00:00Z'), pins: MANCHESTER });
    const day = (await (await getDay(samToken)).json()) as Day & { stops: { unpaid: boolean }[] };
    const ids = day.stops.map((stop) => stop.bookingId);
    expect(ids).toContain(unpaid);
    expect(ids).not.toContain(notScheduled);
    expect(ids).not.toContain(otherDay);
    expect(day.stops.find((stop) => stop.bookingId === unpaid)).toMatchObject({ unpaid: true });
    expect(day.stops.find((stop) => stop.bookingId === market)).toMatchObject({ unpaid: false });
  });

  it('refuses Done on a booking not scheduled for installation with a 409 that says why, and moves nothing', async () => {
    const notScheduled = await insertRoutableBooking(db, { firstName: 'Ben', preferredDate: DAY, pins: MANCHESTER });
    const done = await crew(samToken, `/stops/${notScheduled}/done`);
    expect(done.status).toBe(409);
    expect(await done.json()).toMatchObject({ error: 'This stop is not scheduled for installation on your day. Ask the office.' });
    expect((await crew(samToken, `/stops/${notScheduled}/on-the-way`)).status).toBe(409);
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, notScheduled));
    expect(booking).toMatchObject({ currentStep: 1, installationDate: null });
    expect(await db.select().from(progressLogs).where(eq(progressLogs.bookingId, notScheduled))).toHaveLength(0);
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'))).toHaveLength(0);
  });

  it('refuses Done once staff moved a worked stop back to an earlier step', async () => {
    expect((await crew(samToken, `/stops/${market}/on-the-way`)).status).toBe(200);
    await db.update(bookings).set({ currentStep: 2 }).where(eq(bookings.id, market));
    const done = await crew(samToken, `/stops/${market}/done`);
    expect(done.status).toBe(409);
    expect(await done.json()).toMatchObject({ error: 'This project is not scheduled for installation yet, so it cannot be marked done. Ask the office.' });
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking!.currentStep).toBe(2);
  });

  it('"On my way" after Done changes nothing and e-mails nobody', async () => {
    expect((await crew(samToken, `/stops/${market}/done`)).status).toBe(200);
    ctx.setNow('2026-11-23T10:00:00Z');
    const late = await crew(samToken, `/stops/${market}/on-the-way`);
    expect(late.status).toBe(200);
    const day = (await late.json()) as Day;
    expect(day.stops.find((stop) => stop.bookingId === market)).toMatchObject({ status: 'done', statusAt: '2026-11-23T09:00:00.000Z' });
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'crew-on-the-way'))).toHaveLength(0);
    const [stop] = await db.select().from(crewStops).where(eq(crewStops.bookingId, market));
    expect(stop!.onTheWayAt).toBeNull();
  });
});

describe('a deactivated worker', () => {
  it('loses their links for good: activating them again revives none, and the PATCH keeps their name', async () => {
    const cookie = await adminCookie(ctx);
    const patch = (body: unknown) => ctx.app.request(`/api/admin/workers/${sam}`, adminRequest(cookie, { method: 'PATCH', body }));
    const off = await patch({ active: false });
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ name: 'Sam Carter', active: false });
    expect((await getDay(samToken)).status).toBe(410);
    const on = await patch({ active: true });
    expect(await on.json()).toMatchObject({ name: 'Sam Carter', active: true });
    expect((await getDay(samToken)).status).toBe(410);
    expect((await getDay(leeToken)).status).toBe(200);
    // A rename alone keeps the worker active; clearing the name is still possible.
    expect(await (await patch({ name: 'Samuel Carter' })).json()).toMatchObject({ name: 'Samuel Carter', active: true });
    expect(await (await patch({ name: null })).json()).toMatchObject({ name: null, active: true });
  });
});
