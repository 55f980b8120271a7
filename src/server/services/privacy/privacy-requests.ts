import { inArray, sql } from 'drizzle-orm';
import {
  bookingLocations,
  bookings,
  contactEnquiries,
  emailOutbox,
  photos,
  reviews,
} from '../../../../db/schema.ts';
import type { Database } from '../../../../db/client.ts';
import { toBookingJson } from '../bookings/booking-view.ts';
import { filesOfBookings } from '../bookings/booking-files.ts';
export { ERASED_NAME, erasePersonalData, type ErasureResult } from './personal-data-erasure.ts';

/**
 * Subject access and erasure (UK GDPR; /privacy promises an answer within 30 days): everything
 * held about an e-mail address, as JSON, and its erasure. Bookings must be kept for the legal
 * period (7 years), so an erased booking is anonymised, not deleted: its money, dates and
 * patches stay for the accounts; who and where go. Its files and photos are deleted, and every
 * link that opened it (tracking, photo access, review invitations) stops working. The erasure
 * itself, with the list of every table it reaches, is services/privacy/personal-data-erasure.ts.
 */

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
  files: { fileName: string; originalName: string; mimeType: string; fileSize: number; bookingId: number }[];
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
    byBooking(async (list) =>
      (await filesOfBookings(db, list)).map(({ fileName, originalName, mimeType, fileSize, bookingId }) => ({ fileName, originalName, mimeType, fileSize, bookingId })),
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
