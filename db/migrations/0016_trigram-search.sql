-- Trigram indexes for the admin's free-text searches (ILIKE '%term%'). pg_trgm ships with
-- PostgreSQL's contrib modules, Neon allows it, and PGlite loads it (db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "bookings_search_trgm_idx" ON "bookings" USING gin (("first_name" || ' ' || "last_name" || chr(10) || "email" || chr(10) || coalesce("business_name", '') || chr(10) || coalesce("postcode", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "channel_logs_search_trgm_idx" ON "channel_logs" USING gin (("action" || chr(10) || coalesce("entity_id", '') || chr(10) || coalesce("details", '')) gin_trgm_ops);