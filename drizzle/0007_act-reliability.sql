ALTER TABLE "notarial_documents" ADD COLUMN "seal_claim" uuid;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "seal_claim_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "not_notarizable_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "not_notarizable_reason" text;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "not_notarizable_by" uuid;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "supporting_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "consent_address" text;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "signer_location" text;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "oath_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "oath_answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD COLUMN "oath_kind" text;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD COLUMN "assembly_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD COLUMN "assembly_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD CONSTRAINT "notarial_documents_not_notarizable_by_staff_users_id_fk" FOREIGN KEY ("not_notarizable_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_recordings_assembling_idx" ON "session_recordings" USING btree ("status") WHERE status = 'assembling';