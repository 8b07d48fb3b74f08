-- name: FindingInsert :exec
INSERT INTO findings (id, publication_id, package_version_id, check_id, tag, severity_assigned, severity_decided, status,
                      rule, surface_kind, entry_name, evidence_sha256, evidence_path, line_start, line_end, excerpt,
                      excerpt_sha256, row)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18);

-- name: FindingGetLatest :one
-- A finding as its newest publication states it.
SELECT f.*, p.published_at AS publication_published_at
FROM findings f
JOIN publications p ON p.id = f.publication_id
WHERE f.id = $1
ORDER BY p.published_at DESC, p.id DESC
LIMIT 1;

-- name: FindingListByPackageVersion :many
SELECT * FROM findings WHERE package_version_id = $1 ORDER BY id LIMIT 10000;

-- name: FindingIDsInPublication :many
-- Which of the given finding ids a publication publishes (a run diff names
-- only those).
SELECT id FROM findings
WHERE publication_id = sqlc.arg(publication_id) AND id = ANY (sqlc.arg(ids)::text[])
ORDER BY id
LIMIT 100000;
