CREATE TABLE "reschedule_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"weather_day_id" integer,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_days" (
	"date" date PRIMARY KEY NOT NULL,
	"capacity" integer NOT NULL,
	"reason" text,
	"updated_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "weather_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"date" date NOT NULL,
	"regions" text[] NOT NULL,
	"regions_key" text NOT NULL,
	"idempotency_key_hash" text,
	"result" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reschedule_links" ADD CONSTRAINT "reschedule_links_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reschedule_links" ADD CONSTRAINT "reschedule_links_weather_day_id_weather_days_id_fk" FOREIGN KEY ("weather_day_id") REFERENCES "public"."weather_days"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reschedule_links_booking_idx" ON "reschedule_links" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "weather_days_date_regions_idx" ON "weather_days" USING btree ("date","regions_key");--> statement-breakpoint
CREATE UNIQUE INDEX "weather_days_idempotency_idx" ON "weather_days" USING btree ("idempotency_key_hash");--> statement-breakpoint
-- hand-written: a blocked date becomes a closed day (capacity 0) with its reason, then the old table goes.
INSERT INTO "schedule_days" ("date", "capacity", "reason", "created_at", "updated_at")
SELECT "date", 0, "reason", "created_at", "created_at" FROM "blocked_dates"
ON CONFLICT ("date") DO NOTHING;--> statement-breakpoint
DROP TABLE "blocked_dates" CASCADE;
