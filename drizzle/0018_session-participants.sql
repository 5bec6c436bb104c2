CREATE TABLE "session_participants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"role" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"token_hash" text NOT NULL,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"payment_id" uuid,
	"created_by" text NOT NULL,
	"removed_by" uuid,
	"removed_at" timestamp with time zone,
	"removed_reason" text,
	"joined_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_participants_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
DROP INDEX "identity_verifications_attempt_idx";--> statement-breakpoint
DROP INDEX "kba_attempts_attempt_idx";--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "participant_id" uuid;--> statement-breakpoint
ALTER TABLE "kba_attempts" ADD COLUMN "participant_id" uuid;--> statement-breakpoint
ALTER TABLE "session_messages" ADD COLUMN "participant_id" uuid;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_removed_by_staff_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_participants_booking_idx" ON "session_participants" USING btree ("booking_id");--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_participant_id_session_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kba_attempts" ADD CONSTRAINT "kba_attempts_participant_id_session_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_participant_id_session_participants_id_fk" FOREIGN KEY ("participant_id") REFERENCES "public"."session_participants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_person_attempt" UNIQUE NULLS NOT DISTINCT("booking_id","participant_id","attempt");--> statement-breakpoint
ALTER TABLE "kba_attempts" ADD CONSTRAINT "kba_attempts_person_attempt" UNIQUE NULLS NOT DISTINCT("booking_id","participant_id","attempt");