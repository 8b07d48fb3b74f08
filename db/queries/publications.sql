-- name: PublicationInsert :exec
INSERT INTO publications (id, run_id, published_at, day0, methodology_version, methodology_sha256, supersedes, demo,
                          contract_sha256, diff, gate_map, disclosure_period_overridden)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- name: PublicationExists :one
SELECT EXISTS (SELECT 1 FROM publications WHERE id = $1);

-- name: PublicationGet :one
SELECT * FROM publications WHERE id = $1;

-- name: PublicationLatest :one
SELECT * FROM publications ORDER BY published_at DESC, id DESC LIMIT 1;

-- name: PublicationLatestForRun :one
SELECT * FROM publications WHERE run_id = $1 ORDER BY published_at DESC, id DESC LIMIT 1;

-- name: PublicationListByRun :many
SELECT * FROM publications WHERE run_id = $1 ORDER BY published_at DESC, id DESC LIMIT 100;
