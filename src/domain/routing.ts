import { outcodeInfo, regionForOutwardCode } from './postcodes.ts';
import { DEFAULT_ROUTE_GROUP_SIZE, ROUTE_GROUP_SIZES, isRouteGroupSize, type RouteGroupSize } from './route-group-sizes.ts';

// Route groups for the admin's Route Groups tab and the worker e-mail (admin-dashboard.md:
// "groups bookings by the same postcode outward code or the same region. Group size options are
// 3, 5, 8, 10 (default 5). Estimated saving is 15 minutes per stop."). Pure: the caller loads the
// bookings; distances are straight lines, good enough to order a dozen stops in one town.
// Server-only, like postcodes.ts whose outward-code table it reads: islands get `mapsUrl` from the API.

export interface LatLng {
  lat: number;
  lng: number;
}

/** Mean Earth radius (IUGG), km. */
const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance between two points, km. */
export function haversineKm(a: LatLng, b: LatLng): number {
  const dLat = toRadians(b.lat - a.lat);
  const dLng = toRadians(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.lat)) * Math.cos(toRadians(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Length of an open path through the points in order, km (0 for fewer than two). */
export function pathLengthKm(points: readonly LatLng[]): number {
  let total = 0;
  for (let index = 1; index < points.length; index += 1) total += haversineKm(points[index - 1]!, points[index]!);
  return total;
}

export interface OrderedRoute<T extends LatLng> {
  /** The same stops, in visiting order. */
  stops: T[];
  /** Length of the open path (not back to the start), km; from `start` to the first stop when given. */
  distanceKm: number;
}

export interface OrderRouteOptions {
  /** Where the worker sets out (not a stop). Without it, the route may begin at any stop. */
  start?: LatLng;
}

/** Improvements smaller than this (km) are rounding noise; stopping on them keeps 2-opt finite. */
const EPSILON_KM = 1e-9;

/** Distances between nodes 0..n-1, computed once: 2-opt reads each many times. */
type Distance = (a: number, b: number) => number;

function distanceTable(nodes: readonly LatLng[]): Distance {
  const n = nodes.length;
  const table = new Float64Array(n * n);
  for (let a = 0; a < n; a += 1) {
    for (let b = a + 1; b < n; b += 1) {
      table[a * n + b] = table[b * n + a] = haversineKm(nodes[a]!, nodes[b]!);
    }
  }
  return (a, b) => table[a * n + b]!;
}

const lengthOf = (path: readonly number[], distance: Distance) =>
  path.reduce((total, node, index) => (index === 0 ? 0 : total + distance(path[index - 1]!, node)), 0);

/**
 * Nearest neighbour over node indices, beginning at `path[0]`.
 * Ties go to the earlier node, so the result depends only on the input order.
 */
function nearestNeighbour(path: readonly number[], distance: Distance): number[] {
  const result = path.slice(0, 1);
  const left = path.slice(1);
  while (left.length > 0) {
    const from = result.at(-1)!;
    let best = 0;
    for (let index = 1; index < left.length; index += 1) {
      if (distance(from, left[index]!) < distance(from, left[best]!) - EPSILON_KM) best = index;
    }
    result.push(left.splice(best, 1)[0]!);
  }
  return result;
}

/**
 * 2-opt on an open path: reverse any segment [i..j] (i >= firstMovable) that shortens the path,
 * until none does. Reversing a segment that touches an end moves that end, so a path whose start
 * is free also finds its best end points (shuffled points on a line come out in line order).
 */
function twoOpt(path: readonly number[], firstMovable: number, distance: Distance): number[] {
  const result = [...path];
  const last = result.length - 1;
  // A missing neighbour (beyond either end of the open path) costs nothing.
  const leg = (a: number, b: number) => (a < 0 || b > last ? 0 : distance(result[a]!, result[b]!));
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = firstMovable; i < last; i += 1) {
      for (let j = i + 1; j <= last; j += 1) {
        const before = leg(i - 1, i) + leg(j, j + 1);
        const after = (i === 0 ? 0 : distance(result[i - 1]!, result[j]!)) + (j === last ? 0 : distance(result[i]!, result[j + 1]!));
        if (after < before - EPSILON_KM) {
          result.splice(i, j - i + 1, ...result.slice(i, j + 1).reverse());
          improved = true;
        }
      }
    }
  }
  return result;
}

/**
 * A short visiting order for the stops: nearest neighbour from the first stop (or from `start`),
 * then 2-opt. The input order is improved the same way and the shorter result is kept, so the
 * route is never longer than the order given. Deterministic for a given input order.
 */
export function orderRoute<T extends LatLng>(stops: readonly T[], options: OrderRouteOptions = {}): OrderedRoute<T> {
  const { start } = options;
  // Node 0 is the start when given: fixed first, and dropped from the stops returned.
  const nodes: LatLng[] = start ? [start, ...stops] : [...stops];
  const distance = distanceTable(nodes);
  const given = nodes.map((_, index) => index);
  const firstMovable = start ? 1 : 0;
  const candidates = [nearestNeighbour(given, distance), given].map((path) => twoOpt(path, firstMovable, distance));
  const lengths = candidates.map((path) => lengthOf(path, distance));
  const best = lengths[1]! < lengths[0]! - EPSILON_KM ? 1 : 0;
  return {
    stops: candidates[best]!.slice(firstMovable).map((node) => nodes[node] as T),
    distanceKm: lengths[best]!,
  };
}

// ---------------------------------------------------------------- grouping bookings

export { DEFAULT_ROUTE_GROUP_SIZE, ROUTE_GROUP_SIZES, isRouteGroupSize, type RouteGroupSize } from './route-group-sizes.ts';
/** admin-dashboard.md: "Estimated saving is 15 minutes per stop". */
export const MINUTES_SAVED_PER_STOP = 15;

/**
 * The spec's 15 minutes for each stop after the first: the first stop is a trip the crew makes
 * anyway, so a one-stop route saves nothing.
 */
export function estimatedMinutesSaved(stopCount: number): number {
  return MINUTES_SAVED_PER_STOP * Math.max(0, stopCount - 1);
}
/** The region of bookings whose region cannot be told. */
export const UNKNOWN_AREA = 'Unknown area';

export interface RoutingBooking {
  id: number;
  /** Outward code of the booking's first location ('M1'), if known. */
  outwardCode: string | null;
  /** Region as stored on the booking; when null, the outward code's region from the table. */
  region: string | null;
  /** The booking's pinned locations, first first. */
  points: readonly LatLng[];
}

/** One stop: a whole booking, placed at its first pin or, without pins, its outward code's centroid. */
export interface RouteStop<B extends RoutingBooking> {
  booking: B;
  /** Null only in the 'Unknown area' group. */
  location: LatLng | null;
}

export interface RouteGroup<B extends RoutingBooking> {
  region: string;
  /** The outward code every stop shares, or null for a group merged across a region. */
  outwardCode: string | null;
  /** In visiting order (orderRoute). */
  stops: RouteStop<B>[];
  /** Open-path length, km to 1 decimal; null for the 'Unknown area' group of bookings without a place. */
  distanceKm: number | null;
  estimatedMinutesSaved: number;
  /** mapsRouteUrl of the stops; null when they have no place. */
  mapsUrl: string | null;
}

interface PlacedStop<B extends RoutingBooking> extends LatLng {
  booking: B;
}

const compareText = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/**
 * Bookings grouped into routes of at most `size` stops (admin-dashboard.md, api.md
 * `GET /api/locations/grouping`).
 *
 * 1. Each booking is one stop at its FIRST point (the location its postcode and region were
 *    derived from), else at its outward code's centroid. A booking with neither goes to an
 *    'Unknown area' group, in id order, with no distance.
 * 2. Bookings sharing an outward code fill groups of `size`.
 * 3. What is left of each region (codes with fewer than `size` bookings, and overflow) is laid
 *    out along one short path through the region and cut into groups of `size`, so neighbours
 *    ride together.
 * 4. Each group is ordered with orderRoute.
 *
 * The output does not depend on the input order: bookings are first sorted by region, outward
 * code and id, and groups come out sorted by region, outward code and first booking id, with
 * 'Unknown area' last.
 */
export function groupBookingsIntoRoutes<B extends RoutingBooking>(
  bookings: readonly B[],
  size: RouteGroupSize = DEFAULT_ROUTE_GROUP_SIZE,
): RouteGroup<B>[] {
  if (!isRouteGroupSize(size)) throw new RangeError(`Route group size must be one of ${ROUTE_GROUP_SIZES.join(', ')}`);

  const placed: { region: string; code: string; stop: PlacedStop<B> }[] = [];
  const unplaced: B[] = [];
  for (const booking of bookings) {
    const code = booking.outwardCode?.trim().toUpperCase() || null;
    const point = booking.points[0] ?? (code ? outcodeInfo(code) : null);
    if (!point) {
      unplaced.push(booking);
      continue;
    }
    const region = booking.region?.trim() || (code ? regionForOutwardCode(code) : null) || UNKNOWN_AREA;
    placed.push({ region, code: code ?? '', stop: { booking, lat: point.lat, lng: point.lng } });
  }
  placed.sort((a, b) => compareText(a.region, b.region) || compareText(a.code, b.code) || a.stop.booking.id - b.stop.booking.id);

  const groups: RouteGroup<B>[] = [];
  const toGroup = (region: string, outwardCode: string | null, stops: PlacedStop<B>[]) => {
    const route = orderRoute(stops);
    groups.push({
      region,
      outwardCode,
      stops: route.stops.map(({ booking, lat, lng }) => ({ booking, location: { lat, lng } })),
      distanceKm: Math.round(route.distanceKm * 10) / 10,
      estimatedMinutesSaved: estimatedMinutesSaved(stops.length),
      mapsUrl: mapsRouteUrl(route.stops),
    });
  };

  const leftByRegion = new Map<string, PlacedStop<B>[]>();
  for (const [key, members] of groupBy(placed, (entry) => `${entry.region}\u0000${entry.code}`)) {
    const [region, code] = key.split('\u0000') as [string, string];
    const stops = members.map((entry) => entry.stop);
    let next = 0;
    for (; code && stops.length - next >= size; next += size) toGroup(region, code, stops.slice(next, next + size));
    leftByRegion.set(region, [...(leftByRegion.get(region) ?? []), ...stops.slice(next)]);
  }
  for (const [region, stops] of leftByRegion) {
    const path = orderRoute(stops).stops;
    for (let next = 0; next < path.length; next += size) {
      const chunk = path.slice(next, next + size);
      const codes = new Set(chunk.map((stop) => stop.booking.outwardCode?.trim().toUpperCase() || null));
      toGroup(region, codes.size === 1 ? [...codes][0]! : null, chunk);
    }
  }

  const unknown = [...unplaced].sort((a, b) => a.id - b.id);
  const located = groups.sort(
    (a, b) =>
      Number(a.region === UNKNOWN_AREA) - Number(b.region === UNKNOWN_AREA)
      || compareText(a.region, b.region)
      || compareText(a.outwardCode ?? '\uffff', b.outwardCode ?? '\uffff')
      || minId(a) - minId(b),
  );
  for (let next = 0; next < unknown.length; next += size) {
    const chunk = unknown.slice(next, next + size);
    located.push({
      region: UNKNOWN_AREA,
      outwardCode: null,
      stops: chunk.map((booking) => ({ booking, location: null })),
      distanceKm: null,
      estimatedMinutesSaved: estimatedMinutesSaved(chunk.length),
      mapsUrl: null,
    });
  }
  return located;
}

const minId = (group: RouteGroup<RoutingBooking>) => Math.min(...group.stops.map((stop) => stop.booking.id));

/** Entries grouped by key, keys in first-seen order. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(keyOf(item), [...(map.get(keyOf(item)) ?? []), item]);
  return map;
}

// ---------------------------------------------------------------- maps link

const coordinate = (point: LatLng) => `${Number(point.lat.toFixed(6))},${Number(point.lng.toFixed(6))}`;

/**
 * A Google Maps directions link that opens the stops, in order, in a phone's maps app: origin the
 * first stop, destination the last, the rest as waypoints (the app takes up to 9, enough for a
 * group of 10). One stop gives a destination only, so directions start where the worker is.
 */
export function mapsRouteUrl(stops: readonly LatLng[]): string {
  if (stops.length === 0) throw new RangeError('A route needs at least one stop');
  const params: [string, string][] = [['api', '1']];
  if (stops.length > 1) params.push(['origin', coordinate(stops[0]!)]);
  params.push(['destination', coordinate(stops.at(-1)!)]);
  if (stops.length > 2) params.push(['waypoints', stops.slice(1, -1).map(coordinate).join('|')]);
  params.push(['travelmode', 'driving']);
  return `https://www.google.com/maps/dir/?${params.map(([key, value]) => `${key}=${encodeURIComponent(value)}`).join('&')}`;
}
