CREATE INDEX "bookings_archived_step_created_idx" ON "bookings" USING btree ("archived","current_step","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "bookings_installation_day_idx" ON "bookings" USING btree (coalesce(("installation_date" at time zone 'Europe/London')::date, "preferred_date"));
