package surface

import (
	"testing"
)

// A list joined from a constant table (methodology §5.3, 2.3.9, JK) reaches
// the verifier with a span for every piece: each key where it is written in
// the object literal (a spread's keys in the spread object), each value in
// its definition, the callback's own text in the callback and the separator
// where it is written. A quote across them verifies piece by piece, each
// excerpt the source bytes of its own piece, so G6/G7 check every quoted byte
// where it is written; a quote that the text does not hold is rejected.
func TestKeysQuotesVerify(t *testing.T) {
	s, read := quoteFixture(t, "js_const_keys.txtar")
	cases := []struct {
		tool, quote string
		excerpts    []string // the source bytes of each piece; nil: rejected
	}{
		// Keys of a spread object first, then the object's own new key.
		{"scan_keys", "SAST, Secrets, DAST.", []string{"SAST", ", ", "Secrets", ", ", "DAST", "."}},
		// A repeated key keeps its place and takes its last value.
		{"scan_all_values", "Static testing;Secret scanning", []string{"Static testing", ";", "Secret scanning"}},
		{"scan_all_values", "Code scanning", nil},
		// An entry's key and a property of its value, around the callback's text.
		{"modes", "- fast-mode: Fast\n- slow", []string{"- ", "fast-mode", ": ", "Fast", "\\n", "- ", "slow"}},
		{"mode_keys", "[slow-mode]", []string{"[", "slow-mode", "]"}},
		// The callback's last text and the separator after it in the same
		// file are joined literals: one piece whose excerpt holds the bytes
		// between them (design decision 4), as for any join.
		{"levels", "<low>, <high>", []string{"<", "low", ">`).join(\", ", "<", "high", ">"}},
		{"levels", "<low><high>", nil},
	}
	for _, c := range cases {
		checkQuotePieces(t, &s, read, "tool", c.tool, "index.js", c.quote, c.excerpts)
	}
}

// A callback body's result that is not text always says why, so a hole or
// an unreadable entry never carries an empty reason.
func TestJskeysTextAlwaysSaysWhy(t *testing.T) {
	for _, v := range []val{{}, unknown(""), unknown("member name computed at run time"), {k: vNeed}} {
		got, why := jskeysText(v)
		if why == "" || got.k == vText {
			t.Errorf("jskeysText(%+v) = %+v, %q: want no text and a reason", v, got, why)
		}
	}
	if _, why := jskeysText(unknown("member name computed at run time")); why != "member name computed at run time" {
		t.Errorf("the value's own reason was replaced: %q", why)
	}
	txt := val{k: vText, txt: &textv{}}
	if got, why := jskeysText(txt); why != "" || got.k != vText {
		t.Errorf("text refused: %+v, %q", got, why)
	}
}
