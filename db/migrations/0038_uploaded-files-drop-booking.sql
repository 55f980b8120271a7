ALTER TABLE "uploaded_files" DROP CONSTRAINT "uploaded_files_booking_id_bookings_id_fk";
--> statement-breakpoint
DROP INDEX "uploaded_files_booking_idx";--> statement-breakpoint
ALTER TABLE "uploaded_files" DROP COLUMN "booking_id";