import { lt, sql } from 'drizzle-orm';
import { rowsOf } from '../../../../db/client.ts';
import { geocodeCache, idempotencyKeys, stripeEvents } from '../../../../db/schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import { STUCK_SENDING_MINUTES } from '../../providers/email-outbox.ts';
import { deliverQueuedWithin } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { pruneRateLimits } from '../limits/rate-limit.ts';
import { pruneUsedChallenges } from '../limits/challenge.ts';
import { pruneClientHashKeys } from '../limits/client-hash-keys.ts';
import { applyRetention } from '../privacy/retention.ts';
import { rollUpPageViews } from '../analytics/page-view-rollup.ts';
import { sendInstallationReminders } from '../bookings/reminders.ts';
import { archiveCompletedProjects } from '../projects/project-progress.ts';
import { pruneExpiredPhotoGrants } from '../projects/tracking.ts';
import { pruneAdminSessions } from '../staff/admin-sessions.ts';
import { pruneTotpUses } from '../staff/admin-totp.ts';
import { pruneStaffLinks } from '../staff/staff-links.ts';
import { pruneWebauthnChallenges } from '../staff/passkeys.ts';
import { sendProofReminders } from '../proofs/proof-reminders.ts';
import { cancelLapsedHolds } from '../bookings/installation-invites.ts';
import { deleteUnclaimedUploads, pruneUploadSessions } from './upload-cleanup.ts';
import { UNCLAIMED_UPLOAD_LIFETIME_MS, UPLOAD_SESSION_IDLE_MINUTES } from '../limits/upload-quota.ts';
import { pruneKnownDevices } from '../staff/known-devices.ts';

/** A failed e-mail is tried this many times in all, then left as 'failed' for the admin to see. */
export const MAX_EMAIL_ATTEMPTS = 5;
/** After attempt n the next one waits EMAIL_RETRY_BASE_MINUTES × 2^n (10, 20, 40, 80 minutes). */
export const EMAIL_RETRY_BASE_MINUTES = 5;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
export const RETENTION = {
  rateLimits: DAY,
  geocodeCache: 30 * DAY,
  idempotencyKeys: 7 * DAY,
  stripeEvents: 90 * DAY,
} as const;

/**
 * Netlify ends a scheduled run after 30 s. E-mail delivery, the one step whose time grows with
 * the queue (each message is a call to SendGrid), stops handing out messages this long after the
 * run began; what is left waits for the next hour, and the remaining steps take a second or two.
 */
export const JOB_DELIVERY_BUDGET_MS = 20_000;

export type MaintenanceDeps = Pick<AppDeps, 'db' | 'mailer' | 'files' | 'log' | 'env'>;

export interface MaintenanceCounts {
  emailRetried: number;
  emailUnstuck: number;
  emailSent: number;
  emailFailed: number;
  rateLimitsPruned: number;
  geocodeCachePruned: number;
  idempotencyKeysPruned: number;
  uploadsDeleted: number;
  stripeEventsPruned: number;
  /** Records past the periods /privacy promises (bookings, communications, analytics, invoices). */
  retentionDeleted: number;
  /** Day-before installation reminders sent. */
  remindersSent: number;
  /** "Your proof is still waiting" e-mails, one per proof, 3 business days after it was sent. */
  proofRemindersSent: number;
  projectsArchived: number;
  photoGrantsPruned: number;
  adminSessionsPruned: number;
  usedSignInCodesPruned: number;
  /** Calendar cancellations queued for unpaid bookings whose hold on their date lapsed. */
  lapsedHoldsCancelled: number;
  /** Unfinished part uploads (and their parts) removed after a day. */
  uploadSessionsPruned: number;
  knownDevicesPruned: number;
  /** Client-address hash keys past their day and the next (client-hash-keys.ts). */
  clientHashKeysPruned: number;
  /** Spent proof-of-work challenges past their expiry (limits/challenge.ts). */
  usedChallengesPruned: number;
}

export interface MaintenanceResult {
  counts: MaintenanceCounts;
  /** Steps that threw; the others still ran. */
  failedSteps: string[];
}

/**
 * The hourly housekeeping (netlify/functions/maintenance.mts, and scripts/serve.ts locally).
 * Every step is a conditional update or a delete by age, so a repeated or overlapping run
 * does nothing twice; the e-mail claim and the upload batch lock rows with SKIP LOCKED.
 */
export async function runMaintenance(deps: MaintenanceDeps, now: Date): Promise<MaintenanceResult> {
  const { db } = deps;
  // The real clock, not `now`: the limit is on this run's duration.
  const until = Date.now() + JOB_DELIVERY_BUDGET_MS;
  const counts: MaintenanceCounts = {
    emailRetried: 0,
    emailUnstuck: 0,
    emailSent: 0,
    emailFailed: 0,
    rateLimitsPruned: 0,
    geocodeCachePruned: 0,
    idempotencyKeysPruned: 0,
    uploadsDeleted: 0,
    stripeEventsPruned: 0,
    retentionDeleted: 0,
    remindersSent: 0,
    proofRemindersSent: 0,
    projectsArchived: 0,
    photoGrantsPruned: 0,
    adminSessionsPruned: 0,
    usedSignInCodesPruned: 0,
    lapsedHoldsCancelled: 0,
    uploadSessionsPruned: 0,
    clientHashKeysPruned: 0,
    usedChallengesPruned: 0,
    knownDevicesPruned: 0,
  };
  const failedSteps: string[] = [];
  const step = async (name: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (error) {
      failedSteps.push(name);
      deps.log.error('Maintenance step failed', { step: name, error: error instanceof Error ? error.message : String(error) });
    }
  };
  const before = (ms: number) => new Date(now.getTime() - ms);
  const nowIso = now.toISOString();

  // Before the e-mail step, which then sends the cancellations in this same run.
  await step('lapsed_holds', async () => {
    counts.lapsedHoldsCancelled = (await cancelLapsedHolds(deps, now)).length;
  });

  await step('email', async () => {
    const retried = await db.execute(sql`
      update email_outbox set status = 'queued'
      where status = 'failed' and attempts < ${MAX_EMAIL_ATTEMPTS}
        and (last_attempt_at is null
          or last_attempt_at + make_interval(mins => ${EMAIL_RETRY_BASE_MINUTES}::int) * power(2, attempts)
             <= ${nowIso}::timestamptz)
      returning id`);
    counts.emailRetried = rowsOf(retried).length;
    // The claim already counted the attempt; one that never finished is retried like a failure.
    const stuckBefore = before(STUCK_SENDING_MINUTES * MINUTE).toISOString();
    const unstuck = await db.execute(sql`
      update email_outbox
      set status = case when attempts < ${MAX_EMAIL_ATTEMPTS} then 'queued' else 'failed' end,
          error = case when attempts < ${MAX_EMAIL_ATTEMPTS} then error else 'Delivery did not finish' end
      where status = 'sending' and coalesce(last_attempt_at, created_at) < ${stuckBefore}::timestamptz
      returning id`);
    counts.emailUnstuck = rowsOf(unstuck).length;
    const { sent, failed } = await deliverQueuedWithin(deps.mailer, db, { until, now });
    counts.emailSent += sent;
    counts.emailFailed += failed;
  });

  await step('rate_limits', async () => {
    counts.rateLimitsPruned = await pruneRateLimits(db, before(RETENTION.rateLimits));
  });

  await step('client_hash_keys', async () => {
    counts.clientHashKeysPruned = await pruneClientHashKeys(db, now);
  });

  await step('known_devices', async () => {
    counts.knownDevicesPruned = await pruneKnownDevices(db, now);
  });

  await step('used_challenges', async () => {
    counts.usedChallengesPruned = await pruneUsedChallenges(db, now);
  });

  await step('geocode_cache', async () => {
    const deleted = await db
      .delete(geocodeCache)
      .where(lt(geocodeCache.createdAt, before(RETENTION.geocodeCache)))
      .returning({ key: geocodeCache.key });
    counts.geocodeCachePruned = deleted.length;
  });

  await step('idempotency_keys', async () => {
    const deleted = await db
      .delete(idempotencyKeys)
      .where(lt(idempotencyKeys.createdAt, before(RETENTION.idempotencyKeys)))
      .returning({ key: idempotencyKeys.key });
    counts.idempotencyKeysPruned = deleted.length;
  });

  await step('uploaded_files', async () => {
    counts.uploadsDeleted = await deleteUnclaimedUploads(deps, before(UNCLAIMED_UPLOAD_LIFETIME_MS));
  });

  await step('upload_sessions', async () => {
    counts.uploadSessionsPruned = await pruneUploadSessions(deps, before(UNCLAIMED_UPLOAD_LIFETIME_MS), before(UPLOAD_SESSION_IDLE_MINUTES * MINUTE));
  });

  await step('stripe_events', async () => {
    const deleted = await db
      .delete(stripeEvents)
      .where(lt(stripeEvents.receivedAt, before(RETENTION.stripeEvents)))
      .returning({ id: stripeEvents.id });
    counts.stripeEventsPruned = deleted.length;
  });

  await step('reminders', async () => {
    counts.remindersSent = await sendInstallationReminders(deps, now, until);
  });

  await step('proof_reminders', async () => {
    counts.proofRemindersSent = await sendProofReminders(deps, now);
  });

  // Before retention, which recounts the roll-up's oldest day from what it leaves.
  await step('page_view_rollup', async () => {
    await rollUpPageViews(db, now);
  });

  await step('retention', async () => {
    // Invoices are deleted in batches until the run's deadline; the rest go next hour.
    const deleted = await applyRetention(deps, now, { until });
    counts.retentionDeleted = Object.values(deleted).reduce((sum, count) => sum + count, 0);
  });

  await step('archive_completed_projects', async () => {
    counts.projectsArchived = await archiveCompletedProjects(db, now);
  });

  await step('photo_grants', async () => {
    counts.photoGrantsPruned = await pruneExpiredPhotoGrants(db, now);
  });

  await step('admin_sessions', async () => {
    counts.adminSessionsPruned = await pruneAdminSessions(db, now);
    counts.usedSignInCodesPruned = await pruneTotpUses(db, now);
    // Used or expired invitation links and unanswered passkey challenges open nothing: not counted.
    await pruneStaffLinks(db, now);
    await pruneWebauthnChallenges(db, now);
  });

  await step('log', async () => {
    await writeChannelLog(db, {
      channel: 'database',
      action: 'maintenance',
      severity: failedSteps.length ? 'warning' : 'info',
      details: Object.entries(counts)
        .map(([name, count]) => `${name} ${count}`)
        .join(', ') + (failedSteps.length ? `; failed: ${failedSteps.join(', ')}` : ''),
      metadata: { ...counts, failedSteps },
    });
  });

  return { counts, failedSteps };
}
