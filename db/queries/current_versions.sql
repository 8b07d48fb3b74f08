-- name: CurrentVersionUpsert :exec
INSERT INTO current_versions (registry, name, version, package_version_id)
VALUES ($1, $2, $3, $4)
ON CONFLICT (registry, name, version) DO UPDATE SET package_version_id = EXCLUDED.package_version_id;
