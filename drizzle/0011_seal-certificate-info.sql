ALTER TABLE "notarial_documents" ADD COLUMN "signature_level" text;--> statement-breakpoint
ALTER TABLE "notary_profiles" ADD COLUMN "certificate_info" jsonb;