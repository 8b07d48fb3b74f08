-- name: ChangeInsert :exec
INSERT INTO changes (publication_id, published_at, registry, name, version, kind, detail)
VALUES ($1, $2, $3, $4, $5, $6, $7);

-- name: ChangeList :many
-- One page of the change feed after a cursor's sequence number.
SELECT seq, publication_id, published_at, registry, name, version, kind, detail
FROM changes
WHERE seq > sqlc.arg(after)
ORDER BY seq
LIMIT sqlc.arg(lim);

-- name: ChangeLatestSeq :one
SELECT COALESCE(max(seq), 0)::bigint FROM changes;

-- name: CurrentVersionState :one
-- What is served for one version before a load changes it.
SELECT pv.id, pv.publication_id, pv.published_at, pv.verdict, pv.grade, pv.manifest_hash
FROM current_versions cv
JOIN package_versions pv ON pv.id = cv.package_version_id
WHERE cv.registry = $1 AND cv.name = $2 AND cv.version = $3;

-- name: AppealResolvedEarlier :one
-- Whether an earlier-loaded publication already recorded the appeal resolved.
SELECT EXISTS (
    SELECT 1 FROM appeal_statuses
    WHERE appeal_id = $1 AND publication_id <> $2 AND status <> 'open'
);
