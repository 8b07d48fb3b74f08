package surface

import (
	"testing"
)

// A prompt message text that is itself the package's conditional reaches
// the verifier with each arm's own spans (methodology §5.4, read since
// 2.3.9): a quote within an arm verifies against the source bytes where each
// piece is written; a quote running from one arm into the other, or across
// the client's hole inside an arm, never does, because those bytes are never
// sent together.
func TestMessageConditionalQuotesVerify(t *testing.T) {
	s, read := quoteFixture(t, "js_prompt_cond_text.txtar")
	cases := []struct {
		prompt, quote string
		excerpts      []string // the source bytes of each piece; nil: rejected
	}{
		// Within the first arm, after the client's hole: the literal and
		// the package's constant, each where it is written.
		{"two_templates", " on the main chain.", []string{" on ", "the main chain", "."}},
		{"two_templates", "Explain block ", []string{"Explain block "}},
		// Within the second arm.
		{"two_templates", "Explain the latest block on the main chain.", []string{"Explain the latest block on ", "the main chain", "."}},
		// From the first arm into the second: never sent together.
		{"two_templates", "chain.Explain the latest", nil},
		// Across the client's hole inside the first arm.
		{"two_templates", "Explain block  on", nil},
		{"two_literals", "Read every file.", []string{"Read every file."}},
		{"two_literals", "file.Read the", nil},
		{"client_arm", "Describe the project.", []string{"Describe the project."}},
		{"empty_arm", "Focus on ", []string{"Focus on "}},
	}
	for _, c := range cases {
		checkQuotePieces(t, &s, read, "prompt", c.prompt, "index.js", c.quote, c.excerpts)
	}
}
