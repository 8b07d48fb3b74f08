package sigstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// SanitizeTrustedRoot returns a trusted root with every service address
// emptied: the "baseUrl" of each log, the "uri" of each authority, and any
// subject name that is a host name. The project writes no public service's
// host name (docs/provenance.md); those members are informational for the
// verification this package performs — a log is found by its key id, an
// authority by its certificate chain — so the keys, certificates and
// validity windows, which are what a verdict rests on, are kept as they are.
// The output is indented JSON with sorted keys, so a refresh diff is stable.
func SanitizeTrustedRoot(raw []byte) ([]byte, error) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("sigstore.SanitizeTrustedRoot: %w", err)
	}
	scrub(doc, "")
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sigstore.SanitizeTrustedRoot: %w", err)
	}
	return append(out, '\n'), nil
}

func scrub(v any, parent string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			switch s, isStr := e.(string); {
			case isStr && (k == "baseUrl" || k == "uri"):
				x[k] = ""
			case isStr && parent == "subject" && looksLikeHost(s):
				x[k] = ""
			default:
				scrub(e, k)
			}
		}
	case []any:
		for _, e := range x {
			scrub(e, parent)
		}
	}
}

func looksLikeHost(s string) bool {
	return strings.Contains(s, ".") && !strings.ContainsAny(s, " ,")
}
