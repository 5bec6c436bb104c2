CREATE TABLE "identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_session_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"failure_message" text,
	"name_on_id" text,
	"document_type" text,
	"issuing_state" text,
	"expires_on" text,
	"selfie_match" boolean,
	"image_keys" jsonb,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" uuid,
	"erased_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_verifications_provider_session_id_unique" UNIQUE("provider_session_id")
);
--> statement-breakpoint
CREATE TABLE "journal_entries" (
	"seq" bigint PRIMARY KEY NOT NULL,
	"notary_id" uuid NOT NULL,
	"booking_id" uuid,
	"kind" text NOT NULL,
	"corrects_seq" bigint,
	"performed_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notarial_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"placement" jsonb,
	"signature_kind" text,
	"signature_text" text,
	"signature_png" text,
	"signed_at" timestamp with time zone,
	"act_type" text,
	"sealed_key" text,
	"sealed_sha256" text,
	"page_count" integer,
	"sealed_at" timestamp with time zone,
	"sealed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notarial_documents_document_id_unique" UNIQUE("document_id")
);
--> statement-breakpoint
CREATE TABLE "notary_profiles" (
	"staff_user_id" uuid PRIMARY KEY NOT NULL,
	"commission_number" text,
	"commission_expires_on" text,
	"commission_state" text DEFAULT 'Iowa' NOT NULL,
	"commission_county" text,
	"certificate_p12" text,
	"certificate_password" text,
	"certificate_kind" text,
	"certificate_subject" text,
	"certificate_expires_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity_verifications" ADD CONSTRAINT "identity_verifications_confirmed_by_staff_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD CONSTRAINT "notarial_documents_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD CONSTRAINT "notarial_documents_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD CONSTRAINT "notarial_documents_sealed_by_staff_users_id_fk" FOREIGN KEY ("sealed_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notary_profiles" ADD CONSTRAINT "notary_profiles_staff_user_id_staff_users_id_fk" FOREIGN KEY ("staff_user_id") REFERENCES "public"."staff_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "identity_verifications_attempt_idx" ON "identity_verifications" USING btree ("booking_id","attempt");--> statement-breakpoint
CREATE INDEX "journal_entries_notary_idx" ON "journal_entries" USING btree ("notary_id","performed_at");--> statement-breakpoint
CREATE INDEX "notarial_documents_booking_idx" ON "notarial_documents" USING btree ("booking_id");