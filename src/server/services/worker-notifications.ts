import { randomUUID } from 'node:crypto';
import { and, asc, eq, gte, lt, or } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { bookings, jobRuns, workers } from '../../../db/schema.ts';
import { addDays } from '../../domain/format.ts';
import { groupBookingsIntoRoutes, type RouteGroupSize } from '../../domain/routing.ts';
import { installationDay, isWorkerNotificationHour, londonTomorrow, workerRunKey } from '../../domain/schedule.ts';
import { WORKER_MESSAGES, WORKER_PREVIEW_MAX_ADDRESSES } from '../../domain/workers.ts';
import type { AppDeps } from '../api/deps.ts';
import { conflict } from '../api/errors.ts';
import { queueEmail } from '../providers/email.ts';
import { writeChannelLog } from './channel-log.ts';
import { loadRoutableBookings, routeGroupView, type RoutableBooking } from './locations.ts';
import { workerRoutesEmail } from '../email/templates/index.ts';

// Tomorrow's routes for the installers (admin-dashboard.md §2 Workers tab, §9 "Worker
// notifications sent daily at 6 PM for the next day"): the preview, the manual send and the
// scheduled 6 PM job share one loader and one sender.

/**
 * One crew covers a day, so tomorrow is cut into the largest groups the Locations tab offers:
 * neighbours ride together and a route still fits one maps link (10 stops).
 */
export const WORKER_ROUTE_GROUP_SIZE: RouteGroupSize = 10;
export const WORKER_NOTIFICATION_JOB = 'worker-notifications';

export interface WorkerPreviewRoute {
  routeNumber: number;
  stops: number;
  distanceKm: number | null;
  mapsUrl: string | null;
  bookings: { bookingId: number; customerName: string; postcode: string | null; addresses: string[] }[];
}

export interface WorkerPreview {
  /** Tomorrow in London, 'YYYY-MM-DD'. */
  date: string;
  bookingsCount: number;
  routesCount: number;
  routes: WorkerPreviewRoute[];
}

/** A booking is on the day the crew is expected (domain/schedule.ts installationDay). */
function isOnDay(booking: RoutableBooking, date: string): boolean {
  return installationDay(booking) === date;
}

/** The routes for the London day after `now` (api.md `GET /api/worker-notifications/preview`). */
export async function workerPreview(db: Database, now: Date): Promise<WorkerPreview> {
  const date = londonTomorrow(now);
  // A wide UTC window around the date finds every installation that can fall on it in London;
  // isOnDay then reads each on London's clock.
  const from = new Date(`${addDays(date, -1)}T00:00:00Z`);
  const to = new Date(`${addDays(date, 2)}T00:00:00Z`);
  const candidates = await loadRoutableBookings(
    db,
    or(eq(bookings.preferredDate, date), and(gte(bookings.installationDate, from), lt(bookings.installationDate, to))),
  );
  const tomorrow = candidates.filter((booking) => isOnDay(booking, date));
  const routes = groupBookingsIntoRoutes(tomorrow, WORKER_ROUTE_GROUP_SIZE).map((group, index) => {
    const view = routeGroupView(group, index, WORKER_PREVIEW_MAX_ADDRESSES);
    return {
      routeNumber: view.routeNumber,
      stops: view.stops,
      distanceKm: view.distanceKm,
      mapsUrl: view.mapsUrl,
      bookings: view.bookings.map(({ bookingId, customerName, postcode, addresses }) => ({ bookingId, customerName, postcode, addresses })),
    };
  });
  return { date, bookingsCount: tomorrow.length, routesCount: routes.length, routes };
}

export interface Recipient {
  email: string;
  name: string | null;
}

export type SendDeps = Pick<AppDeps, 'db' | 'mailer'>;

/**
 * Queues one e-mail per recipient in one transaction with its channel log, then delivers them.
 * The job's dedupe key is the worker and the date, so a retried run mails nobody twice; a manual
 * send adds a nonce, because pressing Send again is how an admin resends.
 * Returns how many e-mails were queued (0 when all were already queued).
 */
async function queueRouteEmails(
  tx: Database,
  preview: WorkerPreview,
  recipients: readonly Recipient[],
  options: { nonce: string | null; userId: string },
): Promise<string[]> {
  const keys: string[] = [];
  for (const recipient of recipients) {
    const dedupeKey = ['worker-routes', preview.date, recipient.email, ...(options.nonce ? [options.nonce] : [])].join(':');
    const queued = await queueEmail(
      tx,
      workerRoutesEmail({ to: recipient.email, name: recipient.name, date: preview.date, routes: preview.routes, dedupeKey }),
    );
    if (!queued) continue;
    keys.push(dedupeKey);
    await writeChannelLog(tx, {
      channel: 'notification',
      action: 'worker_routes_sent',
      entityType: 'worker',
      entityId: recipient.email,
      userId: options.userId,
      details: `Routes for ${preview.date} (${preview.routesCount} routes, ${preview.bookingsCount} bookings) to ${recipient.email}`,
      metadata: { date: preview.date, routes: preview.routesCount, bookings: preview.bookingsCount, manual: options.nonce !== null },
    });
  }
  return keys;
}

export async function activeWorkers(db: Database): Promise<Recipient[]> {
  return db
    .select({ email: workers.email, name: workers.name })
    .from(workers)
    .where(eq(workers.active, true))
    .orderBy(asc(workers.id));
}

/**
 * The admin's Send (api.md `POST /api/worker-notifications/send`): to one worker, or to every
 * active one when no worker is named. 409 when tomorrow has no route or nobody is to be told.
 */
export async function sendWorkerNotifications(
  deps: SendDeps,
  now: Date,
  target: Recipient | null,
  userId: string,
): Promise<{ success: number }> {
  const preview = await workerPreview(deps.db, now);
  if (preview.routesCount === 0) throw conflict(WORKER_MESSAGES.noRoutes);
  const recipients = target ? [target] : await activeWorkers(deps.db);
  if (recipients.length === 0) throw conflict(WORKER_MESSAGES.noActiveWorkers);
  const nonce = randomUUID();
  const keys = await deps.db.transaction((tx) => queueRouteEmails(tx as unknown as Database, preview, recipients, { nonce, userId }));
  await deps.mailer.deliverQueued(deps.db, { dedupeKeys: keys, now });
  return { success: keys.length };
}

export type WorkerJobOutcome = 'not-the-hour' | 'sent' | 'already-sent' | 'no-workers' | 'no-routes';

export interface WorkerJobResult {
  outcome: WorkerJobOutcome;
  date?: string;
  sent?: number;
}

/**
 * The 6 PM job (netlify/functions/worker-notifications.mts; scripts/serve.ts locally). It runs at
 * 17:00 and 18:00 UTC and acts only in London's 18:00 hour. The run CLAIMS the day first (a
 * job_runs row, inserted or not in the same transaction as the e-mails), so a retried or
 * concurrent run finds the claim and sends nothing; a run that fails rolls its claim back.
 */
export async function runWorkerNotificationJob(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'log'>,
  now: Date,
): Promise<WorkerJobResult> {
  if (!isWorkerNotificationHour(now)) return { outcome: 'not-the-hour' };
  const runKey = workerRunKey(now);
  const preview = await workerPreview(deps.db, now);
  const date = preview.date;

  const { result, keys } = await deps.db.transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const claimed = await tx
      .insert(jobRuns)
      .values({ job: WORKER_NOTIFICATION_JOB, runKey })
      .onConflictDoNothing()
      .returning({ runKey: jobRuns.runKey });
    const log = (action: string, severity: 'info' | 'warning', details: string) =>
      writeChannelLog(tx, { channel: 'notification', action, severity, entityType: 'job', entityId: runKey, userId: 'system', details });
    if (claimed.length === 0) {
      await log('worker_routes_skipped', 'info', `Routes for ${date} were already sent by an earlier run`);
      return { result: { outcome: 'already-sent', date } satisfies WorkerJobResult, keys: [] };
    }
    let outcome: WorkerJobResult;
    let keys: string[] = [];
    const recipients = await activeWorkers(tx);
    if (preview.routesCount === 0) {
      outcome = { outcome: 'no-routes', date, sent: 0 };
      await log('worker_routes_none', 'info', `No installations on ${date}: no worker e-mail`);
    } else if (recipients.length === 0) {
      outcome = { outcome: 'no-workers', date, sent: 0 };
      await log('worker_routes_no_workers', 'warning', `${preview.routesCount} routes for ${date}, but no active worker to send them to`);
    } else {
      keys = await queueRouteEmails(tx, preview, recipients, { nonce: null, userId: 'system' });
      outcome = { outcome: 'sent', date, sent: keys.length };
    }
    await tx
      .update(jobRuns)
      .set({ result: outcome })
      .where(and(eq(jobRuns.job, WORKER_NOTIFICATION_JOB), eq(jobRuns.runKey, runKey)));
    return { result: outcome, keys };
  });
  if (keys.length > 0) await deps.mailer.deliverQueued(deps.db, { dedupeKeys: keys, now });
  deps.log.info('Worker notification run', { ...result });
  return result;
}
