-- Every e-mail a booking causes names its booking (api.md "Staff messages"): before this change
-- the crew's on-the-way e-mail, the four stencil-proof e-mails and the installation cancellation
-- were written without one, so the booking's Messages missed them. Each kind's dedupe key names
-- the booking, its proof or its stencil change; the rows written so far get their booking back.
UPDATE "email_outbox" AS o SET "booking_id" = b."id"
FROM "bookings" AS b
WHERE o."booking_id" IS NULL
  AND o."kind" IN ('crew-on-the-way', 'installation-cancelled')
  AND o."dedupe_key" ~ '^(crew-on-the-way|installation-cancelled):[0-9]{1,9}:'
  AND b."id" = split_part(o."dedupe_key", ':', 2)::integer;
--> statement-breakpoint
UPDATE "email_outbox" AS o SET "booking_id" = p."booking_id"
FROM "proofs" AS p
WHERE o."booking_id" IS NULL
  AND o."kind" IN ('proof-ready', 'proof-reminder', 'proof-approved-staff', 'proof-changes-staff')
  AND o."dedupe_key" ~ '^(proof-ready|proof-reminder|proof-approved-staff|proof-changes-staff):[0-9]{1,9}$'
  AND p."id" = split_part(o."dedupe_key", ':', 2)::integer;
--> statement-breakpoint
UPDATE "email_outbox" AS o SET "booking_id" = c."booking_id"
FROM "stencil_changes" AS c
WHERE o."booking_id" IS NULL
  AND o."kind" = 'proof-changes-staff'
  AND o."dedupe_key" ~ '^stencil-change-staff:[0-9]{1,9}$'
  AND c."id" = split_part(o."dedupe_key", ':', 2)::integer;
--> statement-breakpoint
-- A resend is a copy of its original: it belongs to the same booking.
UPDATE "email_outbox" AS copy SET "booking_id" = original."booking_id"
FROM "email_outbox" AS original
WHERE copy."booking_id" IS NULL
  AND copy."resend_of" = original."id"
  AND original."booking_id" IS NOT NULL;
