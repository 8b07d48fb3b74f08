package eval

import "sort"

// Retired parts (docs/model-check.md, "Retired parts"; methodology 2.3.8):
// a test part admits an analyzer only until it has been scored once. Once
// its figures are recorded, its hand-written cases are development
// material: anyone may read them and tune on them, so a figure on them no
// longer says anything about unseen cases, and the admission test never
// holds on a corpus holding any case of them. Their runtime-truth clean
// base is not retired with them: it stays the admission control set of
// the parts that share it. The split rule (SplitRule) does not change; a
// retired part keeps its split name, so its recorded figures can still be
// reproduced, and its texts stay withheld from reports unless
// --show-test-cases is given.
//
// The third blind test part (test3) was scored once on 2026-12-01, the
// admission test did not hold for any analyzer on it, and it is retired in
// turn: the next analyzer needs a part nobody has scored.
var RetiredSplits = []string{SplitTest, SplitTest2, SplitTest3}

// Retired reports whether split is a retired part.
func Retired(split string) bool {
	for _, s := range RetiredSplits {
		if s == split {
			return true
		}
	}
	return false
}

// retiredParts is the sorted list of retired parts that cases hold a case
// of; a runtime-truth case of the test side's base (source npm:...) counts
// with its part, since a part is scored whole.
func retiredParts(cases []Case) []string {
	seen := map[string]bool{}
	for _, c := range cases {
		if Retired(c.Split) {
			seen[c.Split] = true
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
