-- name: AttestationInsert :exec
INSERT INTO attestations (package_version_id, key_id, envelope, envelope_sha256)
VALUES ($1, $2, $3, $4);

-- name: AttestationGet :many
-- The attestation of the version a lookup serves, with the same name rules
-- as ManifestGet; envelope is NULL when that version has none.
SELECT cv.registry, a.envelope, a.envelope_sha256,
       EXISTS (SELECT 1 FROM current_versions o
               WHERE o.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
                 AND o.registry <> cv.registry
                 AND o.lookup_name = CASE o.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END) AS on_other_registry
FROM current_versions cv
LEFT JOIN attestations a ON a.package_version_id = cv.package_version_id
WHERE cv.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
  AND cv.lookup_name = CASE cv.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END
  AND cv.version = sqlc.arg(version)
  AND (sqlc.narg(registry)::text IS NULL OR cv.registry = sqlc.narg(registry)::text)
ORDER BY cv.registry
LIMIT 2;
