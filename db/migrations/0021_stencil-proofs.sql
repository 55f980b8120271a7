CREATE TABLE "proofs" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text DEFAULT 'awaiting' NOT NULL,
	"note" text,
	"file_name" text NOT NULL,
	"original_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"file_size" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"comment" text,
	"approved_at" timestamp with time zone,
	"reminder_sent_at" timestamp with time zone,
	CONSTRAINT "proofs_file_name_unique" UNIQUE("file_name")
);
--> statement-breakpoint
CREATE TABLE "stencil_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"booking_id" integer NOT NULL,
	"proof_id" integer NOT NULL,
	"comment" text NOT NULL,
	"amount_pence" integer NOT NULL,
	"status" text DEFAULT 'awaiting_payment' NOT NULL,
	"stripe_payment_intent_id" text,
	"paid_at" timestamp with time zone,
	"waived_by" text,
	"waived_reason" text,
	"waived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proofs" ADD CONSTRAINT "proofs_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stencil_changes" ADD CONSTRAINT "stencil_changes_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stencil_changes" ADD CONSTRAINT "stencil_changes_proof_id_proofs_id_fk" FOREIGN KEY ("proof_id") REFERENCES "public"."proofs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "proofs_booking_version_idx" ON "proofs" USING btree ("booking_id","version");--> statement-breakpoint
CREATE INDEX "proofs_status_created_idx" ON "proofs" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "stencil_changes_booking_idx" ON "stencil_changes" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stencil_changes_payment_intent_idx" ON "stencil_changes" USING btree ("stripe_payment_intent_id");
