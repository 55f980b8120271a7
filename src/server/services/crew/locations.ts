import { and, asc, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingLocations, bookings } from '../../../../db/schema.ts';
import {
  groupBookingsIntoRoutes,
  type LatLng,
  type RouteGroup,
  type RouteGroupSize,
  type RoutingBooking,
} from '../../../domain/routing.ts';
import { splitAddresses } from '../../../domain/booking-limits.ts';

// The admin's Locations tab (admin-dashboard.md §2): region counts and route groups, and the
// booking loader the worker e-mail shares. Grouping itself is the pure rule in domain/routing.ts.

/** The name By Region gives bookings whose region could not be told from their address. */
export const UNKNOWN_REGION = 'Unknown';
/** admin-dashboard.md §2: "up to 2 or 3 addresses are displayed per booking". */
export const ROUTE_GROUP_MAX_ADDRESSES = 3;

/** Statuses whose bookings need no visit: a route never includes them. */
const NOT_ROUTED = ['cancelled', 'completed'];

/** `{"<region>": count}` over bookings that are neither archived nor cancelled (api.md). */
export async function regionCounts(db: Database): Promise<Record<string, number>> {
  const region = sql<string>`coalesce(nullif(trim(${bookings.region}), ''), ${UNKNOWN_REGION})`;
  const rows = await db
    .select({ region, count: sql<number>`count(*)::int` })
    .from(bookings)
    .where(and(eq(bookings.archived, false), sql`${bookings.status} <> 'cancelled'`))
    // By position: the fallback name is a bound parameter, so the expression never matches itself.
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return Object.fromEntries(rows.map((row) => [row.region, Number(row.count)]));
}

export interface RoutableBooking extends RoutingBooking {
  customerName: string;
  firstName: string;
  workType: 'day' | 'night';
  quantity: number;
  preferredDate: string;
  installationDate: Date | null;
  /** The project's step (1-5): a crew works only on step 3, Installation Scheduled. */
  currentStep: number;
  paid: boolean;
  /** The booking's addresses as the customer gave them ('; '-separated), trimmed. */
  addresses: string[];
}

/**
 * Active bookings (not archived, cancelled or completed) that match `where`, with their pinned
 * locations: two queries in all, whatever the number of bookings.
 */
export async function loadRoutableBookings(db: Database, where?: SQL): Promise<RoutableBooking[]> {
  const rows = await db
    .select({
      id: bookings.id,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      workType: bookings.workType,
      quantity: bookings.quantity,
      locationAddress: bookings.locationAddress,
      postcode: bookings.postcode,
      region: bookings.region,
      preferredDate: bookings.preferredDate,
      installationDate: bookings.installationDate,
      currentStep: bookings.currentStep,
      paymentStatus: bookings.paymentStatus,
    })
    .from(bookings)
    .where(and(eq(bookings.archived, false), notInArray(bookings.status, NOT_ROUTED), where))
    .orderBy(asc(bookings.id));
  if (rows.length === 0) return [];

  const pins = await db
    .select({ bookingId: bookingLocations.bookingId, lat: bookingLocations.lat, lng: bookingLocations.lng })
    .from(bookingLocations)
    .where(
      inArray(
        bookingLocations.bookingId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(bookingLocations.bookingId), asc(bookingLocations.position));
  const pinsByBooking = new Map<number, LatLng[]>();
  for (const pin of pins) {
    pinsByBooking.set(pin.bookingId, [...(pinsByBooking.get(pin.bookingId) ?? []), { lat: pin.lat, lng: pin.lng }]);
  }

  return rows.map((row) => ({
    id: row.id,
    outwardCode: row.postcode,
    region: row.region,
    points: pinsByBooking.get(row.id) ?? [],
    customerName: `${row.firstName} ${row.lastName}`.trim(),
    firstName: row.firstName,
    workType: row.workType,
    quantity: row.quantity,
    preferredDate: row.preferredDate,
    installationDate: row.installationDate,
    currentStep: row.currentStep,
    paid: row.paymentStatus === 'paid',
    addresses: splitAddresses(row.locationAddress),
  }));
}

export interface RouteGroupBooking {
  bookingId: number;
  customerName: string;
  postcode: string | null;
  region: string | null;
  preferredDate: string;
  workType: 'day' | 'night';
  addresses: string[];
  /** The booking's pins; a booking without pins shows at its outward code's centroid. */
  points: LatLng[];
}

export interface RouteGroupView {
  routeNumber: number;
  /** What the stops share: the outward code, else the region. */
  area: string;
  region: string;
  stops: number;
  distanceKm: number | null;
  estimatedMinutesSaved: number;
  mapsUrl: string | null;
  /** In visiting order. */
  bookings: RouteGroupBooking[];
}

export function routeGroupView(group: RouteGroup<RoutableBooking>, index: number, maxAddresses: number): RouteGroupView {
  return {
    routeNumber: index + 1,
    area: group.outwardCode ?? group.region,
    region: group.region,
    stops: group.stops.length,
    distanceKm: group.distanceKm,
    estimatedMinutesSaved: group.estimatedMinutesSaved,
    mapsUrl: group.mapsUrl,
    bookings: group.stops.map(({ booking, location }) => ({
      bookingId: booking.id,
      customerName: booking.customerName,
      postcode: booking.outwardCode,
      region: booking.region,
      preferredDate: booking.preferredDate,
      workType: booking.workType,
      addresses: booking.addresses.slice(0, maxAddresses),
      points: booking.points.length > 0 ? [...booking.points] : location ? [location] : [],
    })),
  };
}

/** api.md `GET /api/locations/grouping`: the active bookings in routes of at most `size` stops. */
export async function activeRouteGroups(db: Database, size: RouteGroupSize): Promise<RouteGroupView[]> {
  const routable = await loadRoutableBookings(db);
  return groupBookingsIntoRoutes(routable, size).map((group, index) =>
    routeGroupView(group, index, ROUTE_GROUP_MAX_ADDRESSES),
  );
}
