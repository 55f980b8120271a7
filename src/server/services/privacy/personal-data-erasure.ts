import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import {
  bookingLocations,
  bookings,
  channelLogs,
  contactEnquiries,
  emailOutbox,
  geocodeCache,
  idempotencyKeys,
  photos,
  progressLogs,
  proofs,
  stencilChanges,
  uploadSessions,
  reviewRequests,
  reviews,
} from '../../../../db/schema.ts';
import type { Database } from '../../../../db/client.ts';
import type { AppDeps } from '../../app/deps.ts';
import { revokeTrackingAccess } from '../projects/tracking.ts';
import { releaseBookingFiles } from '../bookings/booking-files.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { ERASED_RESPONSE_STATUS } from '../bookings/idempotency.ts';
import { eraseWorkers, workerNeedles, workersWithEmail } from './worker-erasure.ts';

export const ERASED_NAME = 'Erased';

/** The addresses match case-insensitively, as a person typed them at different times. */
const sameEmail = (column: typeof bookings.email | typeof contactEnquiries.email | typeof emailOutbox.to, email: string) =>
  sql`lower(${column}) = ${email.trim().toLowerCase()}`;

/** Rows whose text holds any of the subject's identifying strings (case-insensitive). */
function mentionsAny(columns: SQL[], needles: string[]): SQL | undefined {
  const usable = [...new Set(needles.map((needle) => needle.trim()).filter((needle) => needle.length >= 4))];
  if (!usable.length) return undefined;
  const escaped = usable.map((needle) => `%${needle.replace(/[\\%_]/g, (char) => `\\${char}`)}%`);
  return or(...columns.flatMap((column) => escaped.map((pattern) => sql`${column} ilike ${pattern}`)));
}

export interface ErasureResult {
  bookingsAnonymised: number;
  enquiriesDeleted: number;
  reviewsDeleted: number;
  emailsDeleted: number;
  filesDeleted: number;
}

/**
 * POST /api/admin/privacy/erase. Bookings must be kept for the legal period, so an erased booking
 * is anonymised, not deleted; everything else that names the person goes (PERSONAL_DATA says
 * where). Files and photos are deleted from storage after the transaction commits.
 */
export async function erasePersonalData(
  deps: Pick<AppDeps, 'db' | 'files' | 'log'>,
  email: string,
  now: Date,
  actor: string,
): Promise<ErasureResult> {
  const { result, storedFiles } = await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    const targets = await tx.select().from(bookings).where(sameEmail(bookings.email, email)).for('update');
    const ids = targets.map((row) => row.id);
    const enquiries = await tx.select().from(contactEnquiries).where(sameEmail(contactEnquiries.email, email));
    const enquiryIds = enquiries.map((row) => row.id);
    const locations = ids.length ? await tx.select().from(bookingLocations).where(inArray(bookingLocations.bookingId, ids)) : [];
    // What identifies the person in free text written elsewhere (log lines, staff and worker mail).
    const addresses = [...locations.map((row) => row.address), ...targets.flatMap((row) => row.locationAddress.split(';'))];
    const erasedWorkers = await workersWithEmail(db, email);
    const needles = [
      email,
      ...workerNeedles(erasedWorkers),
      ...targets.flatMap((row) => [row.email, `${row.firstName} ${row.lastName}`, row.phone, row.businessName ?? '']),
      ...enquiries.flatMap((row) => [`${row.firstName} ${row.lastName}`, row.phone ?? '']),
      ...addresses,
    ];

    const storedFiles: string[] = [];
    let reviewsDeleted = 0;
    if (ids.length) {
      const photoRows = (
        await tx.select({ name: photos.fileName, thumbnail: photos.thumbnailFileName }).from(photos).where(inArray(photos.bookingId, ids))
      ).flatMap((row) => [{ name: row.name }, ...(row.thumbnail ? [{ name: row.thumbnail }] : [])]);
      const proofRows = (
        await tx.select({ name: proofs.fileName, preview: proofs.previewFileName }).from(proofs).where(inArray(proofs.bookingId, ids))
      ).flatMap((row) => [{ name: row.name }, ...(row.preview ? [{ name: row.preview }] : [])]);
      // A brand file another booking still uses (Book again by someone else) stays with that booking.
      const fileRows = await releaseBookingFiles(db, ids);
      storedFiles.push(
        ...photoRows.map((row) => row.name),
        ...fileRows.filter((row) => row.storage !== 'uploadcare').map((row) => row.fileName),
        ...proofRows.map((row) => row.name),
      );
      const uploadedNames = fileRows.map((row) => row.fileName);
      if (uploadedNames.length) await tx.delete(uploadSessions).where(inArray(uploadSessions.fileName, uploadedNames));
      // A proof's version history and a change's payment stay (the accounts, what was approved when);
      // the customer's words, staff notes to them and the artwork itself go.
      await tx.update(proofs).set({ note: null, comment: null, originalName: ERASED_NAME }).where(inArray(proofs.bookingId, ids));
      await tx.update(stencilChanges).set({ comment: ERASED_NAME, waivedReason: null }).where(inArray(stencilChanges.bookingId, ids));
      await tx.delete(photos).where(inArray(photos.bookingId, ids));
      await tx.delete(reviewRequests).where(inArray(reviewRequests.bookingId, ids));
      reviewsDeleted = (await tx.delete(reviews).where(inArray(reviews.bookingId, ids)).returning({ id: reviews.id })).length;
      await tx.update(progressLogs).set({ notes: null }).where(inArray(progressLogs.bookingId, ids));
      // Keep the outward code (the area, for the accounts and route history); drop the addresses.
      await tx.update(bookingLocations).set({ address: ERASED_NAME, lat: 0, lng: 0 }).where(inArray(bookingLocations.bookingId, ids));
      await tx
        .update(idempotencyKeys)
        .set({ requestHash: 'erased', responseStatus: ERASED_RESPONSE_STATUS, responseBody: null })
        .where(inArray(sql`(${idempotencyKeys.responseBody} ->> 'bookingId')`, ids.map(String)));
      for (const id of ids) {
        // Magic links and photo grants stop working: the booking no longer opens for anyone.
        await revokeTrackingAccess(db, id);
        await tx
          .update(bookings)
          .set({
            firstName: ERASED_NAME,
            lastName: ERASED_NAME,
            businessName: null,
            email: `erased-${id}@erased.invalid`,
            phone: '',
            locationAddress: ERASED_NAME,
            specialInstructions: null,
            statusNotes: null,
            paymentFailureMessage: null,
            billingAddress: null,
            poReference: null,
            customerVatNumber: null,
            checkoutTokenHash: null,
            updatedAt: now,
          })
          .where(eq(bookings.id, id));
      }
    }
    const enquiriesDeleted = enquiryIds.length
      ? (await tx.delete(contactEnquiries).where(inArray(contactEnquiries.id, enquiryIds)).returning({ id: contactEnquiries.id })).length
      : 0;

    const aboutSubject = [
      ...ids.map((id) => `booking-staff-notification:${id}`),
      ...enquiryIds.map((id) => `enquiry-staff-notification:${id}`),
    ];
    const mailNaming = mentionsAny([sql`${emailOutbox.subject}`, sql`${emailOutbox.text}`, sql`coalesce(${emailOutbox.html}, '')`], needles);
    const emailsDeleted = (
      await tx
        .delete(emailOutbox)
        .where(or(sameEmail(emailOutbox.to, email), aboutSubject.length ? inArray(emailOutbox.dedupeKey, aboutSubject) : undefined, mailNaming))
        .returning({ id: emailOutbox.id })
    ).length;

    const logsNaming = mentionsAny([sql`coalesce(${channelLogs.details}, '')`, sql`coalesce(${channelLogs.metadata}::text, '')`], needles);
    await tx
      .update(channelLogs)
      .set({ details: `${ERASED_NAME} at the person's request`, metadata: null })
      .where(
        or(
          ids.length ? and(eq(channelLogs.entityType, 'booking'), inArray(channelLogs.entityId, ids.map(String))) : undefined,
          enquiryIds.length ? and(eq(channelLogs.entityType, 'contact_enquiry'), inArray(channelLogs.entityId, enquiryIds.map(String))) : undefined,
          logsNaming,
        ) ?? sql`false`,
      );
    const placesNaming = mentionsAny([sql`${geocodeCache.key}`, sql`${geocodeCache.result}::text`], addresses);
    if (placesNaming) await tx.delete(geocodeCache).where(placesNaming);
    // A worker's name leaves the notes, logs and stop history their crew days wrote (worker-erasure.ts).
    await eraseWorkers(db, erasedWorkers, ERASED_NAME);

    const result: ErasureResult = { bookingsAnonymised: ids.length, enquiriesDeleted, reviewsDeleted, emailsDeleted, filesDeleted: 0 };
    await writeChannelLog(db, {
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
