package vocab

import (
	"crypto/sha256"
	"encoding/hex"
)

// SHA256Hex is the lowercase hex SHA-256 of b: the form every content
// address, blob name and hash takes in a run file, the database and a
// response.
func SHA256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
