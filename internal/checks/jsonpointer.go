package checks

import (
	"encoding/json"
	"strings"
)

// This file belongs to publisher_provenance (and exfil_context): it finds
// the exact bytes of a member of a stored JSON record by its RFC 6901 JSON
// pointer, so that a finding's excerpt is those bytes and G6 finds them in
// the blob byte for byte.

// PointerToken escapes one reference token for a JSON pointer ("~" → "~0",
// "/" → "~1").
func PointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// Pointer joins reference tokens into a JSON pointer.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(PointerToken(t))
	}
	return b.String()
}

func unescapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
}

// LookupPointer returns the raw bytes of the value ptr designates in doc,
// exactly as they appear there (json.RawMessage keeps a value's bytes), and
// whether it exists. A JSON null is returned like any other value. When an
// object repeats a key, the last occurrence is the one read, as
// encoding/json does.
func LookupPointer(doc []byte, ptr string) (json.RawMessage, bool) {
	return newPointerTree(doc).lookup(ptr)
}

func firstByte(b []byte) byte {
	if len(b) == 0 {
		return 0
	}
	return b[0]
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}
