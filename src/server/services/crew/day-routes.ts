import { eq, inArray, or } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingInstallationDay, bookings, crewAssignments, crewStops } from '../../../../db/schema.ts';
import { groupBookingsIntoRoutes, type RouteGroup, type RouteGroupSize } from '../../../domain/routing.ts';
import { installationDay, toLondonDate } from '../../../domain/schedule.ts';
import { WORKER_PREVIEW_MAX_ADDRESSES } from '../../../domain/workers.ts';
import { loadRoutableBookings, ROUTE_GROUP_MAX_ADDRESSES, routeGroupView, type RoutableBooking, type RouteGroupView } from './locations.ts';

// A London day's routes and who holds each stop: one rule for the Workers tab's board, the
// Locations tab's day view, the worker e-mail (the 6 PM job and staff's sends) and the crew's own
// page, so a stop goes to the same people whichever of them asks.
//
// Who holds a stop:
// - a stop staff gave to a worker goes to that worker only;
// - on a route nobody was given, every stop goes to every active worker (a one-person business
//   never has to assign anything);
// - on a route where staff gave any stop to a worker, a stop given to nobody (a booking that
//   joined the route later) waits for staff: no worker gets it until staff give it to someone.
// Of what a worker holds, the e-mail and the crew's page list only the stops staff scheduled
// (step 3 with that installation date), and any stop a crew already worked on that day.

/**
 * One crew covers a day, so a day is cut into the largest groups the Locations tab offers:
 * neighbours ride together and a route still fits one maps link (10 stops).
 */
export const WORKER_ROUTE_GROUP_SIZE: RouteGroupSize = 10;

export interface DayBooking extends RoutableBooking {
  /** A crew already acted on this stop that day (On my way, a photo, Done). */
  workedOn: boolean;
}

/** Who gets a stop: a worker's id, every active worker, or nobody until staff choose. */
export type StopHolder = { kind: 'worker'; workerId: number } | { kind: 'everyone' } | { kind: 'waiting' };

export interface WorkerPreviewBooking {
  bookingId: number;
  customerName: string;
  postcode: string | null;
  addresses: string[];
  workType: 'day' | 'night';
  /** The worker staff gave the stop to; null: nobody (see `waiting`). */
  workerId: number | null;
  /** Given to nobody on a route staff gave to someone: no worker gets it until staff assign it. */
  waiting: boolean;
  /** On the crew's day: staff scheduled it (step 3, this installation date), or a crew worked on it. */
  scheduled: boolean;
}

export interface WorkerPreviewRoute {
  routeNumber: number;
  stops: number;
  distanceKm: number | null;
  mapsUrl: string | null;
  /** The one worker every assigned stop of the route went to; null: nobody, or several workers. */
  workerId: number | null;
  bookings: WorkerPreviewBooking[];
}

/** Staff scheduled the booking's installation for `day`. */
export function isScheduledFor(booking: Pick<RoutableBooking, 'currentStep' | 'installationDate'>, day: string): boolean {
  return booking.currentStep === 3 && booking.installationDate !== null && toLondonDate(booking.installationDate) === day;
}

/**
 * The bookings a London day's crews visit: those expected on it (installation date, else the
 * preferred date), plus any a crew already worked on that day (a night shift marked done after
 * midnight moves its installation date to the next morning, and must stay on the crew's list).
 */
export async function loadDayBookings(db: Database, date: string): Promise<DayBooking[]> {
  const worked = new Set((await db.select({ id: crewStops.bookingId }).from(crewStops).where(eq(crewStops.day, date))).map((row) => row.id));
  // The booking's day is the one indexed expression (db/schema.ts bookingInstallationDay).
  const candidates = await loadRoutableBookings(
    db,
    or(eq(bookingInstallationDay(bookings), date), worked.size > 0 ? inArray(bookings.id, [...worked]) : undefined),
  );
  return candidates
    .filter((booking) => installationDay(booking) === date || worked.has(booking.id))
    .map((booking) => ({ ...booking, workedOn: worked.has(booking.id) }));
}

/** Whether the crew's day lists the stop: scheduled for the day, or already worked on. */
export function isOnCrewDay(booking: DayBooking, date: string): boolean {
  return isScheduledFor(booking, date) || booking.workedOn;
}

/** A day's routes in visiting order, as the e-mail, the board and the crew page number them. */
export async function dayRoutes(db: Database, date: string): Promise<RouteGroup<DayBooking>[]> {
  return groupBookingsIntoRoutes(await loadDayBookings(db, date), WORKER_ROUTE_GROUP_SIZE);
}

/** Who each booking of the day was given to (absent: nobody). */
export async function dayAssignments(db: Database, date: string): Promise<Map<number, number>> {
  const rows = await db
    .select({ bookingId: crewAssignments.bookingId, workerId: crewAssignments.workerId })
    .from(crewAssignments)
    .where(eq(crewAssignments.day, date));
  return new Map(rows.map((row) => [row.bookingId, row.workerId]));
}

/** The holder of each stop of one route, by booking id (the rule at the top of this file). */
export function routeHolders(bookingIds: readonly number[], assignments: ReadonlyMap<number, number>): Map<number, StopHolder> {
  const routeIsGiven = bookingIds.some((id) => assignments.has(id));
  return new Map(
    bookingIds.map((id): [number, StopHolder] => {
      const workerId = assignments.get(id);
      if (workerId !== undefined) return [id, { kind: 'worker', workerId }];
      return [id, routeIsGiven ? { kind: 'waiting' } : { kind: 'everyone' }];
    }),
  );
}

/** Whether `workerId` (null: an address that is no worker's) gets a stop with this holder. */
export function holderIncludes(holder: StopHolder | undefined, workerId: number | null): boolean {
  if (!holder || holder.kind === 'waiting') return false;
  return holder.kind === 'everyone' || holder.workerId === workerId;
}

/** Who holds each stop of a route view and whether the crew's day lists it. */
function holdersOf<V extends RouteGroupView>(view: V, group: RouteGroup<DayBooking>, assignments: ReadonlyMap<number, number>, date: string) {
  const ids = view.bookings.map((booking) => booking.bookingId);
  const holders = routeHolders(ids, assignments);
  const given = new Set(ids.flatMap((id) => (assignments.has(id) ? [assignments.get(id)!] : [])));
  return {
    workerId: given.size === 1 ? [...given][0]! : null,
    bookings: view.bookings.map((booking, position) => ({
      ...booking,
      workerId: assignments.get(booking.bookingId) ?? null,
      waiting: holders.get(booking.bookingId)?.kind === 'waiting',
      scheduled: isOnCrewDay(group.stops[position]!.booking, date),
    })),
  };
}

/** The routes of a London day, each stop with who holds it and whether the crew's day lists it. */
export async function dayPreviewRoutes(db: Database, date: string): Promise<WorkerPreviewRoute[]> {
  const [groups, assignments] = await Promise.all([dayRoutes(db, date), dayAssignments(db, date)]);
  return groups.map((group, index) => {
    const view = routeGroupView(group, index, WORKER_PREVIEW_MAX_ADDRESSES);
    const held = holdersOf(view, group, assignments, date);
    return {
      routeNumber: view.routeNumber,
      stops: view.stops,
      distanceKm: view.distanceKm,
      mapsUrl: view.mapsUrl,
      workerId: held.workerId,
      bookings: held.bookings.map(({ bookingId, customerName, postcode, addresses, workType, workerId, waiting, scheduled }) => ({
        bookingId,
        customerName,
        postcode,
        addresses,
        workType,
        workerId,
        waiting,
        scheduled,
      })),
    };
  });
}

export interface DayRouteGroup extends RouteGroupView {
  /** As WorkerPreviewRoute's. */
  workerId: number | null;
  bookings: (RouteGroupView['bookings'][number] & Pick<WorkerPreviewBooking, 'workerId' | 'waiting' | 'scheduled'>)[];
}

/**
 * The Locations tab's route groups for one crew day: the day's routes, numbered as the Workers
 * tab and the worker e-mail number them, with who holds each stop, so either tab can assign them.
 */
export async function dayRouteGroups(db: Database, date: string): Promise<DayRouteGroup[]> {
  const [groups, assignments] = await Promise.all([dayRoutes(db, date), dayAssignments(db, date)]);
  return groups.map((group, index) => {
    const view = routeGroupView(group, index, ROUTE_GROUP_MAX_ADDRESSES);
    return { ...view, ...holdersOf(view, group, assignments, date) };
  });
}

/**
 * The part of the day a worker's e-mail lists: the stops they hold that are on the crew's day.
 * A route keeps its maps link only when no stop was taken out of it.
 */
export function routesForWorker(routes: readonly WorkerPreviewRoute[], workerId: number | null): WorkerPreviewRoute[] {
  return routes.flatMap((route) => {
    const holders = routeHolders(
      route.bookings.map((booking) => booking.bookingId),
      new Map(route.bookings.flatMap((booking) => (booking.workerId === null ? [] : [[booking.bookingId, booking.workerId] as const]))),
    );
    const kept = route.bookings.filter((booking) => booking.scheduled && holderIncludes(holders.get(booking.bookingId), workerId));
    if (kept.length === 0) return [];
    return [{ ...route, stops: kept.length, bookings: kept, mapsUrl: kept.length === route.bookings.length ? route.mapsUrl : null }];
  });
}
