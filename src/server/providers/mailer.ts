import { sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../../db/client.ts';
import { emailOutbox, type EmailAttachment } from '../../../db/schema.ts';
import type { Env } from '../env.ts';
import type { Logger } from '../app/logger.ts';
import { channelLogInsert, type ChannelLogEntry } from '../services/messages/channel-log.ts';
import { runCombined } from '../../../db/combined-writes.ts';
import { STUCK_SENDING_MINUTES } from './email-outbox.ts';
import { outboxTransport, sendGridTransport, type OutgoingMessage, type Transport } from './email-transports.ts';
import { drawInvoiceAttachments, isUndrawnInvoice } from '../services/documents/invoice-attachments.ts';

// The mailer (delivering e-mails): claims outbox rows (email-outbox.ts) and hands them to the
// transport, SendGrid or the local outbox log, recording each outcome.

export type { OutgoingMessage, Transport };

type ClaimedRow = {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  kind: string;
  attachments: EmailAttachment[] | string | null;
};

export interface DeliveryOptions {
  /** At most this many e-mails (default 20). */
  limit?: number;
  /** When the attempt is made (default: the real clock). */
  now?: Date;
  /**
   * Only the e-mails queued under these dedupe keys: a request that must answer quickly (an
   * enquiry, Stripe's webhook) sends its own e-mail and leaves the rest to the hourly
   * maintenance job. (A new booking writes its e-mails already claimed: deliverClaimed.)
   */
  dedupeKeys?: readonly string[];
  /** Messages in flight at once (default 1). The scheduled jobs send several to fit their run. */
  concurrency?: number;
  /**
   * A real-clock deadline (`Date.now()` milliseconds): claimed messages not yet handed to the
   * provider by then go back to the queue untouched, so a scheduled run ends inside Netlify's
   * 30 s and the next run sends them.
   */
  until?: number;
}

export interface Mailer {
  readonly transport: Transport;
  /**
   * Sends what is queued (claimed atomically, so two callers never send one row twice). Each
   * claim counts as a delivery attempt at `now`, which the maintenance job's retry backoff reads.
   */
  deliverQueued(db: Database, options?: DeliveryOptions): Promise<{ sent: number; failed: number }>;
  /**
   * Sends messages this caller wrote already claimed at `claimedAt` (emailInsert), one after
   * another, recording each outcome as deliverQueued does. When `now` is already half of
   * STUCK_SENDING_MINUTES past the claim, sends nothing: the maintenance job will requeue them.
   */
  deliverClaimed(db: Database, messages: readonly OutgoingMessage[], claim: { claimedAt: Date; now: Date }): Promise<{ sent: number; failed: number }>;
}

export function createMailer(env: Env, log: Logger, fetchImpl: typeof fetch = fetch): Mailer {
  const transport: Transport = env.SENDGRID_API_KEY
    ? sendGridTransport(env.SENDGRID_API_KEY, env.EMAIL_FROM, fetchImpl)
    : outboxTransport(log);
  /** A message's outcome: its row's new state and the Logs tab's line about it, one statement. */
  const record = (db: Database, message: OutgoingMessage, state: Partial<typeof emailOutbox.$inferInsert>, entry: ChannelLogEntry) =>
    runCombined(db, [db.update(emailOutbox).set(state).where(sql`${emailOutbox.id} = ${message.id}`), channelLogInsert(db, entry)]);
  /**
   * Sends one claimed message and records the outcome. The log names the message's kind and row,
   * never the recipient or the subject (a staff note's subject names the customer).
   */
  const deliver = async (db: Database, message: OutgoingMessage): Promise<boolean> => {
    const about = { channel: 'email', entityType: 'email', entityId: message.id } as const;
    try {
      await transport.send(await withAttachments(db, message));
      await record(db, message, { status: transport.name === 'sendgrid' ? 'sent' : 'logged', provider: transport.name, sentAt: new Date() }, {
        ...about,
        action: 'email_sent',
        details:
          transport.name === 'sendgrid'
            ? `${message.kind} e-mail #${message.id} sent through SendGrid`
            : `${message.kind} e-mail #${message.id} written to the outbox only (SENDGRID_API_KEY is not set)`,
        metadata: { kind: message.kind, provider: transport.name, attachments: message.attachments?.length ?? 0 },
      });
      return true;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await record(db, message, { status: 'failed', provider: transport.name, error: reason.slice(0, 500) }, {
        ...about,
        action: 'email_failed',
        severity: 'error',
        details: `${message.kind} e-mail #${message.id} failed: ${reason.slice(0, 200)}`,
      });
      return false;
    }
  };
  return {
    transport,
    async deliverClaimed(db, messages, { claimedAt, now }) {
      if (messages.length === 0) return { sent: 0, failed: 0 };
      if (now.getTime() - claimedAt.getTime() > (STUCK_SENDING_MINUTES * 60_000) / 2) {
        log.warn('Claimed e-mail left to the maintenance job: its delivery started too late', { messages: messages.map((message) => message.id) });
        return { sent: 0, failed: 0 };
      }
      let sent = 0;
      for (const message of messages) if (await deliver(db, message)) sent += 1;
      return { sent, failed: messages.length - sent };
    },
    async deliverQueued(db, { limit = 20, now = new Date(), dedupeKeys, concurrency = 1, until } = {}) {
      if (dedupeKeys?.length === 0) return { sent: 0, failed: 0 };
      const onlyKeys =
        dedupeKeys === undefined
          ? sql``
          : sql`and dedupe_key in (${sql.join(
              dedupeKeys.map((key) => sql`${key}`),
              sql`, `,
            )})`;
      const claimed = await db.execute(sql`
        update email_outbox
        set status = 'sending', attempts = attempts + 1, last_attempt_at = ${now.toISOString()}::timestamptz
        where id in (
          select id from email_outbox where status = 'queued' ${onlyKeys} order by id limit ${limit} for update skip locked
        )
        returning id, to_address, subject, text_body, html_body, kind, attachments`);
      let sent = 0;
      let failed = 0;
      const rows = rowsOf<ClaimedRow>(claimed);
      const released: number[] = [];
      let next = 0;
      const send = async (row: ClaimedRow) => {
        // Raw SQL hands jsonb back as text on some drivers and parsed on others.
        const attachments = typeof row.attachments === 'string' ? (JSON.parse(row.attachments) as EmailAttachment[]) : (row.attachments ?? []);
        const message = { id: row.id, kind: row.kind, to: row.to_address, subject: row.subject, text: row.text_body, html: row.html_body, attachments };
        if (await deliver(db, message)) sent += 1;
        else failed += 1;
      };
      const sender = async () => {
        while (next < rows.length) {
          const row = rows[next++]!;
          if (until !== undefined && Date.now() >= until) released.push(row.id);
          else await send(row);
        }
      };
      await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, rows.length)) }, sender));
      if (released.length) {
        // Out of time: never handed to the provider, so not an attempt.
        await db.execute(sql`
          update email_outbox set status = 'queued', attempts = attempts - 1
          where status = 'sending' and id in (${sql.join(released.map((id) => sql`${id}`), sql`, `)})`);
      }
      return { sent, failed };
    },
  };
}

/**
 * A message's attachments as sent: an invoice written by its number only is drawn now and kept in
 * the outbox row before the message goes, so a retry after a failed send and a staff resend send
 * the very bytes the customer got. A drawing that fails fails this delivery (the hourly job
 * retries it); the payment that issued the invoice stands.
 */
async function withAttachments(db: Database, message: OutgoingMessage): Promise<OutgoingMessage> {
  if (!message.attachments?.some(isUndrawnInvoice)) return message;
  const attachments = await drawInvoiceAttachments(db, message.attachments);
  await db.update(emailOutbox).set({ attachments }).where(sql`${emailOutbox.id} = ${message.id}`);
  return { ...message, attachments };
}

/** Messages a scheduled job claims at a time, and sends at once. */
export const JOB_MAIL_BATCH = 25;
export const JOB_MAIL_CONCURRENCY = 5;

/**
 * For the scheduled jobs: sends queued e-mail (only `dedupeKeys`' when given) in batches of
 * JOB_MAIL_BATCH, JOB_MAIL_CONCURRENCY at a time, until none is left or the real clock reaches
 * `until`; what is left stays queued for the next hourly run. One message at a time, a run
 * that mails hundreds (tomorrow's reminders) would outlast Netlify's 30 s for a scheduled
 * function, which would end it with messages claimed but unsent (bench/scheduled-jobs.ts).
 */
export async function deliverQueuedWithin(
  mailer: Mailer,
  db: Database,
  options: { until: number; now?: Date; dedupeKeys?: readonly string[] },
): Promise<{ sent: number; failed: number }> {
  const total = { sent: 0, failed: 0 };
  while (Date.now() < options.until) {
    const { sent, failed } = await mailer.deliverQueued(db, { ...options, limit: JOB_MAIL_BATCH, concurrency: JOB_MAIL_CONCURRENCY });
    total.sent += sent;
    total.failed += failed;
    if (sent + failed < JOB_MAIL_BATCH) break;
  }
  return total;
}

/**
 * Runs a request's own e-mail delivery right after its answer is settled (its transaction
 * committed): `delivery` sends what the request queued (mailer.deliverQueued with its dedupe
 * keys) or wrote already claimed (mailer.deliverClaimed). A provider that fails here costs the
 * person nothing: a queued message stays for the hourly retry, and a claimed one left 'sending'
 * is queued again by the maintenance job after STUCK_SENDING_MINUTES.
 */
export async function deliverAfterAnswer(
  deps: { db: Database; mailer: Mailer; log: Logger },
  delivery: (mailer: Mailer, db: Database) => Promise<unknown>,
): Promise<void> {
  try {
    await delivery(deps.mailer, deps.db);
  } catch (error) {
    deps.log.error('E-mail could not be delivered yet', { error: error instanceof Error ? error.message : String(error) });
  }
}
