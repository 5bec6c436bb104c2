-- The console's search in one column (issue 31, decision 135): the reference, the customer's
-- name and address, lowercased, joined by U+001F (a control character: no field holds one, so
-- no search matches across two fields), with one trigram index. Kept by triggers, so every
-- writer (the booking flow, the console, a customer deleted: ON DELETE SET NULL) keeps it
-- right. The old trigram indexes go: their searches read this one.
DROP INDEX "bookings_reference_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_email_trgm_idx";--> statement-breakpoint
DROP INDEX "customers_name_trgm_idx";--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION booking_search_text(reference text, first_name text, last_name text, email text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT lower(reference) || coalesce(E'\x1f' || lower(first_name || ' ' || last_name) || E'\x1f' || lower(email), '') $$;
--> statement-breakpoint
-- A booking's own row: on insert, and when its reference or its customer changes. A hold (which
-- moves starts_at) sets neither column, so it never runs this.
CREATE FUNCTION bookings_search_text() RETURNS trigger AS $$
BEGIN
  IF NEW.customer_id IS NULL THEN
    NEW.search_text := booking_search_text(NEW.reference, NULL, NULL, NULL);
  ELSE
    SELECT booking_search_text(NEW.reference, c.first_name, c.last_name, c.email) INTO NEW.search_text
      FROM customers c WHERE c.id = NEW.customer_id;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bookings_search_text_insert BEFORE INSERT ON bookings
  FOR EACH ROW EXECUTE FUNCTION bookings_search_text();
--> statement-breakpoint
CREATE TRIGGER bookings_search_text_update BEFORE UPDATE OF reference, customer_id ON bookings
  FOR EACH ROW WHEN (OLD.reference IS DISTINCT FROM NEW.reference OR OLD.customer_id IS DISTINCT FROM NEW.customer_id)
  EXECUTE FUNCTION bookings_search_text();
--> statement-breakpoint
-- A customer's name or address changed: their bookings' search text with it.
CREATE FUNCTION customers_search_text() RETURNS trigger AS $$
BEGIN
  UPDATE bookings SET search_text = booking_search_text(reference, NEW.first_name, NEW.last_name, NEW.email)
    WHERE customer_id = NEW.id;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER customers_search_text AFTER UPDATE OF first_name, last_name, email ON customers
  FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION customers_search_text();
--> statement-breakpoint
UPDATE "bookings" b SET "search_text" = coalesce(
  (SELECT booking_search_text(b."reference", c."first_name", c."last_name", c."email") FROM "customers" c WHERE c."id" = b."customer_id"),
  booking_search_text(b."reference", NULL, NULL, NULL));--> statement-breakpoint
CREATE INDEX "bookings_search_trgm_idx" ON "bookings" USING gin ("search_text" gin_trgm_ops) WITH (gin_pending_list_limit=64);--> statement-breakpoint
-- An address-shaped search (`jane.doe@exa`) finds addresses by the reversed local part (decision
-- 115); a name matches it only if the name holds an `@`: those few, by this partial index.
CREATE INDEX "customers_name_with_at_idx" ON "customers" USING btree ("id") WHERE strpos("customers"."first_name" || ' ' || "customers"."last_name", '@') > 0;
