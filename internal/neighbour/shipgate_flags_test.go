package neighbour

import "regexp"

// sgPatterns is the neighbour's injection check, SHIP-DOC-INJECTION-RISK
// (seed 002, "Check Catalog": "A tool description contains
// instruction-override style language"; "regex_heuristic — matched a regex
// (... prompt-injection patterns)"). The seed names the check and its
// severity rule but not its patterns; the four below are what its checks
// module states (docs/check-neighbour.md §1 names the file and commit),
// restated here in Go's RE2 syntax. Each is case-insensitive and searched
// anywhere in the description; `.` does not cross a line break, as in the
// original.
var sgPatterns = []*regexp.Regexp{
	// 1. "ignore previous instructions", "ignore all prior instructions".
	regexp.MustCompile(`(?i)ignore (?:all )?(?:previous|prior) instructions`),
	// 2. ignore / override / replace, then within 40 characters system
	//    prompt / developer message / instructions.
	regexp.MustCompile(`(?i)(?:ignore|override|replace).{0,40}(?:system prompt|developer message|instructions)`),
	// 3. The same two in the other order.
	regexp.MustCompile(`(?i)(?:system prompt|developer message).{0,40}(?:ignore|override|replace)`),
	// 4. "you are now a/the system/developer/admin/root".
	regexp.MustCompile(`(?i)you are now (?:a|the) (?:system|developer|admin|root)`),
}

// sgFlag is one pattern that matched: which, and where its first match is
// (byte offsets into the text). The neighbour reports only the patterns
// that matched, not where; the span is kept here so the match can be
// scored against the labelled spans.
type sgFlag struct {
	Pattern    int
	Start, End int
}

// shipgateFlags applies the four patterns to text, as the neighbour does to
// each tool description: each pattern is searched once (its first match).
// The finding is medium, and high only when more than one pattern matches
// on a write or high-risk tool; either way one finding per tool.
func shipgateFlags(text string) []sgFlag {
	var out []sgFlag
	for i, re := range sgPatterns {
		if loc := re.FindStringIndex(text); loc != nil {
			out = append(out, sgFlag{Pattern: i + 1, Start: loc[0], End: loc[1]})
		}
	}
	return out
}
