-- The console's search (issue 31, decision 115). The trigram indexes keep their entries but
-- merge their pending list at 64 kB (the least allowed) instead of 4 MB: a search scans the
-- pending list whole. ALTER, not a rebuild.
ALTER INDEX "bookings_reference_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "customers_email_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
ALTER INDEX "customers_name_trgm_idx" SET (gin_pending_list_limit = 64);--> statement-breakpoint
CREATE INDEX "customers_email_local_reversed_idx" ON "customers" USING btree (reverse(split_part(lower("email"), '@', 1)) text_pattern_ops);
