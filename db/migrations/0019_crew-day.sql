CREATE TABLE "crew_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"worker_id" integer NOT NULL,
	"day" date NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crew_assignments" (
	"booking_id" integer NOT NULL,
	"day" date NOT NULL,
	"worker_id" integer NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crew_assignments_booking_id_day_pk" PRIMARY KEY("booking_id","day")
);
--> statement-breakpoint
CREATE TABLE "crew_stops" (
	"booking_id" integer NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"worker_id" integer,
	"worker_name" text NOT NULL,
	"on_the_way_at" timestamp with time zone,
	"started_at" timestamp with time zone,
	"done_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "crew_stops_booking_id_day_pk" PRIMARY KEY("booking_id","day")
);
--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "taken_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "lat" double precision;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "lng" double precision;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "accuracy_m" double precision;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "worker_id" integer;--> statement-breakpoint
ALTER TABLE "photos" ADD COLUMN "client_upload_id" text;--> statement-breakpoint
ALTER TABLE "crew_links" ADD CONSTRAINT "crew_links_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_assignments" ADD CONSTRAINT "crew_assignments_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_assignments" ADD CONSTRAINT "crew_assignments_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_stops" ADD CONSTRAINT "crew_stops_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crew_stops" ADD CONSTRAINT "crew_stops_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "photos" ADD CONSTRAINT "photos_worker_id_workers_id_fk" FOREIGN KEY ("worker_id") REFERENCES "public"."workers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crew_links_worker_day_idx" ON "crew_links" USING btree ("worker_id","day");--> statement-breakpoint
CREATE INDEX "crew_assignments_day_idx" ON "crew_assignments" USING btree ("day");--> statement-breakpoint
CREATE INDEX "crew_stops_day_idx" ON "crew_stops" USING btree ("day");--> statement-breakpoint
CREATE UNIQUE INDEX "photos_booking_client_upload_idx" ON "photos" USING btree ("booking_id","client_upload_id");
