-- name: VersionDiffInsert :exec
INSERT INTO version_diffs (registry, name, from_version, to_version, publication_id, diff)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT DO NOTHING;

-- name: VersionDiffGet :one
SELECT * FROM version_diffs
WHERE registry = $1 AND name = $2 AND from_version = $3 AND to_version = $4
ORDER BY publication_id DESC
LIMIT 1;

-- name: VersionDiffListForPackage :many
SELECT from_version, to_version, publication_id, diff FROM version_diffs
WHERE registry = $1 AND name = $2
ORDER BY publication_id DESC, to_version, from_version
LIMIT 500;
