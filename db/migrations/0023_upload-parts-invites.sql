CREATE TABLE "upload_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"original_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"part_size" integer NOT NULL,
	"part_count" smallint NOT NULL,
	"received_mask" integer DEFAULT 0 NOT NULL,
	"mime_type" text,
	"file_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "invite_status" text DEFAULT 'tentative' NOT NULL;--> statement-breakpoint
UPDATE "bookings" SET "invite_status" = 'confirmed' WHERE "payment_status" = 'paid';--> statement-breakpoint
UPDATE "bookings" SET "invite_status" = 'cancelled' WHERE "status" = 'cancelled' OR "archived";--> statement-breakpoint
CREATE INDEX "upload_sessions_created_idx" ON "upload_sessions" USING btree ("created_at");
