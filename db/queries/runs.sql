-- name: RunUpsert :exec
INSERT INTO runs (id, candidates_sha256, started_at, finished_at, methodology_version, methodology_sha256,
                  extractor_version, code_commit, code_dirty, package_count, header)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (id) DO NOTHING;

-- name: RunList :many
SELECT r.*
FROM runs r
WHERE EXISTS (SELECT 1 FROM publications p WHERE p.run_id = r.id)
  AND (sqlc.narg(before_started)::timestamptz IS NULL OR (r.started_at, r.id) < (sqlc.narg(before_started)::timestamptz, sqlc.arg(before_id)::text))
ORDER BY r.started_at DESC, r.id DESC
LIMIT sqlc.arg(lim);

-- name: RunGet :one
SELECT * FROM runs WHERE id = $1;
