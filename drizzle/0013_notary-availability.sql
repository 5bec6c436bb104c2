CREATE TABLE "notary_availability" (
	"staff_id" uuid PRIMARY KEY NOT NULL,
	"weekly" jsonb NOT NULL,
	"dates_off" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"on_duty" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notary_availability" ADD CONSTRAINT "notary_availability_staff_id_staff_users_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;