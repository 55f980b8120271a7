import { beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { and, asc, eq } from 'drizzle-orm';
import { bookings, channelLogs, crewAssignments, crewLinks, crewStops, photos, progressLogs, proofs, workers } from '../../db/schema.ts';
import { insertCrewLink } from '../../src/server/services/crew/crew-links.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';

// What a crew's stop card needs from the day (api.md "Crew day"): the customer's instructions,
// the approved stencil, directions through every place; Done taken back within the window; and
// photos still accepted on a done stop. Nothing of another worker's stops reaches the phone.

const ctx = await createTestContext();
const db = ctx.deps.db;
const PNG: Uint8Array<ArrayBuffer> = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));

const DAY = '2026-11-23';
const SCHEDULED_AT = new Date('2026-11-23T18:00:00Z');
const SCHEDULED = { preferredDate: DAY, currentStep: 3, installationDate: SCHEDULED_AT, paymentStatus: 'paid' } as const;
const TWO_PLACES = [
  { address: 'Deansgate, Manchester M3 2BW', lat: 53.4794, lng: -2.2487 },
  { address: 'King Street, Manchester M2 4LQ', lat: 53.481, lng: -2.2437 },
];
const LEEDS = [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.7986, lng: -1.5418 }];

interface Stop {
  bookingId: number;
  status: string;
  statusAt: string | null;
  specialInstructions: string | null;
  stencil: { version: number; name: string; note: string | null } | null;
  navigationUrl: string | null;
  photos: { photoType: string }[];
}

let market: number;
let deansgate: number;
let leeds: number;
let samToken: string;

const crew = (path: string, init: RequestInit = {}, token = samToken) =>
  ctx.app.request(`/api/crew${path}`, { method: 'POST', ...init, headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
const stopsOf = async (response: Response) => ((await response.json()) as { stops: Stop[] }).stops;
const stopIn = async (response: Response, id: number) => (await stopsOf(response)).find((stop) => stop.bookingId === id)!;
const day = () => crew('/day', { method: 'GET' });

function approvedProof(bookingId: number, version: number, originalName: string, status: 'approved' | 'superseded' = 'approved', note: string | null = null) {
  return { bookingId, version, status, note, originalName, fileName: `proof-${bookingId}-${version}.png`, mimeType: 'image/png', fileSize: 100, createdBy: 'admin' };
}

beforeEach(async () => {
  for (const table of [crewStops, crewAssignments, crewLinks, photos, progressLogs, proofs, bookings, workers, channelLogs]) await db.delete(table);
  const [sam, lee] = await db
    .insert(workers)
    .values([
      { email: 'sam@crew.co.uk', name: 'Sam Carter' },
      { email: 'lee@crew.co.uk', name: 'Lee Ward' },
    ])
    .returning({ id: workers.id });
  market = await insertRoutableBooking(db, {
    firstName: 'Priya',
    lastName: 'Sharma',
    ...SCHEDULED,
    specialInstructions: '  Access via the side alley  ',
    pins: [{ address: 'Market Street, Manchester M1 1PT', lat: 53.4823, lng: -2.2389 }],
  });
  deansgate = await insertRoutableBooking(db, { firstName: 'Ellie', ...SCHEDULED, pins: TWO_PLACES });
  leeds = await insertRoutableBooking(db, {
    firstName: 'Aisha',
    ...SCHEDULED,
    specialInstructions: 'Gate code 4821, ask for Dev',
    pins: LEEDS,
    postcode: 'LS1',
    region: 'West Yorkshire',
  });
  await db.insert(crewAssignments).values({ bookingId: leeds, day: DAY, workerId: lee!.id });
  await db.insert(proofs).values([
    approvedProof(market, 1, 'bakery-logo-v1.png', 'superseded'),
    approvedProof(market, 2, 'bakery-logo-v2.png', 'approved', '600 x 400 mm, one colour'),
    approvedProof(leeds, 1, 'leeds-secret-launch.png'),
  ]);
  ctx.setNow('2026-11-22T18:00:00Z');
  samToken = await insertCrewLink(db, sam!.id, DAY, ctx.deps.now());
  ctx.setNow('2026-11-23T09:00:00Z');
});

describe("the stop card's details in GET /api/crew/day", () => {
  it("gives each stop the customer's instructions, the approved stencil and directions through every place", async () => {
    const stops = await stopsOf(await day());
    const priya = stops.find((stop) => stop.bookingId === market)!;
    expect(priya.specialInstructions).toBe('Access via the side alley');
    expect(priya.stencil).toEqual({ version: 2, name: 'bakery-logo-v2.png', note: '600 x 400 mm, one colour' });
    expect(priya.navigationUrl).toBe('https://maps.google.com/?daddr=53.482300,-2.238900');

    const ellie = stops.find((stop) => stop.bookingId === deansgate)!;
    expect(ellie).toMatchObject({ specialInstructions: null, stencil: null });
    // From wherever the worker is, through Deansgate, to King Street.
    const url = new URL(ellie.navigationUrl!);
    expect(url.origin + url.pathname).toBe('https://www.google.com/maps/dir/');
    expect(url.searchParams.get('api')).toBe('1');
    expect(url.searchParams.has('origin')).toBe(false);
    expect(url.searchParams.get('waypoints')).toBe('53.479400,-2.248700');
    expect(url.searchParams.get('destination')).toBe('53.481000,-2.243700');
  });

  it("shows nothing of another worker's stops and no more of the customer than a first name", async () => {
    const text = await (await day()).text();
    expect(JSON.parse(text).stops.map((stop: Stop) => stop.bookingId).sort()).toEqual([market, deansgate].sort());
    for (const secret of ['Gate code 4821', 'leeds-secret-launch', 'Briggate', 'Aisha', 'Sharma', 'amira@northernroasters.co.uk', '0161 496 0000']) {
      expect(text).not.toContain(secret);
    }
    // Acting on the other worker's stop is the same 404 as a booking that does not exist.
    expect((await crew(`/stops/${leeds}/undo-done`)).status).toBe(404);
    expect((await crew('/stops/999999/undo-done')).status).toBe(404);
  });
});

describe('POST /api/crew/stops/{bookingId}/undo-done', () => {
  it('puts the stop and the project back within 5 minutes, in the history, and a retry changes nothing', async () => {
    expect((await crew(`/stops/${market}/on-the-way`)).status).toBe(200);
    ctx.setNow('2026-11-23T11:15:00Z');
    expect(await stopIn(await crew(`/stops/${market}/done`), market)).toMatchObject({ status: 'done' });

    ctx.setNow('2026-11-23T11:19:59Z');
    const undone = await crew(`/stops/${market}/undo-done`);
    expect(undone.status).toBe(200);
    expect(await stopIn(undone, market)).toMatchObject({ status: 'on_the_way', statusAt: '2026-11-23T09:00:00.000Z' });
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking).toMatchObject({ currentStep: 3, status: 'installation_scheduled' });
    // The time staff scheduled, not the time of the Done.
    expect(booking!.installationDate?.toISOString()).toBe(SCHEDULED_AT.toISOString());
    const history = await db.select().from(progressLogs).where(eq(progressLogs.bookingId, market)).orderBy(asc(progressLogs.id));
    expect(history.map((log) => log.step)).toEqual([4, 3]);
    expect(history[1]!.notes).toBe('Done undone by Sam Carter (crew) at 11:19; back to Installation Scheduling');
    const logs = await db.select().from(channelLogs).where(and(eq(channelLogs.entityId, String(market)), eq(channelLogs.action, 'progress_updated')));
    expect(logs.map((log) => log.details)).toContain(`Booking #${market} moved back from step 4 to step 3: Installation Scheduling by Sam Carter (crew), undoing Done`);

    // A retry after a lost answer: nothing more is written.
    expect((await crew(`/stops/${market}/undo-done`)).status).toBe(200);
    expect(await db.select().from(progressLogs).where(eq(progressLogs.bookingId, market))).toHaveLength(2);

    // The stop can be done again, and the customer's tracking status follows the stop.
    ctx.setNow('2026-11-23T11:30:00Z');
    expect(await stopIn(await crew(`/stops/${market}/done`), market)).toMatchObject({ status: 'done', statusAt: '2026-11-23T11:30:00.000Z' });
  });

  it('puts a stop done straight from planned back to planned', async () => {
    await crew(`/stops/${deansgate}/done`);
    expect(await stopIn(await crew(`/stops/${deansgate}/undo-done`), deansgate)).toMatchObject({ status: 'planned', statusAt: null });
    expect(await db.select().from(crewStops).where(eq(crewStops.bookingId, deansgate))).toHaveLength(0);
  });

  it('answers 409 with the reason after 5 minutes, and leaves the project done', async () => {
    ctx.setNow('2026-11-23T11:15:00Z');
    await crew(`/stops/${market}/done`);
    ctx.setNow('2026-11-23T11:20:00Z');
    const late = await crew(`/stops/${market}/undo-done`);
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ error: 'Done can only be undone for 5 minutes after it is marked. Ask the office to change it.' });
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking!.currentStep).toBe(4);
    expect(await stopIn(await day(), market)).toMatchObject({ status: 'done' });
  });

  it('answers 409 once staff have moved the project since', async () => {
    await crew(`/stops/${market}/done`);
    // Staff sent it back for a new stencil proof from the project card.
    await db.update(bookings).set({ currentStep: 2, status: 'stencil_creation' }).where(eq(bookings.id, market));
    const refused = await crew(`/stops/${market}/undo-done`);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ error: 'The office has changed this project since, so Done cannot be undone here. Ask the office.' });
    const [booking] = await db.select().from(bookings).where(eq(bookings.id, market));
    expect(booking!.currentStep).toBe(2);
  });
});

describe('a photo on a done stop', () => {
  it('is still taken that day, and the stop stays done', async () => {
    await crew(`/stops/${market}/done`);
    ctx.setNow('2026-11-23T15:00:00Z');
    const form = new FormData();
    form.set('photo', new File([PNG], 'late.jpg', { type: 'image/jpeg' }));
    form.set('photoType', 'after');
    form.set('takenAt', '2026-11-23T14:58:00.000Z');
    const sent = await crew(`/stops/${market}/photos`, { body: form, headers: { 'Idempotency-Key': 'late-after-1' } });
    expect(sent.status).toBe(201);
    expect(await stopIn(await day(), market)).toMatchObject({ status: 'done', statusAt: '2026-11-23T09:00:00.000Z', photos: [{ photoType: 'after' }] });
  });
});
