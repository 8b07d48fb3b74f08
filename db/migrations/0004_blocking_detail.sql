-- Each refusal reason of a published row with what failed and where, as the
-- publication states it (publish contract section 3.2, blocking[]): {code,
-- guard, detail, file, line, names, partial}. blocked_by stays the codes the
-- filters and counts read; this column is what a reader is shown for each.
-- Rows loaded before this migration take theirs from the stored row.
ALTER TABLE package_versions ADD COLUMN blocking jsonb NOT NULL DEFAULT '[]';
UPDATE package_versions SET blocking = row->'blocking'
WHERE jsonb_typeof(row->'blocking') = 'array';
