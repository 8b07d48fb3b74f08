-- name: PackageVersionInsert :one
INSERT INTO package_versions (publication_id, registry, name, version, artifact_sha256, verdict, grade, blocked_by,
                              surface_outcome, manifest_hash, manifest_reason, extractor_version, methodology_version,
                              methodology_sha256, decided_at, published_at, mcp_surface, delegates_to, delegated_from,
                              capabilities_omitted, row_sha256, row, not_assessed, reason, blocking, demo,
                              disclosure_period_overridden)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25,
        $26, $27)
RETURNING id;

-- name: PackageVersionGetCurrent :one
SELECT pv.*
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.registry = sqlc.arg(registry) AND cv.lookup_name = sqlc.arg(lookup_name) AND cv.version = sqlc.arg(version);

-- name: PackageVersionGet :one
SELECT * FROM package_versions WHERE id = $1;

-- name: PackageVersionFindCurrent :many
-- The current rows of name@version on either registry (or the one given),
-- and whether the name is also known on another registry.
SELECT pv.id, pv.registry,
       EXISTS (SELECT 1 FROM current_versions o
               WHERE o.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
                 AND o.registry <> cv.registry
                 AND o.lookup_name = CASE o.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END) AS on_other_registry
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
  AND cv.lookup_name = CASE cv.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END
  AND cv.version = sqlc.arg(version)
  AND (sqlc.narg(registry)::text IS NULL OR cv.registry = sqlc.narg(registry)::text)
ORDER BY cv.registry
LIMIT 2;

-- name: ManifestGet :many
-- The gateway's hot path: one round trip for the row, one page of its tools,
-- the number of tools in all, and whether the name is ambiguous without a
-- registry. A page starts at from_position and holds at most page_tools
-- tools, and no more than page_bytes of names and descriptions: it ends
-- before the first tool that would take it past that (the running sum only
-- grows, so the page is a prefix), except that its first tool is always in
-- it, however large. The loader numbers a version's tools from 0 without gaps, so the
-- last position + 1 is their count, read from the primary key in one probe.
SELECT pv.id, pv.registry, pv.name, pv.version, pv.artifact_sha256, pv.verdict, pv.grade, pv.manifest_hash,
       pv.manifest_reason, pv.extractor_version, pv.methodology_version, pv.methodology_sha256, pv.decided_at,
       pv.published_at, pv.row_sha256, pv.demo, pv.disclosure_period_overridden,
       EXISTS (SELECT 1 FROM current_versions o
               WHERE o.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
                 AND o.registry <> cv.registry
                 AND o.lookup_name = CASE o.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END) AS on_other_registry,
       COALESCE((SELECT max(c.position) + 1 FROM tools c WHERE c.package_version_id = pv.id), 0)::int AS tool_count,
       COALESCE((SELECT jsonb_agg(jsonb_build_object(
                   'name', p.name, 'description_state', p.description_state, 'description', p.description_raw,
                   'schema_kind', p.schema_kind, 'tool_hash', p.tool_hash, 'reason', p.hash_reason) ORDER BY p.position)
                 FROM (SELECT w.*, sum(w.size) OVER (ORDER BY w.position) AS running
                       FROM (SELECT t.position, t.name, t.description_state, t.description_raw, t.schema_kind, t.tool_hash, t.hash_reason,
                                    octet_length(t.name) + octet_length(t.description_raw) AS size
                             FROM tools t
                             WHERE t.package_version_id = pv.id AND t.position >= sqlc.arg(from_position)::int
                             ORDER BY t.position
                             LIMIT sqlc.arg(page_tools)::int) w) p
                 WHERE p.running <= sqlc.arg(page_bytes)::bigint OR p.position = sqlc.arg(from_position)::int), '[]'::jsonb)::jsonb AS tools
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
  AND cv.lookup_name = CASE cv.registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END
  AND cv.version = sqlc.arg(version)
  AND (sqlc.narg(registry)::text IS NULL OR cv.registry = sqlc.narg(registry)::text)
ORDER BY cv.registry
LIMIT 2;

-- name: PackageVersionRegistriesForName :many
SELECT DISTINCT registry FROM current_versions
WHERE lookup_name IN (sqlc.arg(name)::text, sqlc.arg(pypi_name)::text)
  AND lookup_name = CASE registry WHEN 'pypi' THEN sqlc.arg(pypi_name)::text ELSE sqlc.arg(name)::text END
ORDER BY registry LIMIT 2;

-- name: PackageVersionVersionsForName :many
SELECT version FROM current_versions WHERE registry = sqlc.arg(registry) AND lookup_name = sqlc.arg(lookup_name) ORDER BY version LIMIT 1000;

-- name: PackageVersionHistory :many
-- Every current version of one package, newest publication first.
SELECT pv.id, pv.version, pv.verdict, pv.grade, pv.blocked_by, pv.reason, pv.manifest_hash, pv.manifest_reason,
       pv.published_at, pv.publication_id
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.registry = sqlc.arg(registry) AND cv.lookup_name = sqlc.arg(lookup_name)
ORDER BY pv.published_at DESC, pv.id DESC
LIMIT 500;

-- name: PackageVersionLookup :many
-- A batch read: the current row of each requested (registry, name, version),
-- tagged with its position in the request.
SELECT i.ord::bigint AS ord, pv.verdict, pv.grade, pv.manifest_hash, pv.published_at, pv.demo,
       pv.disclosure_period_overridden, a.envelope_sha256 AS attestation_sha256
FROM generate_subscripts(sqlc.arg(names)::text[], 1) AS i(ord)
JOIN current_versions cv ON cv.registry = (sqlc.arg(registries)::text[])[i.ord]
                        AND cv.lookup_name = (sqlc.arg(names)::text[])[i.ord]
                        AND cv.version = (sqlc.arg(versions)::text[])[i.ord]
JOIN package_versions pv ON pv.id = cv.package_version_id
LEFT JOIN attestations a ON a.package_version_id = pv.id
ORDER BY i.ord
LIMIT 1000;

-- name: PackageVersionList :many
-- Keyset pagination on (name, id); the cursor is the last id of the page.
SELECT pv.id, pv.registry, pv.name, pv.version, pv.verdict, pv.grade, pv.blocked_by, pv.reason, pv.manifest_hash,
       pv.published_at, pv.demo, pv.disclosure_period_overridden
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE (sqlc.narg(registry)::text IS NULL OR pv.registry = sqlc.narg(registry)::text)
  AND (sqlc.narg(grade)::text IS NULL OR pv.grade = sqlc.narg(grade)::text)
  AND (sqlc.narg(verdict)::text IS NULL OR pv.verdict = sqlc.narg(verdict)::text)
  AND (sqlc.narg(reason)::text IS NULL OR sqlc.narg(reason)::text = ANY (pv.blocked_by) OR pv.reason = sqlc.narg(reason)::text)
  AND (sqlc.narg(patterns)::text[] IS NULL OR pv.name ILIKE ALL (sqlc.narg(patterns)::text[]))
  AND (sqlc.narg(after_id)::bigint IS NULL
       OR (pv.name, pv.id) > (SELECT a.name, a.id FROM package_versions a WHERE a.id = sqlc.narg(after_id)::bigint))
ORDER BY pv.name, pv.id
LIMIT sqlc.arg(lim);

-- name: PackageVersionCountByVerdict :many
-- Facet counts over the search (registry, name): not narrowed by the verdict,
-- grade or reason filters, so a reader sees what each filter would give.
SELECT pv.verdict, count(*)::bigint AS n
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE (sqlc.narg(registry)::text IS NULL OR pv.registry = sqlc.narg(registry)::text)
  AND (sqlc.narg(patterns)::text[] IS NULL OR pv.name ILIKE ALL (sqlc.narg(patterns)::text[]))
GROUP BY pv.verdict
ORDER BY pv.verdict
LIMIT 10;

-- name: PackageVersionCountByReason :many
SELECT r.code::text AS code, count(*)::bigint AS n
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
CROSS JOIN LATERAL unnest(pv.blocked_by || COALESCE(ARRAY[pv.reason], '{}'::text[])) AS r(code)
WHERE (sqlc.narg(registry)::text IS NULL OR pv.registry = sqlc.narg(registry)::text)
  AND (sqlc.narg(patterns)::text[] IS NULL OR pv.name ILIKE ALL (sqlc.narg(patterns)::text[]))
  AND r.code IS NOT NULL
GROUP BY r.code
ORDER BY r.code
LIMIT 1000;

-- name: PackageVersionCountByFirstReason :many
-- Each refused or out-of-scope version once, under its first code that is not
-- meta_code (the run's own gate agreeing, G2), or under meta_code when it is
-- the only one: these counts add up to the versions that carry any code.
SELECT COALESCE(
         (SELECT u.c FROM unnest(pv.blocked_by || COALESCE(ARRAY[pv.reason], '{}'::text[])) WITH ORDINALITY AS u(c, i)
          WHERE u.c IS NOT NULL AND u.c <> sqlc.arg(meta_code)::text ORDER BY u.i LIMIT 1),
         sqlc.arg(meta_code)::text)::text AS code,
       count(*)::bigint AS n
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE (sqlc.narg(registry)::text IS NULL OR pv.registry = sqlc.narg(registry)::text)
  AND (sqlc.narg(patterns)::text[] IS NULL OR pv.name ILIKE ALL (sqlc.narg(patterns)::text[]))
  AND (cardinality(pv.blocked_by) > 0 OR pv.reason IS NOT NULL)
GROUP BY 1
ORDER BY 1
LIMIT 1000;

-- name: PackageVersionCountCurrent :one
SELECT count(*)::bigint FROM current_versions;

-- name: PackageVersionPyPIVersions :many
-- The published versions of some PyPI projects (by lookup name), for the
-- batch read to find a version asked in another PEP 440 spelling.
SELECT lookup_name, version FROM current_versions
WHERE registry = 'pypi' AND lookup_name = ANY(sqlc.arg(names)::text[])
ORDER BY lookup_name, version
LIMIT 10000;

-- name: PackageVersionOutcomesInPublication :many
-- The published outcomes of the given package versions (keys as
-- registry:name@version) in one publication: a run diff shows a change only
-- as published. The publication's index narrows the rows first.
SELECT pv.registry, pv.name, pv.version, pv.verdict, pv.grade, pv.blocked_by
FROM package_versions pv
WHERE pv.publication_id = sqlc.arg(publication_id)
  AND (pv.registry || ':' || pv.name || '@' || pv.version) = ANY (sqlc.arg(keys)::text[])
ORDER BY pv.registry, pv.name, pv.version
LIMIT 100000;
