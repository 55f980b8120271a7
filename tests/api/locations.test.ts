import { beforeEach, describe, expect, it } from 'vitest';
import { bookings } from '../../db/schema.ts';
import { createTestContext } from '../setup/test-app.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const cookie = await adminCookie(ctx);

const MANCHESTER = { address: 'Piccadilly Gardens, Manchester M1 1RG', lat: 53.4808, lng: -2.2369 };
const LEEDS = { address: 'Briggate, Leeds LS1 6HD', lat: 53.7973, lng: -1.5422 };

beforeEach(async () => {
  await db.delete(bookings);
});

interface Group {
  routeNumber: number;
  area: string;
  region: string;
  stops: number;
  distanceKm: number | null;
  estimatedMinutesSaved: number;
  mapsUrl: string | null;
  bookings: { bookingId: number; customerName: string; postcode: string | null; addresses: string[]; points: { lat: number; lng: number }[] }[];
}

async function grouping(query = ''): Promise<Group[]> {
  const response = await ctx.app.request(`/api/locations/grouping${query}`, adminRequest(cookie));
  expect(response.status).toBe(200);
  return (await response.json()) as Group[];
}

describe('without an admin session', () => {
  it.each(['/api/locations/regions', '/api/locations/grouping', '/api/locations/grouping?size=3'])('%s answers 401', async (path) => {
    const response = await ctx.app.request(path);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Please sign in to the admin dashboard.' });
  });
});

describe('GET /api/locations/regions', () => {
  it('counts bookings per region, leaving out archived and cancelled ones; no region is Unknown', async () => {
    await insertRoutableBooking(db, { region: 'Greater Manchester' });
    await insertRoutableBooking(db, { region: 'Greater Manchester', status: 'completed' });
    await insertRoutableBooking(db, { region: 'West Yorkshire', postcode: 'LS1', pins: [LEEDS] });
    await insertRoutableBooking(db, { region: null, postcode: null, pins: [] });
    await insertRoutableBooking(db, { region: 'Greater Manchester', status: 'cancelled' });
    await insertRoutableBooking(db, { region: 'West Yorkshire', archived: true });

    const response = await ctx.app.request('/api/locations/regions', adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ 'Greater Manchester': 2, 'West Yorkshire': 1, Unknown: 1 });
  });

  it('is an empty map without bookings', async () => {
    const response = await ctx.app.request('/api/locations/regions', adminRequest(cookie));
    expect(await response.json()).toEqual({});
  });
});

describe('GET /api/locations/grouping', () => {
  it('groups active bookings in routes of 5 by default, with saving, distance, a maps link and the stops', async () => {
    for (let index = 0; index < 6; index += 1) {
      await insertRoutableBooking(db, { firstName: `Customer${index}`, pins: [{ ...MANCHESTER, lat: MANCHESTER.lat + index * 0.001 }] });
    }
    await insertRoutableBooking(db, { status: 'completed' });
    await insertRoutableBooking(db, { status: 'cancelled' });
    await insertRoutableBooking(db, { archived: true });

    const groups = await grouping();
    expect(groups.map((group) => group.stops)).toEqual([5, 1]);
    const [first] = groups;
    expect(first).toMatchObject({ routeNumber: 1, area: 'M1', region: 'Greater Manchester', estimatedMinutesSaved: 60 });
    expect(first!.distanceKm).toBeGreaterThan(0);
    expect(first!.mapsUrl).toMatch(/^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&origin=/);
    expect(first!.bookings[0]).toMatchObject({ customerName: expect.stringMatching(/^Customer\d Khan$/), postcode: 'M1' });
    // One stop is a trip the crew makes anyway: it saves nothing.
    expect(groups[1]).toMatchObject({ routeNumber: 2, estimatedMinutesSaved: 0 });
  });

  it.each([
    [3, [3, 3, 3, 1]],
    [5, [5, 5]],
    [8, [8, 2]],
    [10, [10]],
  ])('size=%i cuts ten bookings into %j', async (size, stops) => {
    for (let index = 0; index < 10; index += 1) {
      await insertRoutableBooking(db, { pins: [{ ...MANCHESTER, lng: MANCHESTER.lng + index * 0.001 }] });
    }
    expect((await grouping(`?size=${size}`)).map((group) => group.stops)).toEqual(stops);
  });

  it.each(['4', '0', '11', 'five', '5.0', ''])('size=%s answers 400', async (size) => {
    const response = await ctx.app.request(`/api/locations/grouping?size=${size}`, adminRequest(cookie));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'Group size must be one of 3, 5, 8, 10' });
  });

  it('splits addresses on semicolons, shows up to 3, and gives every pin', async () => {
    const pins = [1, 2, 3, 4].map((n) => ({ address: ` Unit ${n}, Piccadilly, Manchester M1 1RG `, lat: 53.48 + n / 1000, lng: -2.23 }));
    const id = await insertRoutableBooking(db, { pins });
    const [group] = await grouping();
    expect(group!.bookings).toEqual([
      expect.objectContaining({
        bookingId: id,
        addresses: ['Unit 1, Piccadilly, Manchester M1 1RG', 'Unit 2, Piccadilly, Manchester M1 1RG', 'Unit 3, Piccadilly, Manchester M1 1RG'],
        points: pins.map(({ lat, lng }) => ({ lat, lng })),
      }),
    ]);
  });

  it('keeps regions apart and places a booking without pins at its outward code', async () => {
    await insertRoutableBooking(db, { pins: [MANCHESTER] });
    await insertRoutableBooking(db, { region: 'West Yorkshire', postcode: 'LS1', pins: [] });
    const groups = await grouping();
    expect(groups.map((group) => [group.region, group.area, group.stops])).toEqual([
      ['Greater Manchester', 'M1', 1],
      ['West Yorkshire', 'LS1', 1],
    ]);
    expect(groups[1]!.bookings[0]!.points).toHaveLength(1);
  });
});
