/**
 * The database, in one place (conventions: "db/schema.ts, the one source of truth").
 * Money is integer pence; calendar dates are `date` (YYYY-MM-DD strings); instants are timestamptz.
 * Migrations in db/migrations are generated from this file by drizzle-kit and committed.
 */
import {
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/**
 * The text a free-text admin search looks in, as one expression so one trigram index (pg_trgm,
 * GIN) answers `ILIKE '%term%'` without reading every row. Queries must use these same functions:
 * PostgreSQL uses an expression index only for the identical expression. Fields are joined by a
 * newline, which a search box cannot hold, so a term never matches across two fields; first and
 * last name are joined by a space so that "Jane Smith" finds her.
 */
export const bookingSearchText = (columns: {
  firstName: AnyPgColumn;
  lastName: AnyPgColumn;
  email: AnyPgColumn;
  businessName: AnyPgColumn;
  postcode: AnyPgColumn;
  locationAddress: AnyPgColumn;
}) =>
  // The addresses without spaces, so a full postcode is found however it was typed ('M4 6AJ', 'm46aj').
  sql`(${columns.firstName} || ' ' || ${columns.lastName} || chr(10) || ${columns.email} || chr(10) || coalesce(${columns.businessName}, '') || chr(10) || coalesce(${columns.postcode}, '') || chr(10) || replace(${columns.locationAddress}, ' ', ''))`;

/**
 * The London day the crew is expected (domain/schedule.ts installationDay): the installation date
 * once staff set it, else the preferred date. One expression, indexed, so the Projects tab finds a
 * day's installations without reading every booking; queries must use this same function.
 */
export const bookingInstallationDay = (columns: { installationDate: AnyPgColumn; preferredDate: AnyPgColumn }) =>
  sql`coalesce((${columns.installationDate} at time zone 'Europe/London')::date, ${columns.preferredDate})`;

export const channelLogSearchText = (columns: { action: AnyPgColumn; entityId: AnyPgColumn; details: AnyPgColumn }) =>
  sql`(${columns.action} || chr(10) || coalesce(${columns.entityId}, '') || chr(10) || coalesce(${columns.details}, ''))`;
const instant = (name: string) => timestamp(name, { withTimezone: true });

// ---------------------------------------------------------------- bookings

export const bookings = pgTable(
  'bookings',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    businessName: text('business_name'),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    quantity: integer('quantity').notNull(),
    /** The selected addresses joined with '; ' (public-site.md §3). */
    locationAddress: text('location_address').notNull(),
    /** Outward code and region of the first location, derived on the server for route grouping. */
    postcode: text('postcode'),
    region: text('region'),
    specialInstructions: text('special_instructions'),
    workType: text('work_type', { enum: ['day', 'night'] }).notNull(),
    /** A Rush Job (+£30 a patch): its day may be 2 working days out instead of the standard lead (domain/booking-days.ts). */
    rush: boolean('rush').notNull().default(false),
    preferredDate: date('preferred_date').notNull(),
    /** Computed on the server from quantity, work type and rush; the browser's figure is ignored. */
    totalPricePence: integer('total_price_pence').notNull(),
    status: text('status').notNull().default('pending'),
    currentStep: smallint('current_step').notNull().default(1),
    statusNotes: text('status_notes'),
    consultationDate: instant('consultation_date'),
    stencilApprovedDate: instant('stencil_approved_date'),
    installationDate: instant('installation_date'),
    completionDate: instant('completion_date'),
    archived: boolean('archived').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    paymentStatus: text('payment_status', { enum: ['unpaid', 'processing', 'paid', 'failed'] })
      .notNull()
      .default('unpaid'),
    /**
     * clientKey() of the client that made the booking (keyed with that day's secret, so it says
     * nothing about the address): one client holds at most 2 unpaid bookings, and its repeat
     * unpaid booking of a date it already held does not hold that date again (availability.ts).
     */
    holdClient: text('hold_client'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    /** SHA-256 of the random token the booking's creator gets; paying requires it (ids are guessable). */
    checkoutTokenHash: text('checkout_token_hash'),
    amountPaidPence: integer('amount_paid_pence'),
    paidAt: instant('paid_at'),
    /**
     * Why the payment is not done: Stripe's decline message when 'failed'; when 'processing', what
     * staff must check (an amount or currency that did not match the booking).
     */
    paymentFailureMessage: text('payment_failure_message'),
    /** When Stripe created the last payment event applied here: an older processing/failed event is stale. */
    paymentEventAt: instant('payment_event_at'),
    completionEmailSentAt: instant('completion_email_sent_at'),
    reviewRequestSentAt: instant('review_request_sent_at'),
    /** The installation date the day-before reminder went out for: a moved date gets a new one. */
    reminderSentFor: date('reminder_sent_for'),
    /**
     * SEQUENCE of the last calendar invite the customer got (RFC 5545): 0 with the confirmation,
     * one more each time the installation moves to another day, so calendar apps replace the event.
     */
    inviteSequence: integer('invite_sequence').notNull().default(0),
    /**
     * What the last invite told the customer's calendar (src/domain/ics.ts): 'tentative' while
     * unpaid, 'confirmed' once paid, 'cancelled' after a METHOD:CANCEL (cancelled, archived, or
     * an unpaid hold that lapsed). A cancel is sent once: only from another state.
     */
    inviteStatus: text('invite_status', { enum: ['tentative', 'confirmed', 'cancelled'] }).notNull().default('tentative'),
    /**
     * What the customer asked their invoices to carry (PATCH /api/bookings/{id}/billing): copied
     * into each invoice when it is issued, so a later change reaches later invoices only.
     */
    billingAddress: text('billing_address'),
    poReference: text('po_reference'),
    customerVatNumber: text('customer_vat_number'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('bookings_preferred_date_idx').on(table.preferredDate),
    index('bookings_status_idx').on(table.status),
    index('bookings_hold_client_idx').on(table.holdClient, table.createdAt),
    // The admin's booking list: newest first, paged by (created_at, id), filtered by archived.
    index('bookings_archived_created_idx').on(table.archived, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('bookings_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The Projects tab: active projects at one step, newest first; and the installations of one day.
    index('bookings_archived_step_created_idx').on(
      table.archived,
      table.currentStep,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('bookings_installation_day_idx').on(bookingInstallationDay(table)),
    uniqueIndex('bookings_payment_intent_idx').on(table.stripePaymentIntentId),
    index('bookings_search_trgm_idx').using('gin', sql`${bookingSearchText(table)} gin_trgm_ops`),
  ],
);

export const bookingLocations = pgTable(
  'booking_locations',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    address: text('address').notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    postcode: text('postcode'),
    region: text('region'),
  },
  (table) => [index('booking_locations_booking_idx').on(table.bookingId)],
);

/**
 * A customer's brand asset, stored once. Rows are written by the upload call before the booking
 * exists and claimed by the booking that names them (booking_files), so a booking can only attach
 * files that were really uploaded.
 */
export const uploadedFiles = pgTable(
  'uploaded_files',
  {
    id: serial('id').primaryKey(),
    fileName: text('file_name').notNull().unique(),
    originalName: text('original_name').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    storage: text('storage', { enum: ['disk', 'blobs', 'uploadcare'] }).notNull(),
    /** clientKey() of the uploader: its unclaimed files count against its share (upload-quota.ts). */
    clientKey: text('client_key'),
    createdAt: createdAt(),
  },
);

/**
 * Which brand files each booking uses: the one home of "a booking's files". A file no row names
 * is unclaimed (upload-quota.ts counts it, upload-cleanup.ts removes it after a day). Book again
 * adds a row for the new booking naming the earlier booking's file, so the bytes, the stored
 * name and the quota's count stay with the one uploaded_files row, however many bookings use it.
 */
export const bookingFiles = pgTable(
  'booking_files',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => uploadedFiles.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.bookingId, table.fileId] }), index('booking_files_file_idx').on(table.fileId)],
);

/**
 * A large file arriving in parts (api/routes/upload-parts.ts): each part fits one function call.
 * `receivedMask` has bit i set once part i is stored; the type is sniffed from part 0. Completing
 * assembles the parts into one stored file, records it in uploaded_files and keeps its name here,
 * so a repeated completion answers with the same file. Unfinished ones go after a day.
 */
export const uploadSessions = pgTable(
  'upload_sessions',
  {
    id: text('id').primaryKey(),
    originalName: text('original_name').notNull(),
    fileSize: integer('file_size').notNull(),
    partSize: integer('part_size').notNull(),
    partCount: smallint('part_count').notNull(),
    receivedMask: integer('received_mask').notNull().default(0),
    /** Bytes of the parts stored so far: what an unfinished upload counts against the quota. */
    receivedBytes: integer('received_bytes').notNull().default(0),
    /** The last part's arrival (or the opening): a session idle for 15 minutes has ended. */
    lastActivityAt: instant('last_activity_at').notNull().defaultNow(),
    mimeType: text('mime_type'),
    fileName: text('file_name'),
    /** clientKey() of the uploader: an unfinished file counts against its share and the quota. */
    clientKey: text('client_key'),
    createdAt: createdAt(),
  },
  (table) => [index('upload_sessions_created_idx').on(table.createdAt)],
);

export const progressLogs = pgTable(
  'progress_logs',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    step: smallint('step').notNull(),
    stepName: text('step_name').notNull(),
    status: text('status').notNull(),
    notes: text('notes'),
    /** Who wrote it: a staff account's id, or `crew:<id>`, `customer`, `system` (as channel logs). */
    userId: text('user_id'),
    createdAt: createdAt(),
  },
  (table) => [index('progress_logs_booking_idx').on(table.bookingId)],
);

export const photos = pgTable(
  'photos',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull().unique(),
    originalName: text('original_name').notNull(),
    description: text('description'),
    photoType: text('photo_type', { enum: ['before', 'during', 'after', 'reference'] }).notNull(),
    step: smallint('step').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    /** The small copy the admin's browser makes (long side 480 px); null for photos stored without one. */
    thumbnailFileName: text('thumbnail_file_name'),
    /**
     * Crew proof (api.md "Crew day"): when the phone took it and, with the worker's permission,
     * where (metres of accuracy). Kept for staff only: no customer-facing answer selects these.
     */
    takenAt: instant('taken_at'),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    accuracyM: doublePrecision('accuracy_m'),
    /** The worker whose crew link sent it; null for the admin's uploads. */
    workerId: integer('worker_id').references((): AnyPgColumn => workers.id, { onDelete: 'set null' }),
    /** The phone's Idempotency-Key: the same upload sent twice (a lost answer) is stored once. */
    clientUploadId: text('client_upload_id'),
    /**
     * Set when staff hide the photo from the customer (services/projects/photo-visibility.ts):
     * every customer-facing reader leaves it out while staff still see it. Null: shown.
     */
    hiddenAt: instant('hidden_at'),
    /** Who hid it: a staff account's id (as progress_logs.user_id); null while shown. */
    hiddenBy: text('hidden_by'),
    createdAt: createdAt(),
  },
  (table) => [
    index('photos_booking_idx').on(table.bookingId),
    uniqueIndex('photos_booking_client_upload_idx').on(table.bookingId, table.clientUploadId),
  ],
);

/**
 * Magic links to a booking's tracking page (/track-project?t=TOKEN). Only the SHA-256 of each
 * random token is kept. A booking may hold several live links: the confirmation e-mail and the
 * payment receipt each carry their own (the receipt is written long after the first token was
 * last seen in plain text). Deleting a booking, or erasing its personal data (which must delete
 * these rows: services/projects/tracking.ts revokeTrackingAccess), ends every link.
 */
export const trackingLinks = pgTable(
  'tracking_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('tracking_links_booking_idx').on(table.bookingId)],
);

/**
 * A browser's short-lived right to see one booking's photos, granted by a successful tracking
 * call. The cookie carries the random token; only its SHA-256 is kept (no signing secret needed).
 */
export const photoGrants = pgTable(
  'photo_grants',
  {
    tokenHash: text('token_hash').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    expiresAt: instant('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('photo_grants_expires_idx').on(table.expiresAt)],
);

// ---------------------------------------------------------------- schedule

/**
 * Days whose capacity staff set (api.md "Schedule and weather days"): fewer crews, a holiday. A day
 * without a row has DAILY_PATCH_CAPACITY; capacity 0 closes it, and a blocked date is such a closed
 * day with its reason (migration 0034 moved the old blocked_dates here).
 */
export const scheduleDays = pgTable('schedule_days', {
  date: date('date').primaryKey(),
  capacity: integer('capacity').notNull(),
  reason: text('reason'),
  updatedBy: text('updated_by'),
  createdAt: createdAt(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

/**
 * A rain day (POST /api/admin/weather-days): the day is closed for `regions` (empty: every
 * region) and its bookings were moved as `result` says. One row per date and set of regions
 * (`regionsKey`, the sorted regions or '*'), so a second weather day moves nothing twice; the
 * Idempotency-Key's SHA-256 replays the first answer.
 */
export const weatherDays = pgTable(
  'weather_days',
  {
    id: serial('id').primaryKey(),
    date: date('date').notNull(),
    regions: text('regions').array().notNull(),
    regionsKey: text('regions_key').notNull(),
    idempotencyKeyHash: text('idempotency_key_hash'),
    result: jsonb('result').$type<{ moves: unknown[]; unplaced: unknown[] }>().notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('weather_days_date_regions_idx').on(table.date, table.regionsKey),
    uniqueIndex('weather_days_idempotency_idx').on(table.idempotencyKeyHash),
  ],
);

/**
 * The customer's "choose another day" link from a weather e-mail (GET/POST /api/reschedule/{token}):
 * the token's SHA-256, for one booking; used once, and over on the booking's day.
 */
export const rescheduleLinks = pgTable(
  'reschedule_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    weatherDayId: integer('weather_day_id').references(() => weatherDays.id, { onDelete: 'set null' }),
    usedAt: instant('used_at'),
    createdAt: createdAt(),
  },
  (table) => [index('reschedule_links_booking_idx').on(table.bookingId)],
);

// ---------------------------------------------------------------- enquiries and reviews

export const contactEnquiries = pgTable(
  'contact_enquiries',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    inquiryType: text('inquiry_type').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  // The admin's Contacts tab: newest first, paged by (created_at, id).
  (table) => [index('contact_enquiries_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())],
);

export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    rating: smallint('rating').notNull(),
    reviewText: text('review_text').notNull(),
    serviceQuality: smallint('service_quality'),
    timeliness: smallint('timeliness'),
    communication: smallint('communication'),
    customerName: text('customer_name').notNull(),
    isPublished: boolean('is_published').notNull().default(true),
    /** Why staff hid it (REVIEW_HIDE_REASONS: abuse or personal data, never its score), and when. */
    hiddenReason: text('hidden_reason'),
    hiddenAt: instant('hidden_at'),
    submittedAt: instant('submitted_at').notNull().defaultNow(),
  },
  (table) => [index('reviews_submitted_idx').on(table.submittedAt)],
);

/** Single-use review links: only the SHA-256 of the token is kept. */
export const reviewRequests = pgTable('review_requests', {
  tokenHash: text('token_hash').primaryKey(),
  bookingId: integer('booking_id')
    .notNull()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  expiresAt: instant('expires_at').notNull(),
  usedAt: instant('used_at'),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- analytics and logs

/** No raw IP address is stored (api.md): country and city come from the platform's geo data. */
export const pageViews = pgTable(
  'page_views',
  {
    id: serial('id').primaryKey(),
    path: text('path').notNull(),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    country: text('country'),
    city: text('city'),
    /** The browser's own clock, kept for reference; ordering and windows use createdAt. */
    clientTimestamp: instant('client_timestamp'),
    createdAt: createdAt(),
  },
  (table) => [index('page_views_created_idx').on(table.createdAt)],
);

/**
 * Page views per London day, counted once in total and once per path, country and city (the
 * three top lists never combine them, so one row per value keeps a day to a few dozen rows
 * rather than one per combination). Unknown countries and cities have no row; the total counts
 * them. Written only by services/analytics/page-view-rollup.ts, a whole day at a time, for every closed
 * day up to the watermark in `rollupWatermarks` ('page_views'); later days are still counted
 * from page_views itself.
 */
export const pageViewDaily = pgTable(
  'page_view_daily',
  {
    day: date('day').notNull(),
    dimension: text('dimension', { enum: ['total', 'path', 'country', 'city'] }).notNull(),
    /** The path, country or city; '' for the total. */
    value: text('value').notNull(),
    views: integer('views').notNull(),
  },
  (table) => [primaryKey({ columns: [table.dimension, table.day, table.value] })],
);

/** How far each roll-up has got: every day up to and including `throughDay` is rolled up. */
export const rollupWatermarks = pgTable('rollup_watermarks', {
  name: text('name').primaryKey(),
  throughDay: date('through_day').notNull(),
  updatedAt: instant('updated_at').notNull().defaultNow(),
});

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: serial('id').primaryKey(),
    eventName: text('event_name').notNull(),
    path: text('path'),
    createdAt: createdAt(),
  },
  (table) => [index('analytics_events_created_idx').on(table.createdAt)],
);

export const channelLogs = pgTable(
  'channel_logs',
  {
    id: serial('id').primaryKey(),
    timestamp: instant('timestamp').notNull().defaultNow(),
    channel: text('channel', { enum: ['booking', 'email', 'notification', 'admin', 'database'] }).notNull(),
    action: text('action').notNull(),
    entityType: text('entity_type'),
    entityId: text('entity_id'),
    severity: text('severity', { enum: ['info', 'warning', 'error', 'critical'] }).notNull().default('info'),
    userId: text('user_id'),
    ipAddress: text('ip_address'),
    details: text('details'),
    metadata: jsonb('metadata'),
  },
  (table) => [
    index('channel_logs_timestamp_idx').on(table.timestamp),
    index('channel_logs_channel_idx').on(table.channel),
    // The Logs tab reads newest first, usually filtered by channel or severity, paging by
    // (timestamp, id): read backwards, these serve that order directly without sorting 200 000 rows
    // (ascending on purpose: a backward scan matches ORDER BY ... DESC's default NULLS FIRST).
    index('channel_logs_timestamp_id_idx').on(table.timestamp, table.id),
    index('channel_logs_channel_timestamp_idx').on(table.channel, table.timestamp, table.id),
    index('channel_logs_severity_timestamp_idx').on(table.severity, table.timestamp, table.id),
    index('channel_logs_search_trgm_idx').using('gin', sql`${channelLogSearchText(table)} gin_trgm_ops`),
  ],
);

// ---------------------------------------------------------------- platform

/**
 * Everyone who uses the dashboard (api.md "Staff accounts"). The bootstrap owner is the row whose
 * e-mail is ADMIN_EMAIL (or owner@localhost): ADMIN_PASSWORD / ADMIN_PASSWORD_HASH sign it in and
 * the sign-in creates or updates it. Others are invited by an owner and choose their password.
 */
export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** Kept lower-case and trimmed: one address, one account. */
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'staff', 'viewer'] }).notNull(),
    status: text('status', { enum: ['invited', 'active', 'deactivated'] }).notNull().default('invited'),
    /** scrypt, as admin-password.ts stores it; null until an invitation is accepted. */
    passwordHash: text('password_hash'),
    /** The person's own authenticator secret (base32), once confirmed with a code. */
    totpSecret: text('totp_secret'),
    /** A secret shown for setup, not yet confirmed: it signs nobody in. */
    totpPendingSecret: text('totp_pending_secret'),
    lastSignInAt: instant('last_sign_in_at'),
    /** When the name was chosen (by the person, or by the owner inviting them); null for the bootstrap owner's placeholder, so the dashboard asks. */
    nameChosenAt: instant('name_chosen_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [uniqueIndex('staff_users_email_idx').on(table.email)],
);

/**
 * Invitation and password-reset links: single use, 48 hours, only the SHA-256 of the random token
 * kept. A newer link for the same person and purpose retires the older ones.
 */
export const staffTokens = pgTable(
  'staff_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['invite', 'reset'] }).notNull(),
    expiresAt: instant('expires_at').notNull(),
    usedAt: instant('used_at'),
    createdAt: createdAt(),
  },
  (table) => [index('staff_tokens_user_idx').on(table.userId)],
);

/** WebAuthn credentials (passkeys), several per person, each named and removable. */
export const staffPasskeys = pgTable(
  'staff_passkeys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    /** The credential id (base64url), as the authenticator returns it at sign-in. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>(),
    name: text('name').notNull(),
    lastUsedAt: instant('last_used_at'),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('staff_passkeys_credential_idx').on(table.credentialId), index('staff_passkeys_user_idx').on(table.userId)],
);

/**
 * WebAuthn challenges issued by the server: each is used once (deleted as it is checked) and
 * lives five minutes, so a captured assertion cannot be replayed.
 */
export const webauthnChallenges = pgTable('webauthn_challenges', {
  challenge: text('challenge').primaryKey(),
  purpose: text('purpose', { enum: ['register', 'login'] }).notNull(),
  /** The person registering; null for sign-in, where the credential names the person. */
  userId: integer('user_id').references(() => staffUsers.id, { onDelete: 'cascade' }),
  expiresAt: instant('expires_at').notNull(),
  createdAt: createdAt(),
});

export const adminSessions = pgTable(
  'admin_sessions',
  {
    /** SHA-256 of the cookie's random token: a database leak does not leak live sessions. */
    tokenHash: text('token_hash').primaryKey(),
    /** Whose session it is. Sessions from before accounts have none and open nothing. */
    userId: integer('user_id').references(() => staffUsers.id, { onDelete: 'cascade' }),
    /** The browser's User-Agent at sign-in, shown as the device in My account. */
    userAgent: text('user_agent'),
    /** The absolute end of the session (8 hours after sign-in), whatever its use. */
    expiresAt: instant('expires_at').notNull(),
    /** The last request it made: 30 minutes without one ends it (idle timeout). */
    lastSeenAt: instant('last_seen_at').notNull().defaultNow(),
    revokedAt: instant('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [index('admin_sessions_user_idx').on(table.userId)],
);

/**
 * TOTP time steps already used to sign in, per person: each code opens one session only, so a
 * code seen over a shoulder or replayed from a log is worthless (RFC 6238 §5.2).
 */
export const adminTotpUses = pgTable(
  'staff_totp_uses',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    step: bigint('step', { mode: 'number' }).notNull(),
    usedAt: instant('used_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.step] })],
);

/** Fixed-window counters shared by every function instance (functions share no memory). */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').notNull(),
    windowStart: instant('window_start').notNull(),
    count: integer('count').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.key, table.windowStart] })],
);

/**
 * The secret that client-address hashes are keyed with (services/limits/client-info.ts): 32 random bytes
 * (base64url), one per UTC day, made by whichever function instance first needs the day's key.
 * The hourly job deletes a key once its day and the next are over; after that nobody, not even
 * someone holding the whole database, can tell which address a hash made with it came from.
 */
export const clientHashKeys = pgTable('client_hash_keys', {
  day: date('day').primaryKey(),
  key: text('key').notNull(),
  createdAt: createdAt(),
});

/**
 * Proof-of-work solutions already spent (services/limits/challenge.ts): a solved challenge lets
 * one request past a site-wide ceiling, once. Kept until the challenge expires, then pruned.
 */
export const usedChallenges = pgTable('used_challenges', {
  /** The challenge's HMAC signature, unique to it. */
  signature: text('signature').primaryKey(),
  expiresAt: instant('expires_at').notNull(),
});

/**
 * Browsers that signed in to the dashboard before (services/staff/known-devices.ts): SHA-256 of
 * the long-lived device cookie, one row per person who signed in from it. For that person only,
 * the password check is spared the account and site-wide pressure, so a flood of wrong passwords
 * from elsewhere never locks them out.
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: text('token_hash').notNull(),
    /** The person who signed in from it: the device is known to them only (api.md). */
    userId: integer('user_id')
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: instant('last_seen_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.tokenHash, table.userId] }), index('known_devices_user_idx').on(table.userId), index('known_devices_seen_idx').on(table.lastSeenAt)],
);

/** A replayed Idempotency-Key returns the first result instead of doing the work twice. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** clientKey() of the client that made the key (keyed with that day's secret): only it may replay the stored response. */
    clientKey: text('client_key'),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.scope, table.key] })],
);

export interface EmailAttachment {
  filename: string;
  /** MIME type, e.g. 'text/calendar; charset=utf-8; method=REQUEST'. */
  type: string;
  /** The file's bytes, base64 ('' for an invoice not drawn yet: see `invoice`). */
  content: string;
  /** Set for an image the HTML part shows itself (`<img src="cid:…">`): sent inline, not as a file. */
  contentId?: string;
  /**
   * An issued invoice's number: the PDF is that invoice's, drawn from its row when the message is
   * first delivered (providers/mailer.ts) and then kept here, so the payment's transaction never
   * draws it and a retry or a resend sends the same bytes.
   */
  invoice?: string;
}

/**
 * Every e-mail the system writes, as sent: staff read them in the dashboard (api.md "Staff
 * messages"). Without SendGrid the outbox is where mail is read locally. Personal data lives in
 * `to_address`, `subject`, `text_body`, `html_body` and `attachments`; a row written for a booking
 * carries `booking_id` (deleted with the booking), so erasure finds a booking's mail by that
 * column as well as by address.
 */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: serial('id').primaryKey(),
    /** Makes a retried job or a replayed webhook write the same e-mail once. */
    dedupeKey: text('dedupe_key').unique(),
    /** What the message is (src/domain/email-kinds.ts): 'booking-confirmation', 'worker-routes', ... */
    kind: text('kind').notNull(),
    /** The booking it was written for; null for mail about no booking (enquiries, workers). */
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    /** The message a staff member resent to make this one: at most one such copy waits at a time. */
    resendOf: integer('resend_of').references((): AnyPgColumn => emailOutbox.id, { onDelete: 'set null' }),
    to: text('to_address').notNull(),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body'),
    /** Files sent with the message, e.g. the calendar invite: [{filename, type, content (base64)}]. */
    attachments: jsonb('attachments').$type<EmailAttachment[]>(),
    status: text('status', { enum: ['queued', 'sending', 'sent', 'failed', 'logged'] }).notNull().default('queued'),
    /** Delivery attempts so far; the maintenance job retries failed rows a few times. */
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: instant('last_attempt_at'),
    provider: text('provider'),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
  },
  (table) => [
    index('email_outbox_status_idx').on(table.status),
    // A booking's Messages view, oldest first.
    index('email_outbox_booking_idx').on(table.bookingId, table.id),
    // The Logs tab's Messages list: newest first, paged by (created_at, id), filtered by recipient.
    index('email_outbox_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('email_outbox_to_idx').on(sql`lower(${table.to})`),
    // The Messages search: part of a recipient's address.
    index('email_outbox_to_trgm_idx').using('gin', sql`${table.to} gin_trgm_ops`),
    // A double click on Resend queues one copy: a second waits until the first has gone out.
    uniqueIndex('email_outbox_pending_resend_idx')
      .on(table.resendOf)
      .where(sql`${table.status} in ('queued', 'sending')`),
  ],
);

export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: instant('received_at').notNull().defaultNow(),
});

export const geocodeCache = pgTable('geocode_cache', {
  key: text('key').primaryKey(),
  result: jsonb('result').notNull(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- workers

/** Installers who get tomorrow's routes by e-mail at 6 PM (admin-dashboard.md §2 Workers tab). */
export const workers = pgTable('workers', {
  id: serial('id').primaryKey(),
  /** Optional, like the name on the manual send form; greets the worker when given. */
  name: text('name'),
  /** Stored lower-cased, so one address is one worker. */
  email: text('email').notNull().unique(),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

/** One row per scheduled run (e.g. the 18:00 worker e-mail for a date) so a repeat does nothing. */
export const jobRuns = pgTable(
  'job_runs',
  {
    job: text('job').notNull(),
    runKey: text('run_key').notNull(),
    result: jsonb('result'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.job, table.runKey] })],
);


// ---------------------------------------------------------------- stencil proofs

/**
 * A stencil proof staff send for sign-off at step 2 (api.md "Stencil proof sign-off"). Each upload
 * is the booking's next version; at most one is awaiting a decision (an upload supersedes the
 * one before). A decision is a conditional UPDATE … WHERE status = 'awaiting', so two at once
 * have one winner. An approved proof that the customer later paid to change (stencil_changes)
 * becomes 'changes_requested' and keeps its approvedAt, so both sides see what was approved.
 */
export const proofs = pgTable(
  'proofs',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    status: text('status', { enum: ['awaiting', 'approved', 'changes_requested', 'superseded'] }).notNull().default('awaiting'),
    note: text('note'),
    /** The stored file: a random name in the file store, served only through the access-checked route. */
    fileName: text('file_name').notNull().unique(),
    originalName: text('original_name').notNull(),
    mimeType: text('mime_type').notNull(),
    fileSize: integer('file_size').notNull(),
    /**
     * A PDF proof's first page as a PNG, rendered at upload (phone browsers show no PDF inline);
     * null for image proofs and for a PDF the renderer could not read. Served by the same guards.
     */
    previewFileName: text('preview_file_name').unique(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    /** When the customer approved or asked for changes (or a paid change reopened an approval). */
    decidedAt: instant('decided_at'),
    /** The customer's change request (1-2000 characters): personal data for erasure. */
    comment: text('comment'),
    /** When it was approved; kept when a paid change reopens the approval. */
    approvedAt: instant('approved_at'),
    /** The one "still waiting for your decision" reminder (3 business days after the upload). */
    reminderSentAt: instant('reminder_sent_at'),
  },
  (table) => [
    uniqueIndex('proofs_booking_version_idx').on(table.bookingId, table.version),
    index('proofs_status_created_idx').on(table.status, table.createdAt),
  ],
);

/**
 * A stencil change asked for after approval, which costs STENCIL_CHANGE_PENCE (the stencil is
 * remade). It reaches staff and reopens the approval only once paid (Stripe's signed webhook,
 * exactly once) or waived by staff (who and why kept).
 */
export const stencilChanges = pgTable(
  'stencil_changes',
  {
    id: serial('id').primaryKey(),
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    /** The approved proof the change is to. */
    proofId: integer('proof_id')
      .notNull()
      .references(() => proofs.id, { onDelete: 'cascade' }),
    comment: text('comment').notNull(),
    amountPence: integer('amount_pence').notNull(),
    status: text('status', { enum: ['awaiting_payment', 'paid', 'waived'] }).notNull().default('awaiting_payment'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    paidAt: instant('paid_at'),
    waivedBy: text('waived_by'),
    waivedReason: text('waived_reason'),
    waivedAt: instant('waived_at'),
    createdAt: createdAt(),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [
    index('stencil_changes_booking_idx').on(table.bookingId),
    uniqueIndex('stencil_changes_payment_intent_idx').on(table.stripePaymentIntentId),
  ],
);

// ---------------------------------------------------------------- crew day

/**
 * A worker's link to their day (/crew?t=TOKEN, api.md "Crew day"). Only the SHA-256 of the random
 * token is kept. A link is for one London day and works until `expiresAt` (12:00 London the next
 * day) unless staff revoke it; issuing a new link for the same worker and day revokes the older ones.
 */
export const crewLinks = pgTable(
  'crew_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    expiresAt: instant('expires_at').notNull(),
    revokedAt: instant('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [index('crew_links_worker_day_idx').on(table.workerId, table.day)],
);

/**
 * Which worker a day's stop was given to (the Workers tab assigns whole routes). A stop with no
 * row goes to every active worker, as the route e-mail always did.
 */
export const crewAssignments = pgTable(
  'crew_assignments',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    workerId: integer('worker_id')
      .notNull()
      .references(() => workers.id, { onDelete: 'cascade' }),
    assignedAt: instant('assigned_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.bookingId, table.day] }), index('crew_assignments_day_idx').on(table.day)],
);

/**
 * Where a stop stands on its day: planned (no row), on_the_way, started (a first photo arrived),
 * done. Each time is written once; the worker who did it is kept by name too, so the record
 * survives the worker's removal.
 */
export const crewStops = pgTable(
  'crew_stops',
  {
    bookingId: integer('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    status: text('status', { enum: ['on_the_way', 'started', 'done'] }).notNull(),
    workerId: integer('worker_id').references(() => workers.id, { onDelete: 'set null' }),
    workerName: text('worker_name').notNull(),
    /** When the crew tapped On my way / Done, on the phone's clock (api.md "Crew day"). */
    onTheWayAt: instant('on_the_way_at'),
    startedAt: instant('started_at'),
    doneAt: instant('done_at'),
    /**
     * The booking's installation date before the crew's Done set it to the time of the tap, so
     * an undo within CREW_UNDO_MINUTES puts back the time staff scheduled.
     */
    installationDateBeforeDone: instant('installation_date_before_done'),
    /** When the server received the tap: later than the tap when the phone had no signal. */
    onTheWayReceivedAt: instant('on_the_way_received_at'),
    doneReceivedAt: instant('done_received_at'),
    updatedAt: instant('updated_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.bookingId, table.day] }), index('crew_stops_day_idx').on(table.day)],
);

// ---------------------------------------------------------------- documents

/**
 * An issued invoice (api.md "Documents for business customers"): written in the transaction that
 * marks its payment paid, never changed afterwards. Everything it says is frozen here (seller,
 * customer, lines, totals), so editing the booking or the settings later changes no issued
 * invoice. It outlives the booking's personal data: erasure keeps it (a financial record), and a
 * deleted booking leaves it with booking_id null.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    /** The gapless sequence's value (invoice_sequence); `number` is its printed form, CP-000001. */
    sequence: integer('sequence').notNull(),
    number: text('number').notNull(),
    issuedAt: instant('issued_at').notNull(),
    /** The time of supply for VAT: the London day the payment was received. */
    supplyDate: date('supply_date').notNull(),
    kind: text('kind', { enum: ['booking', 'stencil_change'] }).notNull(),
    bookingId: integer('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    stencilChangeId: integer('stencil_change_id').references(() => stencilChanges.id, { onDelete: 'set null' }),
    /** The Stripe PaymentIntent that paid it. */
    paymentReference: text('payment_reference').notNull(),
    /** { legalName, address, vatNumber } as the settings said when it was issued. */
    seller: jsonb('seller').notNull(),
    /** { businessName, contactName, email, billingAddress, poReference, vatNumber }. */
    customer: jsonb('customer').notNull(),
    /** [{ description, quantity, unitPence, netPence, vatPence, grossPence }]. */
    lines: jsonb('lines').notNull(),
    netPence: integer('net_pence').notNull(),
    vatPence: integer('vat_pence').notNull(),
    grossPence: integer('gross_pence').notNull(),
    /** VAT_RATE in basis points (2000 = 20%); null when the seller was not VAT registered. */
    vatRateBasisPoints: integer('vat_rate_basis_points'),
  },
  (table) => [
    uniqueIndex('invoices_number_idx').on(table.number),
    uniqueIndex('invoices_sequence_idx').on(table.sequence),
    uniqueIndex('invoices_stencil_change_idx').on(table.stencilChangeId),
    // One invoice per booking payment (a stencil change's invoice is unique by its change).
    uniqueIndex('invoices_booking_payment_idx').on(table.bookingId).where(sql`kind = 'booking'`),
    index('invoices_booking_idx').on(table.bookingId),
    index('invoices_issued_idx').on(table.issuedAt),
  ],
);

/**
 * The invoice numbers' counter: one row, advanced by UPDATE ... RETURNING inside the payment's
 * transaction. The row lock makes concurrent payments take turns, and a rolled-back payment rolls
 * its number back too, so numbers never repeat and never skip (a PostgreSQL SEQUENCE would skip).
 */
export const invoiceSequence = pgTable('invoice_sequence', {
  id: smallint('id').primaryKey(),
  lastNumber: integer('last_number').notNull(),
});
