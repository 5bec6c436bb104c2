DROP INDEX "session_messages_client_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "session_messages_sender_client_idx" ON "session_messages" USING btree ("booking_id","sender","client_id");