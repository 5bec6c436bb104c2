CREATE TABLE "kba_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"questions" jsonb NOT NULL,
	"answer_key_sealed" text,
	"person_sealed" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"correct_count" integer,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD COLUMN "document_number_last4" text;--> statement-breakpoint
ALTER TABLE "kba_attempts" ADD CONSTRAINT "kba_attempts_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "kba_attempts_attempt_idx" ON "kba_attempts" USING btree ("booking_id","attempt");