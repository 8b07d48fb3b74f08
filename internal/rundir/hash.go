package rundir

import (
	"crypto/sha256"
	"encoding/hex"
)

// SHA256Hex is the lowercase hex SHA-256 of b, the form every hash in a run takes.
func SHA256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
