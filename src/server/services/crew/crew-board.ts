import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { crewAssignments, crewLinks, crewStops, workers } from '../../../../db/schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import { badRequest, notFound } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { revokeCrewLinks, workerDisplayName } from './crew-links.ts';
import { toCrewStatus, type CrewStatus } from './crew-stops.ts';
import { dayPreviewRoutes } from './day-routes.ts';
import { sendDayEmails } from './worker-notifications.ts';
import { crewPhotoProofs, type CrewPhotoProof } from './photo-proof.ts';

// The Workers tab's view of a crew day (api.md "Crew day", staff side): which worker has which
// route, where each stop stands, and each worker's link, which staff can revoke or send again.

export interface CrewBoardStop {
  bookingId: number;
  customerName: string;
  address: string | null;
  workType: 'day' | 'night';
  crew: CrewStatus | null;
  /** The worker staff gave the stop to; null: nobody. */
  workerId: number | null;
  /** Joined a route staff gave to someone: no worker gets it until staff assign it. */
  waiting: boolean;
  /** Staff scheduled it for the day (step 3), or a crew worked on it: the crew's page lists it. */
  scheduled: boolean;
  /** The crew's photos of the stop: time, place and worker, as proof. */
  photos: CrewPhotoProof[];
}

export interface CrewBoardRoute {
  routeNumber: number;
  /** The one worker the route's assigned stops went to; null: nobody, or several workers. */
  workerId: number | null;
  /** Who holds the route: every active worker, one worker, or several (some stops each). */
  given: 'everyone' | 'worker' | 'several';
  stops: CrewBoardStop[];
}

export interface CrewBoardWorker {
  id: number;
  name: string;
  email: string;
  active: boolean;
  /** The worker's newest link for the day, if any. */
  link: { createdAt: string; expiresAt: string; state: 'live' | 'expired' | 'revoked' } | null;
}

export interface CrewBoard {
  date: string;
  routes: CrewBoardRoute[];
  workers: CrewBoardWorker[];
}

export async function crewBoard(db: Database, date: string, now: Date): Promise<CrewBoard> {
  const routes = await dayPreviewRoutes(db, date);
  const ids = routes.flatMap((route) => route.bookings.map((booking) => booking.bookingId));
  const [stopRows, workerRows, linkRows, proofs] = await Promise.all([
    ids.length ? db.select().from(crewStops).where(and(eq(crewStops.day, date), inArray(crewStops.bookingId, ids))) : [],
    db.select().from(workers).orderBy(asc(workers.id)),
    db.select().from(crewLinks).where(eq(crewLinks.day, date)).orderBy(desc(crewLinks.createdAt)),
    crewPhotoProofs(db, ids),
  ]);
  const status = new Map(stopRows.map((row) => [row.bookingId, toCrewStatus(row)]));
  const newestLink = new Map<number, (typeof linkRows)[number]>();
  for (const link of linkRows) if (!newestLink.has(link.workerId)) newestLink.set(link.workerId, link);
  return {
    date,
    routes: routes.map((route) => ({
      routeNumber: route.routeNumber,
      workerId: route.workerId,
      given: route.workerId !== null ? 'worker' : route.bookings.some((booking) => booking.workerId !== null) ? 'several' : 'everyone',
      stops: route.bookings.map((booking) => ({
        bookingId: booking.bookingId,
        customerName: booking.customerName,
        address: booking.addresses[0] ?? null,
        workType: booking.workType,
        crew: status.get(booking.bookingId) ?? null,
        workerId: booking.workerId,
        waiting: booking.waiting,
        scheduled: booking.scheduled,
        photos: proofs.filter((photo) => photo.bookingId === booking.bookingId),
      })),
    })),
    workers: workerRows.map((worker) => {
      const link = newestLink.get(worker.id);
      return {
        id: worker.id,
        name: workerDisplayName(worker),
        email: worker.email,
        active: worker.active,
        link: link
          ? {
              createdAt: link.createdAt.toISOString(),
              expiresAt: link.expiresAt.toISOString(),
              state: link.revokedAt ? 'revoked' : link.expiresAt <= now ? 'expired' : 'live',
            }
          : null,
      };
    }),
  };
}

async function requireWorker(db: Database, workerId: number) {
  const [worker] = await db.select().from(workers).where(eq(workers.id, workerId));
  if (!worker) throw notFound('Worker not found');
  return worker;
}

/**
 * Gives the day's stops to a worker (null: to nobody, which is every active worker once no stop of
 * the route is given to anyone; day-routes.ts). The Workers and Locations tabs send a whole
 * route's bookings, or the stops waiting on it. Stops not on the day are refused.
 */
export async function assignStops(db: Database, date: string, bookingIds: readonly number[], workerId: number | null, userId: string) {
  const onDay = new Set((await dayPreviewRoutes(db, date)).flatMap((route) => route.bookings.map((booking) => booking.bookingId)));
  if (bookingIds.some((id) => !onDay.has(id))) throw badRequest(`Every booking must be on the route for ${date}`);
  const worker = workerId === null ? null : await requireWorker(db, workerId);
  await db.transaction(async (tx) => {
    await tx.delete(crewAssignments).where(and(eq(crewAssignments.day, date), inArray(crewAssignments.bookingId, [...bookingIds])));
    if (worker) await tx.insert(crewAssignments).values(bookingIds.map((bookingId) => ({ bookingId, day: date, workerId: worker.id })));
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'crew_route_assigned',
      entityType: 'worker',
      entityId: worker?.id,
      userId,
      details: `${bookingIds.length} stop(s) on ${date} given to ${worker ? worker.email : 'nobody'}`,
      metadata: { date, bookingIds, workerId },
    });
  });
}

/** Staff's Revoke: the worker's links for the day stop working at once (410). */
export async function revokeWorkerLinks(db: Database, workerId: number, date: string, now: Date, userId: string): Promise<number> {
  const worker = await requireWorker(db, workerId);
  return db.transaction(async (tx) => {
    const count = await revokeCrewLinks(tx as unknown as Database, workerId, date, now);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'crew_link_revoked',
      entityType: 'worker',
      entityId: workerId,
      userId,
      details: `Crew link for ${date} of ${worker.email} revoked (${count} link(s))`,
    });
    return count;
  });
}

/** Staff's Resend: the worker's day again, with a new link (the older ones stop working). */
export async function resendWorkerLink(deps: Pick<AppDeps, 'db' | 'mailer' | 'env'>, workerId: number, date: string, now: Date, userId: string) {
  const worker = await requireWorker(deps.db, workerId);
  if (!worker.active) throw badRequest('Activate this worker before sending them their day.');
  return sendDayEmails(deps, now, date, [{ id: worker.id, email: worker.email, name: worker.name }], userId);
}
