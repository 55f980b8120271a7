ALTER TABLE "staff_users" ADD COLUMN "name_chosen_at" timestamp with time zone;--> statement-breakpoint
-- hand-written: every name so far was chosen by the owner who invited the person; only the
-- bootstrap owner's placeholder "Owner" (made at its first sign-in) was never chosen by anyone.
UPDATE "staff_users" SET "name_chosen_at" = "created_at" WHERE "name" <> 'Owner' OR "role" <> 'owner';
