import { staffNameOf } from '../staff/staff-users.ts';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, proofs, stencilChanges } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { MAX_PROOF_BYTES, PROOF_NOTE_MAX_LENGTH, STENCIL_CHANGE_POUNDS } from '../../../domain/proofs.ts';
import { cleanMultiLine } from '../../../domain/text.ts';
import type { AppDeps } from '../../app/deps.ts';
import { badRequest, notFound } from '../../app/errors.ts';
import { proofReadyEmail } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import type { BookingRow } from '../bookings/booking-view.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { sanitizeOriginalName, type AllowedFileType } from '../files/file-type.ts';
import { proofPreviewUrl, storePdfPreview } from './proof-preview.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';

/**
 * Stencil proof sign-off (api.md "Stencil proof sign-off"). Staff upload versions; the customer,
 * holding the tracking grant, approves one or asks for changes. Every write locks the booking row
 * first, so an upload, an approval and a change request on one booking run one after another, and
 * a decision is a conditional UPDATE … WHERE status = 'awaiting': of two at once, one wins.
 * This module: uploads and the list; proof-decisions.ts: the customer's answer; proof-reminders.ts:
 * the hourly reminder.
 */

export const PROOF_MESSAGES = {
  bookingNotFound: 'Booking not found',
  proofNotFound: 'Proof not found',
  missingFile: 'Please choose the proof file (PNG, JPG, SVG or PDF).',
  tooLarge: `The proof is too large. The maximum size is ${MAX_PROOF_BYTES / 1024 / 1024}MB.`,
  note: `The note must be at most ${PROOF_NOTE_MAX_LENGTH} characters`,
  superseded: 'This proof has been replaced by a newer version. Please look at the latest one.',
  alreadyApproved: 'This proof is already approved.',
  alreadyChanged: 'Changes have already been requested for this proof.',
  cancelled: 'This booking is cancelled, so its proof can no longer be approved. Please contact us.',
  paidChange: `This proof is already approved: a stencil change after approval costs an extra £${STENCIL_CHANGE_POUNDS}.`,
} as const;

export type ProofRow = typeof proofs.$inferSelect;
type StencilChangeRow = typeof stencilChanges.$inferSelect;

interface Actor {
  userId: string;
  now: Date;
}

export type ProofDeps = Pick<AppDeps, 'db' | 'env' | 'files' | 'pdfPreviews' | 'mailer' | 'log' | 'now'>;

/** Where staff notes go: ADMIN_EMAIL, else the business's own address (as enquiries do). */
export function staffAddress(deps: Pick<AppDeps, 'env'>): string {
  return deps.env.ADMIN_EMAIL ?? BUSINESS.email;
}

export async function lockBookingRow(tx: Transaction | Database, bookingId: number): Promise<BookingRow> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  if (!row) throw notFound(PROOF_MESSAGES.bookingNotFound);
  return row;
}

// ------------------------------------------------------------------ reading

/** The access-checked address of a proof's file (never the public /uploads path). */
export const proofFileUrl = (proofId: number) => `/api/proofs/${proofId}/file`;

function toChangeJson(change: StencilChangeRow & { waivedByName?: string | null }) {
  return {
    id: change.id,
    comment: change.comment,
    amount: poundsFromPence(change.amountPence),
    status: change.status,
    createdAt: change.createdAt.toISOString(),
    paidAt: change.paidAt?.toISOString() ?? null,
    waivedAt: change.waivedAt?.toISOString() ?? null,
    // The person's name; an id-less label (from before accounts) as it was stored.
    waivedBy: change.waivedByName ?? change.waivedBy,
    waivedReason: change.waivedReason,
  };
}

export type StencilChangeJson = ReturnType<typeof toChangeJson>;

export function toProofJson(row: ProofRow, changes: StencilChangeRow[] = []) {
  return {
    id: row.id,
    bookingId: row.bookingId,
    version: row.version,
    status: row.status,
    note: row.note,
    fileUrl: proofFileUrl(row.id),
    /** A PDF proof's first page as an image; null for image proofs and unreadable PDFs. */
    previewUrl: row.previewFileName ? proofPreviewUrl(row.id) : null,
    mimeType: row.mimeType,
    originalName: row.originalName,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    comment: row.comment,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    /** Changes asked for after this version was approved: paid, waived or awaiting payment. */
    changes: changes.filter((change) => change.proofId === row.id).map(toChangeJson),
  };
}

export type ProofJson = ReturnType<typeof toProofJson>;

/** Every version of a booking's proof, newest first, with the changes asked for after approval. */
export async function listProofs(db: Database, bookingId: number): Promise<ProofJson[]> {
  const [rows, changes] = await Promise.all([
    db.select().from(proofs).where(eq(proofs.bookingId, bookingId)).orderBy(desc(proofs.version)),
    db
      .select({ ...getTableColumns(stencilChanges), waivedByName: staffNameOf(stencilChanges.waivedBy) })
      .from(stencilChanges)
      .where(eq(stencilChanges.bookingId, bookingId))
      .orderBy(desc(stencilChanges.id)),
  ]);
  return rows.map((row) => toProofJson(row, changes));
}

export async function findProof(db: Database, proofId: number): Promise<ProofRow | null> {
  const [row] = await db.select().from(proofs).where(eq(proofs.id, proofId)).limit(1);
  return row ?? null;
}

// ------------------------------------------------------------------ staff upload

export interface ProofUpload {
  bytes: Uint8Array;
  type: AllowedFileType;
  originalName: string;
  note: unknown;
  /** The address the upload arrived at: on Netlify, where this deploy's preview function answers. */
  origin: string;
}

/** The staff's optional note: multi-line text, at most PROOF_NOTE_MAX_LENGTH characters. */
export function parseProofNote(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw badRequest(PROOF_MESSAGES.note, { note: PROOF_MESSAGES.note });
  const note = cleanMultiLine(value).trim();
  if (note.length > PROOF_NOTE_MAX_LENGTH) throw badRequest(PROOF_MESSAGES.note, { note: PROOF_MESSAGES.note });
  return note || null;
}

/**
 * Stores a new version (the file before the transaction, removed again if the row cannot be
 * written), supersedes the awaiting one, and e-mails the customer a magic link to it.
 */
export async function uploadProof(deps: ProofDeps, bookingId: number, upload: ProofUpload, actor: Actor): Promise<ProofJson> {
  const note = parseProofNote(upload.note);
  const [exists] = await deps.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  if (!exists) throw notFound(PROOF_MESSAGES.bookingNotFound);

  const fileName = `proof-${randomUUID()}.${upload.type.extension}`;
  await deps.files.put(fileName, upload.bytes, upload.type.mimeType);
  const preview = await storePdfPreview(deps, bookingId, upload.bytes, upload.type, upload.origin).catch(async (error: unknown) => {
    await deps.files.delete(fileName).catch(() => undefined);
    throw error;
  });
  let result: { proof: ProofRow; mailKey: string };
  try {
    result = await deps.db.transaction(async (tx) => {
      const booking = await lockBookingRow(tx, bookingId);
      const superseded = await tx
        .update(proofs)
        .set({ status: 'superseded' })
        .where(and(eq(proofs.bookingId, bookingId), eq(proofs.status, 'awaiting')))
        .returning({ version: proofs.version });
      const [latest] = await tx
        .select({ version: sql<number>`coalesce(max(${proofs.version}), 0)`.mapWith(Number) })
        .from(proofs)
        .where(eq(proofs.bookingId, bookingId));
      const [proof] = await tx
        .insert(proofs)
        .values({
          bookingId,
          version: (latest?.version ?? 0) + 1,
          note,
          fileName,
          originalName: sanitizeOriginalName(upload.originalName, upload.type.extension),
          mimeType: upload.type.mimeType,
          fileSize: upload.bytes.byteLength,
          previewFileName: preview?.fileName ?? null,
          createdBy: actor.userId,
          createdAt: actor.now,
        })
        .returning();
      await writeChannelLog(tx, {
        channel: 'admin',
        action: 'proof_uploaded',
        entityType: 'booking',
        entityId: bookingId,
        userId: actor.userId,
        details:
          `Stencil proof version ${proof!.version} sent to the customer of booking #${bookingId}` +
          (superseded.length ? ` (replaces version ${superseded.map((row) => row.version).join(', ')})` : ''),
        metadata: { proofId: proof!.id, version: proof!.version, fileName, superseded: superseded.map((row) => row.version) },
      });
      const token = await createTrackingLink(tx, bookingId, actor.now);
      const message = proofReadyEmail({ booking, proof: proof! }, trackingLinkUrl(deps.env.SITE_URL, token), preview);
      await queueEmail(tx, message);
      return { proof: proof!, mailKey: message.dedupeKey! };
    });
  } catch (error) {
    await deps.files.delete(fileName).catch(() => undefined);
    if (preview) await deps.files.delete(preview.fileName).catch(() => undefined);
    throw error;
  }
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [result.mailKey], now: deps.now() }));
  return toProofJson(result.proof);
}
