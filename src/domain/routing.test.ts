import { describe, expect, it } from 'vitest';
import {
  groupBookingsIntoRoutes,
  estimatedMinutesSaved,
  haversineKm,
  isRouteGroupSize,
  type LatLng,
  mapsRouteUrl,
  orderRoute,
  pathLengthKm,
  type RouteGroup,
  type RoutingBooking,
} from './routing.ts';

interface Named extends LatLng {
  name: string;
}
const at = (name: string, lat: number, lng: number): Named => ({ name, lat, lng });
const names = (stops: readonly Named[]) => stops.map((stop) => stop.name).join('');

/** Small deterministic pseudo-random points around Manchester. */
function scatter(seed: number, count: number): Named[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: count }, (_, index) => at(String.fromCharCode(97 + index), 53.4 + next() * 0.2, -2.3 + next() * 0.3));
}

/** Every order of the points, for the true shortest open path on a handful of stops. */
function shortestByBruteForce(points: readonly LatLng[]): number {
  if (points.length <= 1) return 0;
  let best = Number.POSITIVE_INFINITY;
  const walk = (path: LatLng[], left: LatLng[]) => {
    if (left.length === 0) best = Math.min(best, pathLengthKm(path));
    left.forEach((point, index) => walk([...path, point], left.filter((_, other) => other !== index)));
  };
  walk([], [...points]);
  return best;
}

describe('haversineKm', () => {
  it.each([
    ['the same point', { lat: 53.48, lng: -2.24 }, { lat: 53.48, lng: -2.24 }, 0],
    ['one degree of longitude on the equator', { lat: 0, lng: 0 }, { lat: 0, lng: 1 }, 111.195],
    ['one degree of latitude', { lat: 53, lng: -2 }, { lat: 54, lng: -2 }, 111.195],
    ['London to Paris', { lat: 51.5074, lng: -0.1278 }, { lat: 48.8566, lng: 2.3522 }, 343.56],
    ['Manchester M1 to Leeds LS1', { lat: 53.4773, lng: -2.2351 }, { lat: 53.7969, lng: -1.5477 }, 57.5],
  ])('%s', (_, a, b, km) => {
    expect(haversineKm(a, b)).toBeCloseTo(km, 0);
    expect(haversineKm(b, a)).toBeCloseTo(haversineKm(a, b), 9);
  });
});

describe('orderRoute', () => {
  // Five points 1 km apart along a parallel, given shuffled.
  const line = ['a', 'b', 'c', 'd', 'e'].map((name, index) => at(name, 53.5, -2.2 + index * 0.0151));

  it.each(['cadbe', 'ecabd', 'bdaec', 'abcde', 'edcba', 'daceb'])('points on a line given as %s come out in line order', (given) => {
    const stops = [...given].map((name) => line.find((point) => point.name === name)!);
    const route = orderRoute(stops);
    // Either direction is as short; which one depends only on the input order.
    expect(['abcde', 'edcba']).toContain(names(route.stops));
    expect(route.distanceKm).toBeCloseTo(pathLengthKm(line), 9);
  });

  it('walks three sides of a square, never the diagonal', () => {
    const square = [at('a', 53.5, -2.2), at('c', 53.51, -2.185), at('b', 53.51, -2.2), at('d', 53.5, -2.185)];
    const side = haversineKm(square[0]!, square[2]!);
    const route = orderRoute(square);
    expect(route.distanceKm).toBeLessThan(2 * side + haversineKm(square[0]!, square[3]!) + 1e-9);
    expect(route.distanceKm).toBeCloseTo(shortestByBruteForce(square), 9);
    expect(new Set(names(route.stops))).toEqual(new Set('abcd'));
  });

  it('from a given start, visits the nearest end of the line first and leaves the start out', () => {
    const route = orderRoute([line[2]!, line[0]!, line[4]!, line[1]!, line[3]!], { start: { lat: 53.5, lng: -2.1 } });
    expect(names(route.stops)).toBe('edcba');
    expect(route.distanceKm).toBeCloseTo(haversineKm({ lat: 53.5, lng: -2.1 }, line[4]!) + pathLengthKm(line), 9);
  });

  it.each([
    [[], '', 0],
    [[at('a', 53.5, -2.2)], 'a', 0],
  ])('%j stops → "%s", %d km', (stops, expected, km) => {
    const route = orderRoute(stops);
    expect(names(route.stops)).toBe(expected);
    expect(route.distanceKm).toBe(km);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])('scatter %i: never longer than the order given, same stops', (seed) => {
    const stops = scatter(seed, 10);
    const route = orderRoute(stops);
    expect(route.distanceKm).toBeLessThanOrEqual(pathLengthKm(stops) + 1e-9);
    expect(route.distanceKm).toBeCloseTo(pathLengthKm(route.stops), 9);
    expect([...route.stops].sort((a, b) => a.name.localeCompare(b.name))).toEqual(stops);
  });

  it.each([11, 12, 13, 14, 15, 16])('scatter %i: optimal on six stops', (seed) => {
    const stops = scatter(seed, 6);
    expect(orderRoute(stops).distanceKm).toBeCloseTo(shortestByBruteForce(stops), 6);
  });
});

describe('mapsRouteUrl', () => {
  const base = 'https://www.google.com/maps/dir/?api=1';
  it.each([
    ['one stop: directions from where the phone is', [{ lat: 53.4773, lng: -2.2351 }],
      `${base}&destination=53.4773%2C-2.2351&travelmode=driving`],
    ['two stops', [{ lat: 53.4773, lng: -2.2351 }, { lat: 53.4074, lng: -2.1504 }],
      `${base}&origin=53.4773%2C-2.2351&destination=53.4074%2C-2.1504&travelmode=driving`],
    ['four stops: the middle two are waypoints, in order', [
      { lat: 53.4773, lng: -2.2351 }, { lat: 53.48, lng: -2.24 }, { lat: 53.49, lng: -2.25 }, { lat: 53.4074, lng: -2.1504 },
    ], `${base}&origin=53.4773%2C-2.2351&destination=53.4074%2C-2.1504&waypoints=53.48%2C-2.24%7C53.49%2C-2.25&travelmode=driving`],
    ['pins are cut to 6 decimals (about 10 cm)', [{ lat: 53.123456789, lng: -2.987654321 }],
      `${base}&destination=53.123457%2C-2.987654&travelmode=driving`],
  ])('%s', (_, stops, url) => {
    expect(mapsRouteUrl(stops)).toBe(url);
  });

  it('refuses an empty route', () => {
    expect(() => mapsRouteUrl([])).toThrow(RangeError);
  });
});

describe('estimatedMinutesSaved', () => {
  it.each([
    [0, 0],
    [1, 0],
    [2, 15],
    [5, 60],
    [10, 135],
  ])('%i stops save %i minutes', (stops, minutes) => {
    expect(estimatedMinutesSaved(stops)).toBe(minutes);
  });
});

describe('groupBookingsIntoRoutes', () => {
  const booking = (id: number, outwardCode: string | null, points: LatLng[] = [], region: string | null = null): RoutingBooking =>
    ({ id, outwardCode, region, points });
  const summary = (groups: RouteGroup<RoutingBooking>[]) =>
    groups.map((group) => ({
      region: group.region,
      outwardCode: group.outwardCode,
      ids: group.stops.map((stop) => stop.booking.id).sort((a, b) => a - b),
      minutes: group.estimatedMinutesSaved,
    }));

  it.each<[string, RoutingBooking[], 3 | 5 | 8 | 10, ReturnType<typeof summary>]>([
    ['nothing to group', [], 5, []],
    ['one outward code under the size stays one group', [booking(2, 'M1'), booking(1, 'M1')], 5, [
      { region: 'Greater Manchester', outwardCode: 'M1', ids: [1, 2], minutes: 15 },
    ]],
    ['a full outward code fills a group; its overflow joins the region', [
      booking(1, 'M1'), booking(2, 'M1'), booking(3, 'M1'), booking(4, 'M1'), booking(5, 'M4'),
    ], 3, [
      { region: 'Greater Manchester', outwardCode: 'M1', ids: [1, 2, 3], minutes: 30 },
      { region: 'Greater Manchester', outwardCode: null, ids: [4, 5], minutes: 15 },
    ]],
    ['regions never mix, even next door (SK1 Stockport, SK9 Cheshire East)', [
      booking(1, 'SK1'), booking(2, 'SK9'), booking(3, 'M1'),
    ], 5, [
      { region: 'Cheshire East', outwardCode: 'SK9', ids: [2], minutes: 0 },
      { region: 'Greater Manchester', outwardCode: null, ids: [1, 3], minutes: 15 },
    ]],
    ['a region larger than the size is cut along one path: neighbours ride together', [
      booking(1, 'LS1'), booking(2, 'BD1'), booking(3, 'LS2'), booking(4, 'BD3'), booking(5, 'LS6'), booking(6, 'BD2'),
    ], 3, [
      { region: 'West Yorkshire', outwardCode: null, ids: [1, 3, 5], minutes: 30 },
      { region: 'West Yorkshire', outwardCode: null, ids: [2, 4, 6], minutes: 30 },
    ]],
    ['no pin, no known code: Unknown area, last, in id order', [
      booking(9, null), booking(7, 'ZZ9'), booking(1, 'M1'),
    ], 5, [
      { region: 'Greater Manchester', outwardCode: 'M1', ids: [1], minutes: 0 },
      { region: 'Unknown area', outwardCode: null, ids: [7, 9], minutes: 15 },
    ]],
    ['a pin without a known region is placed in Unknown area with a distance', [
      booking(3, null, [{ lat: 53.5, lng: -2.2 }]), booking(4, null),
    ], 5, [
      { region: 'Unknown area', outwardCode: null, ids: [3], minutes: 0 },
      { region: 'Unknown area', outwardCode: null, ids: [4], minutes: 0 },
    ]],
    ['the stored region wins over the table', [booking(1, 'M1', [], 'Somewhere Else')], 5, [
      { region: 'Somewhere Else', outwardCode: 'M1', ids: [1], minutes: 0 },
    ]],
    ['an empty stored region falls back to the table', [booking(1, 'M1', [], ' ')], 5, [
      { region: 'Greater Manchester', outwardCode: 'M1', ids: [1], minutes: 0 },
    ]],
  ])('%s', (_, bookings, size, expected) => {
    expect(summary(groupBookingsIntoRoutes(bookings, size))).toEqual(expected);
  });

  it('places a stop at its first pin, else at the outward-code centroid, and orders each group', () => {
    const [group] = groupBookingsIntoRoutes([
      booking(1, 'M1', [{ lat: 53.49, lng: -2.24 }, { lat: 53.2, lng: -2.1 }]),
      booking(2, 'M1'),
      booking(3, 'M1', [{ lat: 53.5, lng: -2.24 }]),
    ]);
    const visits = group!.stops.map((stop) => [stop.booking.id, stop.location]);
    // Either direction is as short.
    expect([visits, [...visits].reverse()]).toContainEqual([
      [2, { lat: 53.4773, lng: -2.2351 }],
      [1, { lat: 53.49, lng: -2.24 }],
      [3, { lat: 53.5, lng: -2.24 }],
    ]);
    expect(group!.distanceKm).toBe(2.6);
    expect(group!.mapsUrl).toBe(mapsRouteUrl(group!.stops.map((stop) => stop.location!)));
  });

  it('gives the same groups whatever the input order', () => {
    const bookings = [booking(1, 'LS1'), booking(2, 'M1'), booking(3, 'M1'), booking(4, 'S1'), booking(5, 'S18'), booking(6, null)];
    const groups = groupBookingsIntoRoutes(bookings, 3);
    expect(groupBookingsIntoRoutes([...bookings].reverse(), 3)).toEqual(groups);
    expect(groups.map((group) => group.region)).toEqual(['Derbyshire', 'Greater Manchester', 'South Yorkshire', 'West Yorkshire', 'Unknown area']);
  });

  it('refuses a size the admin does not offer', () => {
    expect(() => groupBookingsIntoRoutes([], 4 as 5)).toThrow(RangeError);
  });
});

describe('isRouteGroupSize', () => {
  it.each([
    [3, true], [5, true], [8, true], [10, true],
    [4, false], [0, false], [11, false], ['5', false], [Number.NaN, false], [undefined, false],
  ])('%j → %s', (value, allowed) => {
    expect(isRouteGroupSize(value)).toBe(allowed);
  });
});
