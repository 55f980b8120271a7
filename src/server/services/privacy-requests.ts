import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  bookingLocations,
  bookings,
  contactEnquiries,
  emailOutbox,
  photos,
  reviewRequests,
  reviews,
  uploadedFiles,
} from '../../../db/schema.ts';
import type { Database } from '../../../db/client.ts';
import type { AppDeps } from '../api/deps.ts';
import { toBookingJson } from './booking-view.ts';
import { revokeTrackingAccess } from './tracking.ts';
import { writeChannelLog } from './channel-log.ts';

/**
 * Subject access and erasure (UK GDPR; /privacy promises an answer within 30 days): everything
 * held about an e-mail address, as JSON, and its erasure. Bookings must be kept for the legal
 * period (7 years), so an erased booking is anonymised, not deleted: its money, dates and
 * patches stay for the accounts; who and where go. Its files and photos are deleted, and every
 * link that opened it (tracking, photo access, review invitations) stops working.
 */
export const ERASED_NAME = 'Erased';

/** The addresses match case-insensitively, as a person typed them at different times. */
const sameEmail = (column: typeof bookings.email | typeof contactEnquiries.email, email: string) =>
  sql`lower(${column}) = ${email.trim().toLowerCase()}`;

export interface PersonalDataExport {
  email: string;
  exportedAt: string;
  bookings: ReturnType<typeof toBookingJson>[];
  enquiries: (typeof contactEnquiries.$inferSelect)[];
  reviews: (typeof reviews.$inferSelect)[];
  emailsSent: { id: number; kind: string; subject: string; status: string; createdAt: Date; sentAt: Date | null }[];
  files: { fileName: string; originalName: string; mimeType: string; fileSize: number; bookingId: number | null }[];
  photos: { fileName: string; photoType: string; bookingId: number; description: string | null }[];
}

export async function exportPersonalData(db: Database, email: string, now: Date): Promise<PersonalDataExport> {
  const bookingRows = await db.select().from(bookings).where(sameEmail(bookings.email, email)).orderBy(bookings.id);
  const ids = bookingRows.map((row) => row.id);
  const byBooking = <T>(load: (ids: number[]) => Promise<T[]>) => (ids.length ? load(ids) : Promise.resolve([] as T[]));
  const [enquiries, reviewRows, emails, files, photoRows, locations] = await Promise.all([
    db.select().from(contactEnquiries).where(sameEmail(contactEnquiries.email, email)).orderBy(contactEnquiries.id),
    byBooking((list) => db.select().from(reviews).where(inArray(reviews.bookingId, list))),
    db
      .select({ id: emailOutbox.id, kind: emailOutbox.kind, subject: emailOutbox.subject, status: emailOutbox.status, createdAt: emailOutbox.createdAt, sentAt: emailOutbox.sentAt })
      .from(emailOutbox)
      .where(sql`lower(${emailOutbox.to}) = ${email.trim().toLowerCase()}`)
      .orderBy(emailOutbox.id),
    byBooking((list) =>
      db
        .select({ fileName: uploadedFiles.fileName, originalName: uploadedFiles.originalName, mimeType: uploadedFiles.mimeType, fileSize: uploadedFiles.fileSize, bookingId: uploadedFiles.bookingId })
        .from(uploadedFiles)
        .where(inArray(uploadedFiles.bookingId, list)),
    ),
    byBooking((list) =>
      db
        .select({ fileName: photos.fileName, photoType: photos.photoType, bookingId: photos.bookingId, description: photos.description })
        .from(photos)
        .where(inArray(photos.bookingId, list)),
    ),
    byBooking((list) => db.select().from(bookingLocations).where(inArray(bookingLocations.bookingId, list))),
  ]);
  return {
    email,
    exportedAt: now.toISOString(),
    bookings: bookingRows.map((row) =>
      toBookingJson(row, { locations: locations.filter((location) => location.bookingId === row.id).map(({ address, lat, lng }) => ({ address, lat, lng })) }),
    ),
    enquiries,
    reviews: reviewRows,
    emailsSent: emails,
    files,
    photos: photoRows,
  };
}

export interface ErasureResult {
  bookingsAnonymised: number;
  enquiriesDeleted: number;
  reviewsDeleted: number;
  emailsDeleted: number;
  filesDeleted: number;
}

export async function erasePersonalData(
  deps: Pick<AppDeps, 'db' | 'files' | 'log'>,
  email: string,
  now: Date,
  actor: string,
): Promise<ErasureResult> {
  const { result, storedFiles } = await deps.db.transaction(async (tx) => {
    const targets = await tx.select({ id: bookings.id }).from(bookings).where(sameEmail(bookings.email, email)).for('update');
    const ids = targets.map((row) => row.id);
    const storedFiles: string[] = [];
    let reviewsDeleted = 0;
    if (ids.length) {
      const photoRows = (
        await tx.select({ name: photos.fileName, thumbnail: photos.thumbnailFileName }).from(photos).where(inArray(photos.bookingId, ids))
      ).flatMap((row) => [{ name: row.name }, ...(row.thumbnail ? [{ name: row.thumbnail }] : [])]);
      const fileRows = await tx
        .select({ name: uploadedFiles.fileName, storage: uploadedFiles.storage })
        .from(uploadedFiles)
        .where(inArray(uploadedFiles.bookingId, ids));
      storedFiles.push(...photoRows.map((row) => row.name), ...fileRows.filter((row) => row.storage !== 'uploadcare').map((row) => row.name));
      await tx.delete(photos).where(inArray(photos.bookingId, ids));
      await tx.delete(uploadedFiles).where(inArray(uploadedFiles.bookingId, ids));
      await tx.delete(reviewRequests).where(inArray(reviewRequests.bookingId, ids));
      reviewsDeleted = (await tx.delete(reviews).where(inArray(reviews.bookingId, ids)).returning({ id: reviews.id })).length;
      // Keep the outward code (the area, for the accounts and route history); drop the addresses.
      await tx.update(bookingLocations).set({ address: 'Erased', lat: 0, lng: 0 }).where(inArray(bookingLocations.bookingId, ids));
      for (const id of ids) {
        // Magic links and photo grants stop working: the booking no longer opens for anyone.
        await revokeTrackingAccess(tx, id);
        await tx
          .update(bookings)
          .set({
            firstName: ERASED_NAME,
            lastName: ERASED_NAME,
            businessName: null,
            email: `erased-${id}@erased.invalid`,
            phone: '',
            locationAddress: 'Erased',
            specialInstructions: null,
            statusNotes: null,
            checkoutTokenHash: null,
            updatedAt: now,
          })
          .where(eq(bookings.id, id));
      }
    }
    const enquiriesDeleted = (
      await tx.delete(contactEnquiries).where(sameEmail(contactEnquiries.email, email)).returning({ id: contactEnquiries.id })
    ).length;
    const emailsDeleted = (
      await tx
        .delete(emailOutbox)
        .where(and(sql`lower(${emailOutbox.to}) = ${email.trim().toLowerCase()}`))
        .returning({ id: emailOutbox.id })
    ).length;
    const result: ErasureResult = { bookingsAnonymised: ids.length, enquiriesDeleted, reviewsDeleted, emailsDeleted, filesDeleted: 0 };
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'personal_data_erased',
      userId: actor,
      entityType: 'booking',
      entityId: ids.join(',') || undefined,
      // The address itself is what was erased: the log names only what happened to it.
      details: `Erasure request: ${ids.length} bookings anonymised, ${enquiriesDeleted} enquiries, ${reviewsDeleted} reviews and ${emailsDeleted} e-mails deleted`,
      metadata: { ...result },
    });
    return { result, storedFiles };
  });
  for (const name of storedFiles) {
    try {
      await deps.files.delete(name);
      result.filesDeleted += 1;
    } catch (error) {
      deps.log.warn('An erased file could not be deleted', { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return result;
}
