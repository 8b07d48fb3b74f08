-- name: EvidenceInsert :exec
INSERT INTO evidence (sha256, content_type, size, body, publication_id)
VALUES ($1, $2, $3, $4, $5)
ON CONFLICT (sha256) DO NOTHING;

-- name: EvidenceGet :one
SELECT sha256, content_type, size, body FROM evidence WHERE sha256 = $1;
