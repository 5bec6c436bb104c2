-- File names stored before control and bidirectional-override characters were removed at
-- upload (src/shared/fields.ts displayFileName): remove them from existing rows too, so no
-- page or email shows "invoice<U+202E>fdp.exe" as "invoiceexe.pdf".
UPDATE "documents"
SET "original_name" = coalesce(nullif(btrim(regexp_replace("original_name", E'[\u0001-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]', '', 'g')), ''), 'document')
WHERE "original_name" ~ E'[\u0001-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]';
