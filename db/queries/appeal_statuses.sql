-- name: AppealStatusInsert :exec
INSERT INTO appeal_statuses (appeal_id, finding_id, publication_id, status, filed_at, resolved_at)
VALUES ($1, $2, $3, $4, $5, $6);

-- name: AppealStatusListByFinding :many
SELECT * FROM appeal_statuses WHERE finding_id = $1 AND publication_id = $2 ORDER BY filed_at, appeal_id LIMIT 100;
