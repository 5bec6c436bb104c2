-- The notary journal is append-only: UPDATE is always refused, and DELETE only
-- inside the retention job's transaction (SET LOCAL notary.journal_prune = 'on').
-- The hash chain (npm run journal:verify) detects what a database owner could still do.
CREATE OR REPLACE FUNCTION journal_entries_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' AND current_setting('notary.journal_prune', true) = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'journal_entries is append-only: % refused (write a correction entry instead)', TG_OP;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER journal_entries_append_only
  BEFORE UPDATE OR DELETE ON journal_entries
  FOR EACH ROW EXECUTE FUNCTION journal_entries_append_only();
