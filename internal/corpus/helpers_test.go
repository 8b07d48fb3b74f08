package corpus

import (
	"encoding/json"
	"unicode/utf8"
)

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func isValidUTF8(s string) bool { return utf8.ValidString(s) }
