ALTER TABLE "proofs" ADD COLUMN "preview_file_name" text;--> statement-breakpoint
ALTER TABLE "proofs" ADD CONSTRAINT "proofs_preview_file_name_unique" UNIQUE("preview_file_name");