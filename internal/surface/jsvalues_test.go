package surface

import (
	"testing"
)

// TestValuesQuotesVerify checks that the texts JV reads verify where they
// are written: a sealed table's inner values between the callback's text,
// and an environment variable's package default (its own bytes). A choice
// between two of the package's texts is read since 2.3.11 (FO) as the arm
// taken with the arm not taken an entry off by default, so a quote of
// either arm verifies where it is written.
func TestValuesQuotesVerify(t *testing.T) {
	cases := []struct {
		golden, tool, file, quote string
		excerpts                  []string // the source bytes of each piece; nil: rejected
	}{
		{"js_values_writes", "list_catalog", "index.js", "- alpha: First item\n- beta", []string{"- ", "alpha", ": ",
			// The value lies before the separator in the same file: one piece
			// holding the bytes between (design decision 4, as for any join).
			"First item\", url: \"a\" },\n  beta: { summary: \"Second item\", url: \"b\" },\n};\nserver.tool(\"list_catalog\", `Items:\\n${Object.entries(CATALOG).map(([id, v]) => `- ${id}: ${v.summary}`).join(\"\\n",
			"- ", "beta"}},
		{"js_values_writes", "list_catalog", "index.js", "First itemSecond item", nil},
		{"js_values_choice", "status", "index.js", "Report the status.", []string{"Report the status."}},
		{"js_values_choice", "status", "index.js", "Report every detail", []string{"Report every detail"}},
		{"js_values_choice", "search", "defs.js", "Search the web and return titles", []string{"Search the web and return titles"}},
		{"js_values_choice", "search", "defs.js", "Web search.", []string{"Web search."}},
		{"js_values_choice", "width", "index.js", "Wide layout.", nil},
		{"js_values_choice", "region", "index.js", "Search in web unless", []string{"Search in ", "web", " unless"}},
		{"js_values_choice", "color", "index.js", "Paint it blue.", []string{"Paint it ", "blue", "."}},
	}
	for _, c := range cases {
		s, read := quoteFixture(t, c.golden+".txtar")
		checkQuotePieces(t, &s, read, "tool", c.tool, c.file, c.quote, c.excerpts)
	}
}
