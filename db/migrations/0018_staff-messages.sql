ALTER TABLE "email_outbox" ADD COLUMN "booking_id" integer;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "resend_of" integer;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_resend_of_email_outbox_id_fk" FOREIGN KEY ("resend_of") REFERENCES "public"."email_outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_outbox_booking_idx" ON "email_outbox" USING btree ("booking_id","id");--> statement-breakpoint
CREATE INDEX "email_outbox_created_idx" ON "email_outbox" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "email_outbox_to_idx" ON "email_outbox" USING btree (lower("to_address"));--> statement-breakpoint
CREATE UNIQUE INDEX "email_outbox_pending_resend_idx" ON "email_outbox" USING btree ("resend_of") WHERE "email_outbox"."status" in ('queued', 'sending');--> statement-breakpoint
-- Mail written before this column existed: every booking message's dedupe key starts with
-- '<kind>:<booking id>' (src/server/email/templates), so the link is recovered from it.
UPDATE "email_outbox" AS "mail" SET "booking_id" = split_part("mail"."dedupe_key", ':', 2)::integer
FROM "bookings"
WHERE "mail"."booking_id" IS NULL
  AND "mail"."kind" IN ('booking-confirmation', 'booking-staff-notification', 'payment-receipt', 'completion', 'review-invitation', 'installation-reminder', 'installation-rescheduled')
  AND split_part("mail"."dedupe_key", ':', 2) ~ '^[0-9]{1,9}$'
  AND "bookings"."id" = split_part("mail"."dedupe_key", ':', 2)::integer;
