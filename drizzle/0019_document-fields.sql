CREATE TABLE "document_fields" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"booking_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"page" integer NOT NULL,
	"x" double precision NOT NULL,
	"y" double precision NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"participant_id" uuid,
	"value" text,
	"filled_at" timestamp with time zone,
	"filled_by" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_fields_box" CHECK ("document_fields"."page" >= 1 and "document_fields"."x" >= 0 and "document_fields"."y" >= 0 and "document_fields"."width" > 0 and "document_fields"."height" > 0 and "document_fields"."x" + "document_fields"."width" <= 1.000001 and "document_fields"."y" + "document_fields"."height" <= 1.000001)
);
--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_fields" ADD CONSTRAINT "document_fields_created_by_staff_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."staff_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_fields_document_idx" ON "document_fields" USING btree ("document_id");--> statement-breakpoint
CREATE INDEX "document_fields_booking_idx" ON "document_fields" USING btree ("booking_id");--> statement-breakpoint
-- Each earlier placement (one centre point in % of the page) becomes one Signature field of the size the seal used to stamp (~30% by 6% of the page), centred there; a signature already adopted fills it.
INSERT INTO "document_fields" ("booking_id", "document_id", "kind", "page", "x", "y", "width", "height", "value", "filled_at", "filled_by")
SELECT nd."booking_id", nd."document_id", 'signature', greatest(1, (nd."placement"->>'page')::integer),
	least(0.7, greatest(0, (nd."placement"->>'xPercent')::double precision / 100 - 0.15)),
	least(0.94, greatest(0, (nd."placement"->>'yPercent')::double precision / 100 - 0.03)),
	0.3, 0.06,
	CASE WHEN nd."signed_at" IS NOT NULL THEN nd."signature_png" END,
	CASE WHEN nd."signature_png" IS NOT NULL THEN nd."signed_at" END,
	CASE WHEN nd."signed_at" IS NOT NULL AND nd."signature_png" IS NOT NULL THEN b."customer_id" END
FROM "notarial_documents" nd JOIN "bookings" b ON b."id" = nd."booking_id"
WHERE nd."placement" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "notarial_documents" DROP COLUMN "placement";