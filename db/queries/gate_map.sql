-- name: GateMapUpsert :exec
INSERT INTO gate_map (methodology_version, code, guard, line)
VALUES ($1, $2, $3, $4)
ON CONFLICT (methodology_version, code) DO UPDATE SET guard = EXCLUDED.guard, line = EXCLUDED.line;

-- name: GateMapList :many
SELECT * FROM gate_map WHERE methodology_version = $1 ORDER BY code LIMIT 1000;
