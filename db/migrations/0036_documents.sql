CREATE TABLE "invoice_sequence" (
	"id" smallint PRIMARY KEY NOT NULL,
	"last_number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"sequence" integer NOT NULL,
	"number" text NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"supply_date" date NOT NULL,
	"kind" text NOT NULL,
	"booking_id" integer,
	"stencil_change_id" integer,
	"payment_reference" text NOT NULL,
	"seller" jsonb NOT NULL,
	"customer" jsonb NOT NULL,
	"lines" jsonb NOT NULL,
	"net_pence" integer NOT NULL,
	"vat_pence" integer NOT NULL,
	"gross_pence" integer NOT NULL,
	"vat_rate_basis_points" integer
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "po_reference" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "customer_vat_number" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_stencil_change_id_stencil_changes_id_fk" FOREIGN KEY ("stencil_change_id") REFERENCES "public"."stencil_changes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_sequence_idx" ON "invoices" USING btree ("sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_stencil_change_idx" ON "invoices" USING btree ("stencil_change_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_booking_payment_idx" ON "invoices" USING btree ("booking_id") WHERE kind = 'booking';--> statement-breakpoint
CREATE INDEX "invoices_booking_idx" ON "invoices" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "invoices_issued_idx" ON "invoices" USING btree ("issued_at");--> statement-breakpoint
-- hand-written: the invoice counter's one row, starting before CP-000001.
INSERT INTO "invoice_sequence" ("id", "last_number") VALUES (1, 0) ON CONFLICT DO NOTHING;
