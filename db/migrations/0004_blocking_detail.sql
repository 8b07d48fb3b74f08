-- Each refusal reason of a published row with what failed and where, as the
-- publication states it (publish contract section 3.2, blocking[]): {code,
-- guard, detail, file, line, names, partial}, less what a reason says of the
-- findings it rests on (G6, G7, evidence_unpublishable): those findings are
-- withheld, so such a reason keeps its code and a summary that names none;
-- check_failed keeps the stages that failed, not the examiner's own errors.
-- blocked_by stays the codes the filters and counts read; this column is
-- what a reader is shown for each. Rows loaded before this migration take
-- theirs from the stored row, under the same rule.
ALTER TABLE package_versions ADD COLUMN blocking jsonb NOT NULL DEFAULT '[]';
UPDATE package_versions SET blocking = (
    SELECT COALESCE(jsonb_agg(
        CASE WHEN x.e->>'code' IN ('excerpt_unverified', 'verifier_rejected', 'evidence_unpublishable')
             THEN jsonb_build_object('code', x.e->'code', 'guard', x.e->'guard',
                                     'detail', 'rests on findings that are withheld from publication, and so is what this reason says of them')
             WHEN x.e->>'code' = 'check_failed'
             THEN jsonb_build_object('code', x.e->'code', 'guard', x.e->'guard', 'names', COALESCE(x.e->'names', '[]'::jsonb),
                                     'detail', rtrim('did not complete on the examiner''s side: ' || COALESCE(
                                         (SELECT string_agg(n, ', ') FROM jsonb_array_elements_text(COALESCE(x.e->'names', '[]'::jsonb)) AS n), ''), ': '))
             ELSE x.e END ORDER BY x.i), '[]'::jsonb)
    FROM jsonb_array_elements(row->'blocking') WITH ORDINALITY AS x(e, i))
WHERE jsonb_typeof(row->'blocking') = 'array';
