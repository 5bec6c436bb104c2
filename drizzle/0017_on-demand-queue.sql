CREATE TABLE "on_demand_queue" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"first_joined_at" timestamp with time zone NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"front_at" timestamp with time zone,
	"customer_seen_at" timestamp with time zone NOT NULL,
	"notary_id" uuid,
	"accepted_at" timestamp with time zone,
	"notary_seen_at" timestamp with time zone,
	"timed_out_at" timestamp with time zone,
	"resolution" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "kind" text DEFAULT 'scheduled' NOT NULL;--> statement-breakpoint
ALTER TABLE "on_demand_queue" ADD CONSTRAINT "on_demand_queue_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "on_demand_queue" ADD CONSTRAINT "on_demand_queue_notary_id_staff_users_id_fk" FOREIGN KEY ("notary_id") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "on_demand_queue_waiting_idx" ON "on_demand_queue" USING btree ("front_at","joined_at") WHERE status = 'waiting';--> statement-breakpoint
CREATE INDEX "on_demand_queue_notary_idx" ON "on_demand_queue" USING btree ("notary_id") WHERE status = 'accepted';