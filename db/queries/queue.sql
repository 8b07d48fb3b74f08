-- Queued runs (internal/queue): the run's header row, its per-package
-- results and its extraction attempts.

-- name: QueueRunInsert :execrows
INSERT INTO queue_runs (run_id, header, candidates, candidates_sha256, queue, status)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (run_id) DO NOTHING;

-- name: QueueRunGet :one
SELECT * FROM queue_runs WHERE run_id = $1;

-- name: QueueRunLock :one
SELECT * FROM queue_runs WHERE run_id = $1 FOR UPDATE;

-- name: QueueRunSetWave :exec
UPDATE queue_runs
SET wave = sqlc.arg(wave), pending = sqlc.arg(pending), packages = packages + sqlc.arg(added)::integer
WHERE run_id = sqlc.arg(run_id);

-- name: QueueRunCompleteOne :one
-- One package of the run has its result: one fewer pending when it belongs
-- to the wave being examined. Returns what is left of the wave.
UPDATE queue_runs
SET pending = CASE WHEN wave = sqlc.arg(hop)::integer THEN pending - 1 ELSE pending END
WHERE run_id = sqlc.arg(run_id)
RETURNING pending, wave;

-- name: QueueRunFinish :exec
UPDATE queue_runs SET status = $2, finished_at = now(), pending = 0 WHERE run_id = $1;

-- name: QueueResultInsert :execrows
INSERT INTO queue_package_results (run_id, file_name, hop, package_key, failures, body)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (run_id, file_name) DO NOTHING;

-- name: QueueResultExists :one
SELECT EXISTS (SELECT 1 FROM queue_package_results WHERE run_id = $1 AND file_name = $2);

-- name: QueueResultCount :one
SELECT count(*)::integer FROM queue_package_results WHERE run_id = $1;

-- name: QueueResultsPage :many
SELECT file_name, body FROM queue_package_results
WHERE run_id = sqlc.arg(run_id) AND file_name > sqlc.arg(after)
ORDER BY file_name
LIMIT sqlc.arg(lim);

-- name: QueueResultsMissing :many
-- The names of names that have no result in the run.
SELECT n::text AS file_name
FROM unnest(sqlc.arg(names)::text[]) AS n
WHERE NOT EXISTS (SELECT 1 FROM queue_package_results r WHERE r.run_id = sqlc.arg(run_id) AND r.file_name = n)
ORDER BY n
LIMIT sqlc.arg(lim);

-- name: QueueAttemptGet :one
SELECT attempts FROM queue_extract_attempts WHERE run_id = $1 AND file_name = $2;

-- name: QueueAttemptCount :exec
INSERT INTO queue_extract_attempts (run_id, file_name, attempts) VALUES ($1, $2, 1)
ON CONFLICT (run_id, file_name) DO UPDATE SET attempts = queue_extract_attempts.attempts + 1;

-- name: QueueAttemptClear :exec
DELETE FROM queue_extract_attempts WHERE run_id = $1 AND file_name = $2;

-- name: QueueRunsStalledPage :many
-- Runs not finished whose wave being examined has no package pending: the
-- wave's finish job must be queued or running (internal/queue, sweep_finish.go).
SELECT run_id FROM queue_runs
WHERE status = sqlc.arg(status) AND pending = 0 AND run_id > sqlc.arg(after)
ORDER BY run_id
LIMIT sqlc.arg(lim);
