-- hand-written (before the NOT NULL column it makes possible):
-- Known devices were tied to no account; a device is now known to the person who signed in from
-- it, so the old rows mean nothing. Each browser is known again at its next sign-in.
DELETE FROM "known_devices";--> statement-breakpoint
ALTER TABLE "known_devices" DROP CONSTRAINT "known_devices_pkey";--> statement-breakpoint
ALTER TABLE "known_devices" ADD COLUMN "user_id" integer NOT NULL;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_token_hash_user_id_pk" PRIMARY KEY("token_hash","user_id");--> statement-breakpoint
ALTER TABLE "upload_sessions" ADD COLUMN "received_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "upload_sessions" ADD COLUMN "last_activity_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_staff_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "known_devices_user_idx" ON "known_devices" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "known_devices_seen_idx" ON "known_devices" USING btree ("last_seen_at");--> statement-breakpoint
-- hand-written:
-- Part uploads already open count by the parts they hold (full parts; the last one may be shorter,
-- a bound and not a meter) and were last heard from when opened.
UPDATE "upload_sessions" SET
  "received_bytes" = least("file_size", "part_size" * length(replace(("received_mask"::bit(32))::text, '0', ''))),
  "last_activity_at" = "created_at";
