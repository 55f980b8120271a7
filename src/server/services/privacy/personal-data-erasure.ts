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
import type { AppDeps } from '../../api/deps.ts';
import { revokeTrackingAccess } from '../projects/tracking.ts';
import { releaseBookingFiles } from '../bookings/booking-files.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { ERASED_RESPONSE_STATUS } from '../bookings/idempotency.ts';
import { eraseWorkers, workerNeedles, workersWithEmail } from './worker-erasure.ts';

/**
 * Where personal data can live, table by table, and what erasure does to it. Every table of
 * db/schema.ts with a text or jsonb column is in exactly one of the two lists below, and every
 * such column of a listed table is named: tests/api/erasure.test.ts fails for a table or column
 * nobody classified, so a new table cannot be merged without deciding whether erasure must reach it.
 *
 * `personal`: columns that can hold a person's name, contact details, address or words;
 * `other`: text columns of the same table that cannot (ids, kinds, statuses, hashes).
 */
export const PERSONAL_DATA = {
  bookings: {
    erasure: 'anonymised (kept 7 years for the accounts: money, dates, patch counts stay)',
    personal: [
      'first_name',
      'last_name',
      'business_name',
      'email',
      'phone',
      'location_address',
      'special_instructions',
      'status_notes',
      'payment_failure_message',
      'billing_address',
      'po_reference',
      'customer_vat_number',
    ],
    other: ['postcode', 'region', 'work_type', 'status', 'payment_status', 'stripe_payment_intent_id', 'checkout_token_hash', 'invite_status', 'hold_client'],
  },
  booking_locations: { erasure: 'address emptied, coordinates zeroed', personal: ['address'], other: ['postcode', 'region'] },
  progress_logs: { erasure: 'notes emptied (the step history stays)', personal: ['notes'], other: ['step_name', 'status', 'user_id'] },
  uploaded_files: {
    erasure: 'rows and files deleted, but a file another booking still uses (Book again) stays with that booking',
    personal: ['original_name'],
    other: ['file_name', 'mime_type', 'storage', 'client_key'],
  },
  upload_sessions: {
    erasure: "sessions of the subject's uploaded files deleted (unfinished ones expire with RETENTION.unclaimedUploads)",
    personal: ['original_name'],
    other: ['id', 'mime_type', 'file_name', 'client_key'],
  },
  photos: {
    erasure: 'rows and files deleted (crew photos too, with where and when they were taken)',
    personal: ['original_name', 'description'],
    other: ['file_name', 'photo_type', 'mime_type', 'thumbnail_file_name', 'client_upload_id', 'hidden_by'],
  },
  proofs: {
    erasure: 'files deleted; the note, the change request and the file name emptied (the version history stays)',
    personal: ['note', 'comment', 'original_name'],
    other: ['status', 'file_name', 'preview_file_name', 'mime_type', 'created_by'],
  },
  stencil_changes: {
    erasure: "the customer's request and the waiver's reason emptied (amounts and payment state stay for the accounts)",
    personal: ['comment', 'waived_reason'],
    other: ['status', 'stripe_payment_intent_id', 'waived_by'],
  },
  // Financial records (api.md "Documents for business customers"): HMRC asks for VAT records to be
  // kept 6 years from the end of the accounting period, so erasure leaves issued invoices as they
  // are, and the hourly job deletes them once that is over (retention.ts); the privacy page says
  // so (src/content/legal).
  invoices: {
    erasure: 'kept unchanged for 6 years after the end of the financial year (VAT records), then deleted by the hourly job; the booking link goes if the booking is deleted',
    personal: ['seller', 'customer', 'lines'],
    other: ['number', 'kind', 'payment_reference'],
  },
  crew_stops: { erasure: "a worker's name replaced when the worker is the subject", personal: ['worker_name'], other: ['status'] },
  contact_enquiries: { erasure: 'deleted', personal: ['first_name', 'last_name', 'email', 'phone', 'message'], other: ['inquiry_type'] },
  reviews: { erasure: 'deleted', personal: ['review_text', 'customer_name'], other: ['hidden_reason'] },
  channel_logs: {
    erasure: "details and metadata of the subject's bookings and enquiries, and any line naming them, replaced",
    personal: ['details', 'metadata'],
    other: ['channel', 'action', 'entity_type', 'entity_id', 'severity', 'user_id', 'ip_address'],
  },
  email_outbox: {
    erasure: 'deleted: mail to the address, staff mail about its bookings and enquiries, and any mail naming it (worker routes)',
    personal: ['to_address', 'subject', 'text_body', 'html_body', 'attachments', 'error'],
    other: ['dedupe_key', 'kind', 'status', 'provider'],
  },
  idempotency_keys: {
    erasure: 'request hash and answer dropped; a replay answers 410',
    personal: ['request_hash', 'response_body'],
    other: ['scope', 'key', 'client_key'],
  },
  geocode_cache: { erasure: "entries for the subject's addresses deleted", personal: ['key', 'result'], other: [] },
  workers: { erasure: 'deleted when the address is a worker', personal: ['name', 'email'], other: [] },
  // The team's own accounts: a customer's request never touches them; an owner deactivates a
  // person in the Team tab, and the name stays on what they did (api.md "Staff accounts").
  staff_users: {
    erasure: 'not a customer record: staff accounts are deactivated from the Team tab',
    personal: ['name', 'email'],
    other: ['role', 'status', 'password_hash', 'totp_secret', 'totp_pending_secret'],
  },
  staff_passkeys: { erasure: 'deleted with the staff account', personal: ['name'], other: ['credential_id', 'public_key', 'transports'] },
} as const satisfies Record<string, { erasure: string; personal: readonly string[]; other: readonly string[] }>;

/** Tables whose text columns cannot hold a person's data, and why. */
export const NO_PERSONAL_DATA = {
  tracking_links: 'token hashes; deleted with the booking\'s access on erasure',
  photo_grants: 'token hashes; deleted with the booking\'s access on erasure',
  review_requests: 'token hashes; deleted on erasure',
  schedule_days: "a day's capacity and a staff reason for closing it",
  weather_days: 'a rain day: its date, regions, the booking ids it moved and the staff account that confirmed it',
  reschedule_links: 'token hashes; deleted with the booking',
  page_views: 'path, referrer, browser and city, with no address, cookie or link to a person',
  page_view_daily: 'daily counts',
  rollup_watermarks: 'job progress',
  analytics_events: 'event names and paths',
  admin_sessions: "hashes of the staff's session tokens and the staff's own browsers' user agents",
  staff_tokens: 'hashes of invitation and reset links',
  webauthn_challenges: 'random passkey challenges, kept five minutes',
  rate_limits: 'counters keyed by a keyed hash of a client address',
  client_hash_keys: 'the random daily secrets client addresses are hashed with; deleted after two days',
  stripe_events: 'Stripe event ids and types',
  job_runs: 'job names, run keys and counts',
  invoice_sequence: 'the last invoice number issued',
  crew_links: "token hashes of a worker's day links; deleted with the worker",
  used_challenges: 'signatures of spent proof-of-work challenges; deleted once expired',
  known_devices: 'hashes of the device cookies of browsers that signed in to the dashboard',
} as const;

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
