ALTER TABLE "crew_stops" ADD COLUMN "on_the_way_received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "crew_stops" ADD COLUMN "done_received_at" timestamp with time zone;--> statement-breakpoint
-- hand-written: taps recorded before this change were stamped on arrival, so both times are that one.
UPDATE "crew_stops" SET "on_the_way_received_at" = "on_the_way_at" WHERE "on_the_way_received_at" IS NULL AND "on_the_way_at" IS NOT NULL;--> statement-breakpoint
UPDATE "crew_stops" SET "done_received_at" = "done_at" WHERE "done_received_at" IS NULL AND "done_at" IS NOT NULL;
