ALTER TABLE "photos" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "hidden_by" text;