-- name: CapabilityInsert :exec
INSERT INTO capabilities (package_version_id, position, kind, tag, target, file, line, file_sha256, excerpt, count, bundle, verification)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);

-- name: CapabilityListByPackageVersion :many
SELECT * FROM capabilities WHERE package_version_id = $1 ORDER BY position LIMIT 10000;
