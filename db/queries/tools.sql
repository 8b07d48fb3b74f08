-- name: ToolInsert :exec
INSERT INTO tools (package_version_id, position, name, description_state, description_raw, schema_kind, schema_raw, tool_hash, hash_reason)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9);

-- name: ToolListByPackageVersion :many
SELECT * FROM tools WHERE package_version_id = $1 ORDER BY position LIMIT 10000;
