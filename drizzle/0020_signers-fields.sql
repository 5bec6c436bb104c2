CREATE TABLE "credible_witnesses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"witness_id" uuid NOT NULL,
	"signer_participant_id" uuid,
	"recorded_at" timestamp with time zone NOT NULL,
	"recorded_by" uuid,
	CONSTRAINT "credible_witnesses_witness_id_unique" UNIQUE("witness_id")
);
--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "consent_address" text;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "signer_location" text;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "abroad_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "abroad_confirmed_by" uuid;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "oath_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "oath_kind" text;--> statement-breakpoint
ALTER TABLE "credible_witnesses" ADD CONSTRAINT "credible_witnesses_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credible_witnesses" ADD CONSTRAINT "credible_witnesses_witness_id_session_participants_id_fk" FOREIGN KEY ("witness_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credible_witnesses" ADD CONSTRAINT "credible_witnesses_signer_participant_id_session_participants_id_fk" FOREIGN KEY ("signer_participant_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credible_witnesses" ADD CONSTRAINT "credible_witnesses_recorded_by_staff_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credible_witnesses_booking_idx" ON "credible_witnesses" USING btree ("booking_id");--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_participant_id_session_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_abroad_confirmed_by_staff_users_id_fk" FOREIGN KEY ("abroad_confirmed_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;