CREATE TABLE "booking_files" (
	"booking_id" integer NOT NULL,
	"file_id" integer NOT NULL,
	CONSTRAINT "booking_files_booking_id_file_id_pk" PRIMARY KEY("booking_id","file_id")
);
--> statement-breakpoint
ALTER TABLE "booking_files" ADD CONSTRAINT "booking_files_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "booking_files" ADD CONSTRAINT "booking_files_file_id_uploaded_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."uploaded_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_files_file_idx" ON "booking_files" USING btree ("file_id");--> statement-breakpoint
-- Data: every file a booking claimed so far becomes that booking's row here (uploaded_files.booking_id goes in 0038).
INSERT INTO "booking_files" ("booking_id", "file_id") SELECT "booking_id", "id" FROM "uploaded_files" WHERE "booking_id" IS NOT NULL;
