ALTER TABLE "bookings" ADD COLUMN "manage_token_sealed" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "calendar_sequence" integer DEFAULT 0 NOT NULL;