-- Costs that grow with the data (issue 31, decision 080): trigram search needs pg_trgm
-- (a trusted extension since PostgreSQL 13: the database's owner may create it; PGlite
-- loads it from @electric-sql/pglite/contrib/pg_trgm).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "bookings_starts_at_idx";--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "staff_unread" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "last_message_body" text;--> statement-breakpoint
ALTER TABLE "chat_conversations" ADD COLUMN "last_message_sender" text;--> statement-breakpoint
CREATE INDEX "bookings_starts_at_id_idx" ON "bookings" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "bookings_undated_idx" ON "bookings" USING btree ("created_at","id") WHERE "bookings"."starts_at" is null;--> statement-breakpoint
CREATE INDEX "bookings_customer_idx" ON "bookings" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "bookings_reference_trgm_idx" ON "bookings" USING gin ("reference" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "chat_messages_conversation_idx" ON "chat_messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE INDEX "customers_email_trgm_idx" ON "customers" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_name_trgm_idx" ON "customers" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);--> statement-breakpoint
-- Conversations already open: their unread count and last message, once.
UPDATE "chat_conversations" c SET
  "staff_unread" = (SELECT count(*) FROM "chat_messages" m WHERE m."conversation_id" = c."id" AND m."sender" = 'visitor' AND m."id" > c."staff_read_up_to"),
  "last_message_body" = (SELECT left(m."body", 140) FROM "chat_messages" m WHERE m."conversation_id" = c."id" ORDER BY m."id" DESC LIMIT 1),
  "last_message_sender" = (SELECT m."sender" FROM "chat_messages" m WHERE m."conversation_id" = c."id" ORDER BY m."id" DESC LIMIT 1)
WHERE c."last_message_at" IS NOT NULL;
