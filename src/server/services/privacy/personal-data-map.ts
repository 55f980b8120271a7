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
    erasure: "sessions of the subject's uploaded files deleted (unfinished ones expire with UNCLAIMED_UPLOAD_LIFETIME_MS)",
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
