CREATE TABLE "journal_checkpoints" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "journal_checkpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"seq" bigint NOT NULL,
	"head_hash" text NOT NULL,
	"entry_count" bigint NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"key_id" text NOT NULL,
	"encoded" text NOT NULL,
	"timestamp_authority" text
);
--> statement-breakpoint
CREATE TABLE "platform_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"sealed_private_key" text NOT NULL,
	"public_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "journal_entries" ADD COLUMN "chain_version" smallint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "notarial_documents" ADD COLUMN "sealed_deleted_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "journal_checkpoints_seq_idx" ON "journal_checkpoints" USING btree ("seq","id");--> statement-breakpoint
CREATE INDEX "journal_entries_verification_code_idx" ON "journal_entries" USING btree (("data"->>'verificationCode'));--> statement-breakpoint
CREATE INDEX "journal_entries_sealed_sha256_idx" ON "journal_entries" USING btree (("data"->>'sealedSha256'));--> statement-breakpoint
-- Checkpoints are append-only like the journal (0006): DELETE only inside the retention job's
-- transaction (SET LOCAL notary.journal_prune = 'on'), UPDATE never. The message names the table.
CREATE OR REPLACE FUNCTION journal_entries_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('notary.journal_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only: % refused (write a correction entry instead)', TG_TABLE_NAME, TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_checkpoints_append_only
  BEFORE UPDATE OR DELETE ON journal_checkpoints
  FOR EACH ROW EXECUTE FUNCTION journal_entries_append_only();
