ALTER TABLE "session_recordings" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD COLUMN "last_chunk_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD COLUMN "stall_notified_at" timestamp with time zone;