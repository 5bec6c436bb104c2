CREATE TABLE "booking_manage_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"booking_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notary_sessions" (
	"booking_id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone,
	"customer_joined_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"outcome" text,
	"outcome_reason" text,
	"finished_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "session_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"booking_id" uuid NOT NULL,
	"sender" text NOT NULL,
	"client_id" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_recording_chunks" (
	"recording_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_recordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"status" text DEFAULT 'recording' NOT NULL,
	"mime_type" text NOT NULL,
	"storage_key" text NOT NULL,
	"size_bytes" bigint,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"started_by" uuid,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stored_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_recordings_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "notary_assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "notary_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "booking_manage_tokens" ADD CONSTRAINT "booking_manage_tokens_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD CONSTRAINT "notary_sessions_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notary_sessions" ADD CONSTRAINT "notary_sessions_finished_by_staff_users_id_fk" FOREIGN KEY ("finished_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recording_chunks" ADD CONSTRAINT "session_recording_chunks_recording_id_session_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."session_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD CONSTRAINT "session_recordings_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD CONSTRAINT "session_recordings_started_by_staff_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "booking_manage_tokens_booking_idx" ON "booking_manage_tokens" USING btree ("booking_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_messages_client_idx" ON "session_messages" USING btree ("booking_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_recording_chunks_seq_idx" ON "session_recording_chunks" USING btree ("recording_id","seq");--> statement-breakpoint
CREATE INDEX "session_recordings_booking_idx" ON "session_recordings" USING btree ("booking_id");