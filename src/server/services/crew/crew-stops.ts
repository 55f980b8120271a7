import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { crewStops } from '../../../../db/schema.ts';
import { CREW_MESSAGES, firstNameOnly, stopNavigationUrl, workHoursLabel, type CrewStopStatus } from '../../../domain/crew.ts';
import { AppError, notFound } from '../../app/errors.ts';
import type { CrewSession } from './crew-links.ts';
import { dayAssignments, dayRoutes, holderIncludes, isOnCrewDay, routeHolders } from './day-routes.ts';

// A crew's stops (api.md "Crew day"): which bookings of a London day a worker sees and may act
// on, and the status each stop reached. Which stops those are is day-routes.ts's rule, the one the
// worker e-mail follows: the stops the worker holds that staff scheduled (step 3, with that day
// as the installation date) or a crew already worked on that day, so Done still shows. Whether an
// unpaid booking is scheduled is staff's decision; its card says so.

/**
 * The worker's share of the day's bookings, in visiting order: the stops they hold (day-routes.ts).
 * `candidates` also holds the bookings expected that day that staff have not scheduled, so an
 * action on one can say why it is refused.
 */
async function workerShare(db: Database, session: CrewSession) {
  const [groups, assignments] = await Promise.all([dayRoutes(db, session.day), dayAssignments(db, session.day)]);
  const candidates = groups.flatMap((group, index) => {
    const holders = routeHolders(
      group.stops.map(({ booking }) => booking.id),
      assignments,
    );
    return group.stops
      .filter(({ booking }) => holderIncludes(holders.get(booking.id), session.worker.id))
      .map((stop) => ({ ...stop, routeNumber: index + 1 }));
  });
  const onDay = candidates.filter(({ booking }) => isOnCrewDay(booking, session.day));
  return { candidates, onDay };
}

/** The worker's stops on the day, in visiting order, without their status. */
export async function plannedStops(db: Database, session: CrewSession) {
  const { onDay } = await workerShare(db, session);
  // Route numbers are the day's, as the worker's e-mail numbers them.
  return onDay.map(({ booking, location, routeNumber }, index) => {
    const points = booking.points.length > 0 ? booking.points : location ? [location] : [];
    const point = points[0] ?? null;
    return {
      bookingId: booking.id,
      order: index + 1,
      routeNumber,
      addresses: booking.addresses,
      lat: point?.lat ?? null,
      lng: point?.lng ?? null,
      workType: booking.workType,
      hours: workHoursLabel(booking.workType),
      quantity: booking.quantity,
      customerFirstName: firstNameOnly(booking.firstName),
      unpaid: !booking.paid,
      navigationUrl: stopNavigationUrl(points),
    };
  });
}

/**
 * The stop's booking when it is on this worker's day. A booking expected that day (its preferred
 * or installation date) that staff have not scheduled is a 409 saying so; any other id is a 404,
 * whether or not it exists.
 */
export async function requireStop(db: Database, session: CrewSession, bookingId: number) {
  const { candidates, onDay } = await workerShare(db, session);
  const stop = onDay.find(({ booking }) => booking.id === bookingId);
  if (stop) return stop.booking;
  if (candidates.some(({ booking }) => booking.id === bookingId)) throw new AppError(409, CREW_MESSAGES.notScheduled);
  throw notFound(CREW_MESSAGES.stopNotFound);
}

export type StopRow = typeof crewStops.$inferSelect;

export function statusAt(row: StopRow | undefined): string | null {
  if (!row) return null;
  const at = row.status === 'done' ? row.doneAt : row.status === 'started' ? row.startedAt : row.onTheWayAt;
  return at?.toISOString() ?? null;
}

/** When the server received the tap behind the stop's status ('started' is a photo's arrival). */
export function statusReceivedAt(row: StopRow | undefined): string | null {
  if (!row) return null;
  const at =
    row.status === 'done' ? (row.doneReceivedAt ?? row.doneAt) : row.status === 'started' ? row.startedAt : (row.onTheWayReceivedAt ?? row.onTheWayAt);
  return at?.toISOString() ?? null;
}

const RANK: Record<CrewStopStatus, number> = { planned: 0, on_the_way: 1, started: 2, done: 3 };

/** The stop's row for the day, locked until the transaction ends. */
export async function lockStop(tx: Transaction, session: CrewSession, bookingId: number): Promise<StopRow | undefined> {
  const [row] = await tx
    .select()
    .from(crewStops)
    .where(and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day)))
    .for('update');
  return row;
}

const STAMP = { on_the_way: 'onTheWayAt', started: 'startedAt', done: 'doneAt' } as const;
const RECEIVED_STAMP = { on_the_way: 'onTheWayReceivedAt', started: null, done: 'doneReceivedAt' } as const;

/**
 * Moves the stop's status forward (never back: a late 'on the way' after a photo changes nothing),
 * stamping the time of each status once: when the crew tapped it (`tappedAt`, the phone's clock)
 * and when the server received it (`now`). Returns the row as it was before, or undefined.
 */
export async function advanceStop(
  tx: Transaction,
  session: CrewSession,
  bookingId: number,
  status: Exclude<CrewStopStatus, 'planned'>,
  now: Date,
  tappedAt: Date = now,
) {
  const before = await lockStop(tx, session, bookingId);
  const field = STAMP[status];
  const received = RECEIVED_STAMP[status];
  const stamps = { [field]: tappedAt, ...(received ? { [received]: now } : {}) };
  if (!before) {
    await tx
      .insert(crewStops)
      .values({ bookingId, day: session.day, status, workerId: session.worker.id, workerName: session.worker.name, ...stamps, updatedAt: now })
      .onConflictDoNothing();
    return undefined;
  }
  const moves = RANK[status] > RANK[before.status];
  if (moves || !before[field]) {
    await tx
      .update(crewStops)
      .set({
        ...(moves ? { status, workerId: session.worker.id, workerName: session.worker.name } : {}),
        ...(before[field] ? {} : stamps),
        updatedAt: now,
      })
      .where(and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day)));
  }
  return before;
}

/** Crew status per booking (its latest day), for the admin's project list and the tracking page. */
export async function crewStatusByBooking(db: Database, bookingIds: readonly number[]) {
  if (bookingIds.length === 0) return new Map<number, CrewStatus>();
  const rows = await db
    .selectDistinctOn([crewStops.bookingId])
    .from(crewStops)
    .where(inArray(crewStops.bookingId, [...bookingIds]))
    .orderBy(crewStops.bookingId, sql`${crewStops.day} desc`);
  return new Map(rows.map((row) => [row.bookingId, toCrewStatus(row)]));
}

export interface CrewStatus {
  day: string;
  status: CrewStopStatus;
  /** When the crew tapped the status, by the phone's clock (ISO). */
  at: string | null;
  /** When the server received it (ISO); later than `at` when the phone waited for signal. */
  receivedAt: string | null;
  workerName: string;
}

export function toCrewStatus(row: StopRow): CrewStatus {
  return { day: row.day, status: row.status, at: statusAt(row), receivedAt: statusReceivedAt(row), workerName: row.workerName };
}

/**
 * What the customer's tracking page shows of the crew: the status and its time on the latest day
 * a crew worked on the booking; never the worker or any position.
 */
export async function customerCrewStatus(db: Database, bookingId: number): Promise<{ status: CrewStopStatus; at: string | null } | null> {
  const status = (await crewStatusByBooking(db, [bookingId])).get(bookingId);
  return status ? { status: status.status, at: status.at } : null;
}
