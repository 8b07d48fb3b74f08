-- The latest pass (the website's "The latest pass", GET /pass): counts over
-- the package versions and findings of one publication.

-- name: PassVerdictCounts :many
SELECT verdict, count(*)::int AS n
FROM package_versions
WHERE publication_id = $1
GROUP BY verdict
ORDER BY verdict
LIMIT 10;

-- name: PassGradeCounts :many
SELECT grade::text AS grade, count(*)::int AS n
FROM package_versions
WHERE publication_id = $1 AND grade IS NOT NULL
GROUP BY grade
ORDER BY grade
LIMIT 10;

-- name: PassReasonCounts :many
-- A version refused for two reasons is in both counts.
SELECT code::text AS code, count(*)::int AS n
FROM package_versions pv, unnest(pv.blocked_by) AS code
WHERE pv.publication_id = $1 AND pv.verdict = 'not_gradeable'
GROUP BY code
ORDER BY n DESC, code
LIMIT 200;

-- name: PassFindingCounts :many
SELECT status, count(*)::int AS n
FROM findings
WHERE publication_id = $1
GROUP BY status
ORDER BY status
LIMIT 10;
