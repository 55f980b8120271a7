import { staffNameOf } from '../staff/staff-users.ts';
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingSearchText, bookings, progressLogs } from '../../../../db/schema.ts';
import { filesOfBookings } from './booking-files.ts';
import { notFound } from '../../app/errors.ts';
import { toBookingJson, type BookingRow } from './booking-view.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import type { ProofSummary } from '../../../domain/proofs.ts';
import { proofSummaries } from '../proofs/proof-summaries.ts';
import { queueInviteCancellation } from './installation-invites.ts';
import { afterCursor, encodeCursor, likePattern, microsOf, type PageRequest } from '../lib/keyset-page.ts';

/** admin-dashboard.md §4: the statuses the admin sets freely from the dropdown. */
export const ADMIN_BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled'] as const;
export type AdminBookingStatus = (typeof ADMIN_BOOKING_STATUSES)[number];

export const BOOKING_NOT_FOUND = 'Booking not found';

export interface BookingListQuery extends PageRequest {
  /** true: archived only; false: active only; null: all (admin-dashboard.md §7). */
  archived: boolean | null;
  q: string;
}

export type AdminBookingJson = ReturnType<typeof toAdminBookingJson>;

function toAdminBookingJson(
  row: BookingRow,
  files: { id: number; fileName: string; originalName: string }[],
  logs: { id: number; step: number; stepName: string; status: string; notes: string | null; createdAt: Date }[],
  proof: ProofSummary | null,
) {
  return toBookingJson(row, {
    uploadedFiles: files,
    progressLogs: logs.map((log) => ({ ...log, createdAt: log.createdAt.toISOString() })),
    // The stencil proof's state for the Projects list: null until staff send one.
    proof,
  });
}

/** A whole UK postcode as people type it: 'M4 6AJ', 'm46aj', 'SW1A  1AA'. */
const FULL_POSTCODE = /^[A-Z]{1,2}\d[A-Z\d]?\s*\d[A-Z]{2}$/i;

/**
 * What the admin's search looks in: name, e-mail, business, postcode and the addresses (one
 * trigram-indexed expression, db/schema.ts; a full postcode matches with or without its space),
 * and the id for digits.
 */
export function bookingSearchCondition(q: string): SQL | undefined {
  const typed = q.trim();
  if (!typed) return undefined;
  // A full postcode is looked for without its space, as the search text holds the addresses.
  const text = FULL_POSTCODE.test(typed) ? typed.replace(/\s+/g, '') : typed;
  const conditions: SQL[] = [ilike(bookingSearchText(bookings), likePattern(text))];
  const asId = /^#?(\d{1,9})$/.exec(text);
  if (asId) conditions.push(eq(bookings.id, Number(asId[1])));
  return or(...conditions);
}

/**
 * One page of bookings, newest first, each with its files and progress history. The files and
 * logs come in one query each for the whole page, never one per booking.
 */
export async function listAdminBookings(db: Database, query: BookingListQuery) {
  const filter = and(
    query.archived === null ? undefined : eq(bookings.archived, query.archived),
    bookingSearchCondition(query.q),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ booking: bookings, micros: microsOf(bookings.createdAt) })
      .from(bookings)
      .where(and(filter, afterCursor(bookings.createdAt, bookings.id, query.cursor)))
      .orderBy(desc(bookings.createdAt), desc(bookings.id))
      .limit(query.limit + 1),
    db.select({ total: count() }).from(bookings).where(filter),
  ]);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > query.limit && last ? encodeCursor(last.micros, last.booking.id) : null;
  const items = await withFilesAndLogs(db, page.map((row) => row.booking));
  return { items, total: total?.total ?? 0, nextCursor };
}

async function withFilesAndLogs(db: Database, rows: BookingRow[]): Promise<AdminBookingJson[]> {
  const ids = rows.map((row) => row.id);
  if (ids.length === 0) return [];
  const [files, logs, proofs] = await Promise.all([
    // A file Book again shares is listed under each booking that uses it.
    filesOfBookings(db, ids),
    db
      .select({
        id: progressLogs.id,
        bookingId: progressLogs.bookingId,
        step: progressLogs.step,
        stepName: progressLogs.stepName,
        status: progressLogs.status,
        notes: progressLogs.notes,
        author: staffNameOf(progressLogs.userId),
        createdAt: progressLogs.createdAt,
      })
      .from(progressLogs)
      .where(inArray(progressLogs.bookingId, ids))
      .orderBy(asc(progressLogs.createdAt), asc(progressLogs.id)),
    proofSummaries(db, ids),
  ]);
  return rows.map((row) =>
    toAdminBookingJson(
      row,
      files.filter((file) => file.bookingId === row.id).map(({ id, fileName, originalName }) => ({ id, fileName, originalName })),
      logs.filter((log) => log.bookingId === row.id).map(({ bookingId: _, ...log }) => log),
      proofs.get(row.id) ?? null,
    ),
  );
}

/** One booking as the admin list shows it (the answer of each mutation). */
async function adminBookingJson(db: Database, row: BookingRow): Promise<AdminBookingJson> {
  const [json] = await withFilesAndLogs(db, [row]);
  return json!;
}

/** An id from a path: anything but a positive integer that fits the column is simply not found. */
export function parseBookingId(value: string): number {
  const id = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) throw notFound(BOOKING_NOT_FOUND);
  return id;
}

export interface AdminAction {
  actor: string;
  now: Date;
  /** The site's origin, for the calendar cancellation a cancel or an archive sends. */
  siteUrl: string;
  /**
   * Dedupe keys of the e-mails the action queued (a calendar cancellation), for the caller to
   * deliver once the transaction has committed.
   */
  queuedMail?: string[];
}

/** Queues the booking's calendar cancellation inside `tx` and notes its key for the caller. */
async function withdrawInvite(tx: Parameters<typeof queueInviteCancellation>[0], id: number, reason: 'cancelled' | 'archived', action: AdminAction) {
  const key = await queueInviteCancellation(tx, id, reason, { siteUrl: action.siteUrl, now: action.now, userId: action.actor });
  if (key) action.queuedMail?.push(key);
}

/** admin-dashboard.md §4: any of the four statuses, from any other. */
export async function setBookingStatus(db: Database, id: number, status: AdminBookingStatus, action: AdminAction) {
  const { actor, now } = action;
  const row = await db.transaction(async (tx) => {
    const [before] = await tx.select({ status: bookings.status }).from(bookings).where(eq(bookings.id, id)).for('update');
    if (!before) throw notFound(BOOKING_NOT_FOUND);
    const [updated] = await tx.update(bookings).set({ status, updatedAt: now }).where(eq(bookings.id, id)).returning();
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'booking_status_changed',
      entityType: 'booking',
      entityId: id,
      userId: actor,
      details: `Booking #${id} status changed from ${before.status} to ${status}`,
      metadata: { from: before.status, to: status },
    });
    // The customer's calendar event goes with the booking (installation-invites.ts).
    if (status === 'cancelled') await withdrawInvite(tx, id, 'cancelled', action);
    return updated!;
  });
  return adminBookingJson(db, row);
}

/**
 * Archive or restore one booking; doing it twice changes nothing more. Archiving withdraws the
 * customer's calendar event (restoring does not send it again: staff tell the customer).
 */
export async function setBookingArchived(db: Database, id: number, archived: boolean, action: AdminAction) {
  const { actor, now } = action;
  const row = await db.transaction(async (tx) => {
    const [updated] = await tx.update(bookings).set({ archived, updatedAt: now }).where(eq(bookings.id, id)).returning();
    if (!updated) throw notFound(BOOKING_NOT_FOUND);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: archived ? 'booking_archived' : 'booking_unarchived',
      entityType: 'booking',
      entityId: id,
      userId: actor,
      details: archived ? `Booking #${id} archived` : `Booking #${id} restored from the archive`,
    });
    if (archived) await withdrawInvite(tx, id, 'archived', action);
    return updated;
  });
  return adminBookingJson(db, row);
}

/**
 * Archives every active booking flagged as a test: the whole-word name/e-mail/address rule at
 * creation, or a Stripe test-mode payment (both stored in is_test). One transaction, one log.
 */
export async function archiveTestBookings(db: Database, action: AdminAction): Promise<{ archived: number }> {
  const { actor, now } = action;
  return db.transaction(async (tx) => {
    const archived = await tx
      .update(bookings)
      .set({ archived: true, updatedAt: now })
      .where(and(eq(bookings.isTest, true), eq(bookings.archived, false)))
      .returning({ id: bookings.id });
    const ids = archived.map((row) => row.id).sort((a, b) => a - b);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'test_bookings_archived',
      entityType: 'booking',
      userId: actor,
      details:
        ids.length === 0
          ? 'No active test bookings to archive'
          : `Archived ${ids.length} test booking(s): ${ids.map((id) => `#${id}`).join(', ')}`,
      metadata: { bookingIds: ids },
    });
    for (const id of ids) await withdrawInvite(tx, id, 'archived', action);
    return { archived: ids.length };
  });
}
