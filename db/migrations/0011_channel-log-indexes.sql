CREATE INDEX "channel_logs_timestamp_id_idx" ON "channel_logs" USING btree ("timestamp","id");--> statement-breakpoint
CREATE INDEX "channel_logs_channel_timestamp_idx" ON "channel_logs" USING btree ("channel","timestamp","id");--> statement-breakpoint
CREATE INDEX "channel_logs_severity_timestamp_idx" ON "channel_logs" USING btree ("severity","timestamp","id");