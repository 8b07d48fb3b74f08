-- name: PackageVersionInsert :one
INSERT INTO package_versions (publication_id, registry, name, version, artifact_sha256, verdict, grade, blocked_by,
                              surface_outcome, manifest_hash, manifest_reason, extractor_version, methodology_version,
                              methodology_sha256, decided_at, published_at, mcp_surface, delegates_to, delegated_from,
                              capabilities_omitted, row_sha256, row)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)
RETURNING id;

-- name: PackageVersionGetCurrent :one
SELECT pv.*
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.registry = $1 AND cv.name = $2 AND cv.version = $3;

-- name: PackageVersionRegistriesForName :many
SELECT DISTINCT registry FROM current_versions WHERE name = $1 ORDER BY registry LIMIT 2;

-- name: PackageVersionVersionsForName :many
SELECT version FROM current_versions WHERE registry = $1 AND name = $2 ORDER BY version LIMIT 1000;

-- name: PackageVersionList :many
SELECT pv.*
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE (sqlc.narg(registry)::text IS NULL OR pv.registry = sqlc.narg(registry))
  AND (sqlc.narg(grade)::text IS NULL OR pv.grade = sqlc.narg(grade))
  AND (sqlc.narg(verdict)::text IS NULL OR pv.verdict = sqlc.narg(verdict))
  AND (sqlc.narg(reason)::text IS NULL OR sqlc.narg(reason)::text = ANY (pv.blocked_by))
  AND (sqlc.narg(q)::text IS NULL OR pv.name ILIKE '%' || sqlc.narg(q)::text || '%')
  AND (sqlc.narg(after_id)::bigint IS NULL OR pv.id > sqlc.narg(after_id)::bigint)
ORDER BY pv.id
LIMIT sqlc.arg(lim);
