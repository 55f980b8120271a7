CREATE TABLE "client_hash_keys" (
	"day" date PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Client keys made before this migration are unkeyed SHA-256s of addresses, which anyone can undo
-- by hashing every IPv4 address. The Logs would keep them for 3 years and Idempotency-Key rows for
-- 7 days: they go now (an old key's replay was going to meet a new client key anyway). Rate-limit
-- windows keep theirs until the hourly job prunes them, within a day.
UPDATE "channel_logs" SET "ip_address" = NULL WHERE "ip_address" IS NOT NULL;--> statement-breakpoint
-- A staff resend's key names the staff member, not an address: it stays.
UPDATE "idempotency_keys" SET "client_key" = NULL WHERE "client_key" IS NOT NULL AND "scope" <> 'resend-message';
