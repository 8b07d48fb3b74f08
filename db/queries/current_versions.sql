-- name: CurrentVersionUpsert :exec
-- The newest publication wins: a row is replaced only by one published later
-- (ties broken by publication id), so loading an older publication after a
-- newer one changes nothing that is served.
INSERT INTO current_versions AS cv (registry, name, version, package_version_id)
VALUES ($1, $2, $3, $4)
ON CONFLICT (registry, name, version) DO UPDATE SET package_version_id = EXCLUDED.package_version_id
WHERE (SELECT ROW(o.published_at, o.publication_id) FROM package_versions o WHERE o.id = cv.package_version_id)
    < (SELECT ROW(n.published_at, n.publication_id) FROM package_versions n WHERE n.id = EXCLUDED.package_version_id);

-- name: CurrentVersionListForPackage :many
-- What was current for one package before a load changes it.
SELECT cv.version, pv.id, pv.manifest_hash
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.registry = $1 AND cv.name = $2
ORDER BY cv.version
LIMIT 1000;
