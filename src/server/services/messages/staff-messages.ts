import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gte, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, contactEnquiries, emailOutbox, workers, type EmailAttachment } from '../../../../db/schema.ts';
import { messageStatusOf, type MessageStatus } from '../../../domain/email-kinds.ts';
import { AppError, conflict, notFound } from '../../app/errors.ts';
import type { AppDeps } from '../../app/deps.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { drawInvoiceAttachments } from '../documents/invoice-attachments.ts';
import { BOOKING_NOT_FOUND, bookingSearchCondition } from '../bookings/admin-bookings.ts';
import { MESSAGE_LINK_MESSAGES, messageLink, withFreshLink, type MessageLink } from './message-links.ts';
import { channelLogInsert } from './channel-log.ts';
import { claimIdempotencyKey, idempotentResponseUpdate, requestFingerprint } from '../bookings/idempotency.ts';
import { afterCursor, encodeCursor, likePattern, microsOf, type PageRequest } from '../lib/keyset-page.ts';

/**
 * What the site wrote to whom, for staff (api.md "Staff messages"): every outbox row, read as
 * sent. The outbox (db/schema.ts emailOutbox) is the one record: a resend is a new row there.
 */
export const MESSAGE_NOT_FOUND = 'Message not found';
export const ATTACHMENT_NOT_FOUND = 'Attachment not found';
export const RESEND_PENDING = 'This message is already queued to be sent again. Please wait until it has gone out.';
/** Copies of one message staff may queue in an hour: enough to retry a bounce, not to flood an inbox. */
export const RESENDS_PER_HOUR = 3;
export const RESEND_LIMIT = `This message was already resent ${RESENDS_PER_HOUR} times in the last hour. Please try again later.`;

export interface MessageSummary {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: MessageStatus;
  /** 'sendgrid', or 'outbox' when no mail provider is set and the row is all there is. */
  provider: string | null;
  createdAt: string;
  sentAt?: string;
  attempts: number;
  error?: string;
  bookingId?: number;
  /** The message this one repeats, when staff resent it. */
  resendOf?: number;
}

export interface MessageAttachmentInfo {
  filename: string;
  contentType: string;
  size: number;
}

export interface MessageDetail extends MessageSummary {
  text: string;
  html: string | null;
  attachments: MessageAttachmentInfo[];
  /** The crew or tracking link the message carries, and whether it still opens. */
  link: MessageLink | null;
}

const summaryColumns = {
  id: emailOutbox.id,
  kind: emailOutbox.kind,
  to: emailOutbox.to,
  subject: emailOutbox.subject,
  status: emailOutbox.status,
  provider: emailOutbox.provider,
  createdAt: emailOutbox.createdAt,
  sentAt: emailOutbox.sentAt,
  attempts: emailOutbox.attempts,
  error: emailOutbox.error,
  bookingId: emailOutbox.bookingId,
  resendOf: emailOutbox.resendOf,
};

type SummaryRow = Pick<typeof emailOutbox.$inferSelect, keyof typeof summaryColumns>;

function summaryOf(row: SummaryRow): MessageSummary {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    status: messageStatusOf(row.status),
    provider: row.provider,
    createdAt: row.createdAt.toISOString(),
    ...(row.sentAt ? { sentAt: row.sentAt.toISOString() } : {}),
    attempts: row.attempts,
    ...(row.error ? { error: row.error } : {}),
    ...(row.bookingId !== null ? { bookingId: row.bookingId } : {}),
    ...(row.resendOf !== null ? { resendOf: row.resendOf } : {}),
  };
}

/** `:id` of a message route: anything but a row id is a 404, as an unknown id is. */
export function parseMessageId(value: string): number {
  const id = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound(MESSAGE_NOT_FOUND);
  return id;
}

/** Every e-mail written for a booking, oldest first; 404 for a booking that does not exist. */
export async function listBookingMessages(db: Database, bookingId: number): Promise<MessageSummary[]> {
  const [booking] = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  if (!booking) throw notFound(BOOKING_NOT_FOUND);
  const rows = await db.select(summaryColumns).from(emailOutbox).where(eq(emailOutbox.bookingId, bookingId)).orderBy(asc(emailOutbox.id));
  return rows.map(summaryOf);
}

export interface MessageListQuery extends PageRequest {
  /** Part of the recipient's address, or of the name of the customer, enquirer or worker it went to. */
  to?: string;
  kind?: string;
}

/**
 * Messages whose recipient matches `text`: part of the address (email_outbox_to_trgm_idx), a
 * booking found by the admin's booking search (its messages, staff copies included), or the
 * address of a worker or enquirer whose name matches.
 */
function recipientCondition(text: string): SQL {
  const pattern = likePattern(text.trim());
  return or(
    ilike(emailOutbox.to, pattern),
    inArray(emailOutbox.bookingId, sql`(select ${bookings.id} from ${bookings} where ${bookingSearchCondition(text)})`),
    sql`lower(${emailOutbox.to}) in (select lower(${workers.email}) from ${workers} where ${workers.name} ilike ${pattern})`,
    sql`lower(${emailOutbox.to}) in (select lower(${contactEnquiries.email}) from ${contactEnquiries} where (${contactEnquiries.firstName} || ' ' || ${contactEnquiries.lastName}) ilike ${pattern})`,
  )!;
}

/** Every e-mail the site wrote, newest first, a page at a time (keyset-page.ts). */
export async function listMessages(db: Database, query: MessageListQuery) {
  const conditions: SQL[] = [];
  if (query.to?.trim()) conditions.push(recipientCondition(query.to));
  if (query.kind) conditions.push(eq(emailOutbox.kind, query.kind));
  const filter = conditions.length ? and(...conditions) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({ ...summaryColumns, micros: microsOf(emailOutbox.createdAt) })
      .from(emailOutbox)
      .where(and(filter, afterCursor(emailOutbox.createdAt, emailOutbox.id, query.cursor)))
      .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id))
      .limit(query.limit + 1),
    db.select({ total: count() }).from(emailOutbox).where(filter),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last.micros, last.id) : null;
  return { items: page.map(summaryOf), total: total?.total ?? 0, nextCursor };
}

async function readRow(db: Database, id: number) {
  const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
  if (!row) throw notFound(MESSAGE_NOT_FOUND);
  return row;
}

const bytesOf = (attachment: EmailAttachment) => Buffer.from(attachment.content, 'base64');

/**
 * A message's attachments as they are (or will be) sent: an invoice still named by its number only
 * (a receipt not yet delivered) is drawn for the reader, the same file its delivery will draw; a
 * read leaves the row as it is (the delivery keeps what it sends).
 */
const attachmentsOf = (db: Database, row: typeof emailOutbox.$inferSelect) => drawInvoiceAttachments(db, row.attachments ?? []);

/** The message as it was sent: both parts, what was attached (names, types and sizes), its link's state. */
export async function readMessage(db: Database, id: number, now: Date): Promise<MessageDetail> {
  const row = await readRow(db, id);
  // Should an invoice not draw, the message still opens, that file listed as empty: its delivery fails the same way.
  const attachments = await attachmentsOf(db, row).catch(() => row.attachments ?? []);
  return {
    link: await messageLink(db, row, now),
    ...summaryOf(row),
    text: row.text,
    html: row.html,
    attachments: attachments.map((attachment) => ({
      filename: attachment.filename,
      contentType: attachment.type,
      size: bytesOf(attachment).length,
    })),
  };
}

/** The n-th attachment (from 0) as its bytes. */
export async function readMessageAttachment(db: Database, id: number, index: string) {
  const row = await readRow(db, id);
  const n = /^\d{1,3}$/.test(index) ? Number(index) : -1;
  if (!row.attachments?.[n]) throw notFound(ATTACHMENT_NOT_FOUND);
  const attachment = (await attachmentsOf(db, row))[n]!;
  return { filename: attachment.filename, contentType: attachment.type, body: bytesOf(attachment) };
}

export interface ResendInput {
  /** adminActor(): who asked, for the log and as the Idempotency-Key's owner. */
  actor: string;
  idempotencyKey?: string;
  /**
   * For a message whose crew or tracking link no longer works: send it with a fresh link, or as
   * it is. Without a choice such a message is not resent (409 naming the link).
   */
  link?: ResendLinkChoice;
}

export const RESEND_LINK_CHOICES = ['fresh', 'as-is'] as const;
export type ResendLinkChoice = (typeof RESEND_LINK_CHOICES)[number];

export interface ResendBody {
  id: number;
  resendOf: number;
  status: MessageStatus;
}

/**
 * Queues the same message again as a new outbox row, logged as an admin action, and sends it
 * after the answer. A double click queues one copy: the same Idempotency-Key replays the first
 * answer, and without one a second copy is refused while the first still waits
 * (email_outbox_pending_resend_idx), whether or not the two requests overlap. At most
 * RESENDS_PER_HOUR copies of one message are queued in an hour: past it, 429.
 */
export async function resendMessage(deps: AppDeps, id: number, { actor, idempotencyKey, link }: ResendInput) {
  const key = idempotencyKey ? { scope: 'resend-message', key: idempotencyKey } : undefined;
  const result = await deps.db.transaction(async (tx) => {
    if (key) {
      const claim = await claimIdempotencyKey<ResendBody>(tx, { ...key, fingerprint: requestFingerprint({ id, link: link ?? null }), client: actor });
      if (!claim.claimed) return { body: claim.response.body, dedupeKey: null };
    }
    const original = await readRow(tx, id);
    // The original's row lock lines up concurrent resends of it, so the hour's count holds.
    await tx.select({ id: emailOutbox.id }).from(emailOutbox).where(eq(emailOutbox.id, id)).for('update');
    const hourAgo = new Date(deps.now().getTime() - 3_600_000);
    const [recent] = await tx
      .select({ copies: count(), oldest: sql<string | null>`min(${emailOutbox.createdAt})` })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.resendOf, id), gte(emailOutbox.createdAt, hourAgo)));
    if ((recent?.copies ?? 0) >= RESENDS_PER_HOUR) {
      const reopens = new Date(recent!.oldest!).getTime() + 3_600_000;
      const retryAfter = Math.max(1, Math.ceil((reopens - deps.now().getTime()) / 1000));
      throw new AppError(429, RESEND_LIMIT, undefined, { 'Retry-After': String(retryAfter) });
    }
    if (!link) {
      const state = await messageLink(tx, original, deps.now());
      if (state && state.state !== 'live') throw new AppError(409, MESSAGE_LINK_MESSAGES.deadLink[state.kind], undefined, undefined, { link: state });
    }
    const body = link === 'fresh' ? await withFreshLink(tx, original, deps.now()) : { text: original.text, html: original.html };
    const dedupeKey = `resend:${id}:${randomUUID()}`;
    const [copy] = await tx
      .insert(emailOutbox)
      .values({
        kind: original.kind,
        bookingId: original.bookingId,
        resendOf: original.id,
        to: original.to,
        subject: original.subject,
        text: body.text,
        html: body.html,
        attachments: original.attachments,
        dedupeKey,
        createdAt: deps.now(),
      })
      // No target: the conflict that matters is the partial index on a waiting resend.
      .onConflictDoNothing()
      .returning({ id: emailOutbox.id });
    if (!copy) throw conflict(RESEND_PENDING);
    const answer: ResendBody = { id: copy.id, resendOf: original.id, status: 'queued' };
    await channelLogInsert(tx, {
      channel: 'admin',
      action: 'email_resent',
      userId: actor,
      entityType: 'email',
      entityId: copy.id,
      // Like the delivery logs, it names the kind and rows, never the recipient or the subject.
      details: `${original.kind} e-mail #${original.id} resent by staff as #${copy.id}${link === 'fresh' ? ' with a fresh link' : ''}`,
      metadata: { kind: original.kind, resendOf: original.id, bookingId: original.bookingId, freshLink: link === 'fresh' },
    });
    if (key) await idempotentResponseUpdate(tx, key, { status: 202, body: answer });
    return { body: answer, dedupeKey };
  });
  return {
    body: result.body,
    ...(result.dedupeKey ? { deliverMail: () => deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [result.dedupeKey!], now: deps.now() })) } : {}),
  };
}
