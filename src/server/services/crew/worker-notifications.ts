import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { crewLinks, jobRuns, workers } from '../../../../db/schema.ts';
import { isWorkerNotificationHour, londonTomorrow, workerRunKey } from '../../../domain/schedule.ts';
import { WORKER_MESSAGES } from '../../../domain/workers.ts';
import type { AppDeps } from '../../app/deps.ts';
import { conflict } from '../../app/errors.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverQueuedWithin } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { dayPreviewRoutes, routesForWorker, type WorkerPreviewRoute } from './day-routes.ts';
import { workerRoutesEmail } from '../../email/templates/index.ts';
import { crewLinkUrl, insertCrewLink, revokeOtherCrewLinks, sameDayCrewLink } from './crew-links.ts';
import { hashToken } from '../projects/tracking.ts';

// Tomorrow's routes for the installers (admin-dashboard.md §2 Workers tab, §9 "Worker
// notifications sent daily at 6 PM for the next day"): the preview, the manual send and the
// scheduled 6 PM job share one loader and one sender.

export const WORKER_NOTIFICATION_JOB = 'worker-notifications';
/** Delivery stops handing out messages this long after the send began (Netlify's 30 s for a scheduled run). */
const DELIVERY_BUDGET_MS = 20_000;

export interface WorkerPreview {
  /** Tomorrow in London, 'YYYY-MM-DD'. */
  date: string;
  bookingsCount: number;
  routesCount: number;
  routes: WorkerPreviewRoute[];
}

/** The routes for the London day after `now` (api.md `GET /api/worker-notifications/preview`). */
export async function workerPreview(db: Database, now: Date): Promise<WorkerPreview> {
  const date = londonTomorrow(now);
  const routes = await dayPreviewRoutes(db, date);
  const bookingsCount = routes.reduce((total, route) => total + route.stops, 0);
  return { date, bookingsCount, routesCount: routes.length, routes };
}

export interface Recipient {
  /** The worker's row; null for an address typed into the manual send that is no worker's. */
  id: number | null;
  email: string;
  name: string | null;
}

export type SendDeps = Pick<AppDeps, 'db' | 'mailer' | 'env'>;

interface DaySend {
  date: string;
  routes: WorkerPreviewRoute[];
}

/**
 * Queues one e-mail per recipient in one transaction with its channel log, then delivers them.
 * A worker's e-mail carries a new crew link for the day; the worker's older links for that day
 * are revoked once it is queued, so the newest e-mail's link is the one that works. The 6 PM job
 * instead sends again a link staff sent the same day for the same day (sameDayCrewLink). A worker with
 * no stop (every route given to others, stops waiting for staff, nothing scheduled) gets no e-mail.
 * The job's dedupe key is the worker and the date, so a retried run mails nobody twice; a manual
 * send adds a nonce, because pressing Send again is how an admin resends.
 * Returns the dedupe keys of the e-mails queued (none when all were already queued).
 */
async function queueRouteEmails(
  tx: Database,
  day: DaySend,
  recipients: readonly Recipient[],
  options: { nonce: string | null; userId: string; siteUrl: string; now: Date },
): Promise<string[]> {
  const keys: string[] = [];
  for (const recipient of recipients) {
    const routes = routesForWorker(day.routes, recipient.id);
    if (routes.length === 0) continue;
    const dedupeKey = ['worker-routes', day.date, recipient.email, ...(options.nonce ? [options.nonce] : [])].join(':');
    // The 6 PM job sends again a link staff sent earlier today for the same day; anything else
    // gets a new link, and the worker's older ones for the day end once its e-mail is queued.
    const reused =
      recipient.id !== null && options.nonce === null ? await sameDayCrewLink(tx, { id: recipient.id, email: recipient.email }, day.date, options.now) : null;
    const token = recipient.id === null ? null : (reused ?? (await insertCrewLink(tx, recipient.id, day.date, options.now)));
    const queued = await queueEmail(
      tx,
      workerRoutesEmail({
        to: recipient.email,
        name: recipient.name,
        date: day.date,
        routes,
        dedupeKey,
        crewUrl: token ? crewLinkUrl(options.siteUrl, token) : null,
      }),
    );
    if (!queued) {
      if (token && !reused) await tx.delete(crewLinks).where(eq(crewLinks.tokenHash, hashToken(token)));
      continue;
    }
    if (token && recipient.id !== null) await revokeOtherCrewLinks(tx, recipient.id, day.date, token, options.now);
    keys.push(dedupeKey);
    const stops = routes.reduce((total, route) => total + route.stops, 0);
    await writeChannelLog(tx, {
      channel: 'notification',
      action: 'worker_routes_sent',
      entityType: 'worker',
      entityId: recipient.email,
      userId: options.userId,
      details: `Routes for ${day.date} (${routes.length} routes, ${stops} bookings) to ${recipient.email}`,
      metadata: { date: day.date, routes: routes.length, bookings: stops, manual: options.nonce !== null, crewLink: token !== null, crewLinkSentAgain: reused !== null },
    });
  }
  return keys;
}

export async function activeWorkers(db: Database): Promise<Recipient[]> {
  return db
    .select({ id: workers.id, email: workers.email, name: workers.name })
    .from(workers)
    .where(eq(workers.active, true))
    .orderBy(asc(workers.id));
}

/** An address typed into the manual send: the worker it belongs to, so they get their crew link. */
async function recipientFor(db: Database, target: Omit<Recipient, 'id'>): Promise<Recipient> {
  const [worker] = await db
    .select({ id: workers.id, name: workers.name, active: workers.active })
    .from(workers)
    .where(eq(workers.email, target.email.toLowerCase()));
  return { email: target.email, name: target.name ?? worker?.name ?? null, id: worker?.active ? worker.id : null };
}

async function daySend(db: Database, date: string): Promise<DaySend> {
  return { date, routes: await dayPreviewRoutes(db, date) };
}

/**
 * The admin's Send (api.md `POST /api/worker-notifications/send`): to one worker, or to every
 * active one when no worker is named. 409 when tomorrow has no route or nobody is to be told.
 */
export async function sendWorkerNotifications(
  deps: SendDeps,
  now: Date,
  target: Omit<Recipient, 'id'> | null,
  userId: string,
): Promise<{ success: number }> {
  return sendDayEmails(deps, now, londonTomorrow(now), target ? [await recipientFor(deps.db, target)] : null, userId);
}

/**
 * The e-mails of one day to the given recipients (null: every active worker), as a manual send:
 * the Workers tab's Send and a worker's Resend link.
 */
export async function sendDayEmails(
  deps: SendDeps,
  now: Date,
  date: string,
  recipients: readonly Recipient[] | null,
  userId: string,
): Promise<{ success: number }> {
  const day = await daySend(deps.db, date);
  if (day.routes.length === 0) throw conflict(WORKER_MESSAGES.noRoutes);
  const to = recipients ?? (await activeWorkers(deps.db));
  if (to.length === 0) throw conflict(WORKER_MESSAGES.noActiveWorkers);
  const nonce = randomUUID();
  const keys = await deps.db.transaction((tx) =>
    queueRouteEmails(tx as unknown as Database, day, to, { nonce, userId, siteUrl: deps.env.SITE_URL, now }),
  );
  await deliverQueuedWithin(deps.mailer, deps.db, { dedupeKeys: keys, now, until: Date.now() + DELIVERY_BUDGET_MS });
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
  deps: Pick<AppDeps, 'db' | 'mailer' | 'log' | 'env'>,
  now: Date,
): Promise<WorkerJobResult> {
  if (!isWorkerNotificationHour(now)) return { outcome: 'not-the-hour' };
  const started = Date.now();
  const runKey = workerRunKey(now);
  const date = londonTomorrow(now);
  const day = await daySend(deps.db, date);
  const routesCount = day.routes.length;

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
    if (routesCount === 0) {
      outcome = { outcome: 'no-routes', date, sent: 0 };
      await log('worker_routes_none', 'info', `No installations on ${date}: no worker e-mail`);
    } else if (recipients.length === 0) {
      outcome = { outcome: 'no-workers', date, sent: 0 };
      await log('worker_routes_no_workers', 'warning', `${routesCount} routes for ${date}, but no active worker to send them to`);
    } else {
      keys = await queueRouteEmails(tx, day, recipients, { nonce: null, userId: 'system', siteUrl: deps.env.SITE_URL, now });
      outcome = { outcome: 'sent', date, sent: keys.length };
    }
    await tx
      .update(jobRuns)
      .set({ result: outcome })
      .where(and(eq(jobRuns.job, WORKER_NOTIFICATION_JOB), eq(jobRuns.runKey, runKey)));
    return { result: outcome, keys };
  });
  // Every worker's e-mail now, not just a first batch; what the budget leaves goes out with the
  // hourly maintenance run.
  if (keys.length > 0) await deliverQueuedWithin(deps.mailer, deps.db, { dedupeKeys: keys, now, until: started + DELIVERY_BUDGET_MS });
  deps.log.info('Worker notification run', { ...result });
  return result;
}
