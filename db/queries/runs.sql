-- name: RunUpsert :exec
INSERT INTO runs (id, candidates_sha256, started_at, finished_at, methodology_version, methodology_sha256,
                  extractor_version, code_commit, code_dirty, package_count, header)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (id) DO NOTHING;

-- name: RunList :many
-- Published runs only, newest first; the cursor is the last id of the page.
SELECT r.id, r.started_at, r.finished_at, r.methodology_version, r.extractor_version, r.code_commit, r.code_dirty,
       r.package_count,
       ARRAY(SELECT p.id FROM publications p WHERE p.run_id = r.id ORDER BY p.published_at DESC, p.id DESC LIMIT 100)::text[] AS publication_ids,
       EXISTS (SELECT 1 FROM publications p WHERE p.run_id = r.id AND p.demo) AS demo,
       EXISTS (SELECT 1 FROM publications p WHERE p.run_id = r.id AND p.disclosure_period_overridden) AS disclosure_period_overridden
FROM runs r
WHERE EXISTS (SELECT 1 FROM publications p WHERE p.run_id = r.id)
  AND (sqlc.narg(before_id)::text IS NULL
       OR (r.started_at, r.id) < (SELECT c.started_at, c.id FROM runs c WHERE c.id = sqlc.narg(before_id)::text))
ORDER BY r.started_at DESC, r.id DESC
LIMIT sqlc.arg(lim);

-- name: RunGet :one
SELECT * FROM runs WHERE id = $1;
