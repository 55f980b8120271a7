CREATE TABLE "known_devices" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "used_challenges" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "hold_client" text;--> statement-breakpoint
ALTER TABLE "upload_sessions" ADD COLUMN "client_key" text;--> statement-breakpoint
ALTER TABLE "uploaded_files" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE INDEX "bookings_hold_client_idx" ON "bookings" USING btree ("hold_client","created_at");