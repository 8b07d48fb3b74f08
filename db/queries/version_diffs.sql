-- name: VersionDiffInsert :exec
INSERT INTO version_diffs (registry, name, from_version, to_version, publication_id, diff)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT DO NOTHING;

-- name: VersionDiffGet :one
SELECT * FROM version_diffs
WHERE registry = sqlc.arg(registry) AND lookup_name = sqlc.arg(lookup_name)
  AND from_version = sqlc.arg(from_version) AND to_version = sqlc.arg(to_version)
ORDER BY publication_id DESC
LIMIT 1;

-- name: VersionDiffListForPackage :many
SELECT from_version, to_version, publication_id, diff FROM version_diffs
WHERE registry = sqlc.arg(registry) AND lookup_name = sqlc.arg(lookup_name)
ORDER BY publication_id DESC, to_version, from_version
LIMIT 500;
