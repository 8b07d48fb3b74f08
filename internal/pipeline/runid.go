package pipeline

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"time"
)

// NewRunID returns a run id that sorts by start time: the UTC time to the
// second, then eight hex digits of a hash over seed (the candidates file's
// SHA-256), the clock's nanoseconds and random bytes, so two runs started
// in the same second never collide. Example: 20261130T120000Z-3fa9c2d1.
func NewRunID(now time.Time, seed []byte) string {
	var salt [8]byte
	_, _ = rand.Read(salt[:])
	h := sha256.New()
	h.Write(seed)
	h.Write([]byte(strconv.FormatInt(now.UnixNano(), 10)))
	h.Write(salt[:])
	return now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(h.Sum(nil))[:8]
}
