package eval

import "sort"

// Development material admits nothing (issue 16; docs/model-check.md,
// "The purpose analyzer's fourth reading"): the admission test of §18 is
// decided only on a test part that no reading has been tuned on and that
// is scored for the first time. The development part (split dev) and cases
// that name no part are material analyzers are written against, so a
// report of them never says the test holds, whatever the figures; it names
// the development parts it scored instead, as it names retired ones.

// Development reports whether split names development material: the
// development part, a hand-written development part (DevelopmentSplits,
// hand6.go: hand6 and hand7), or no part at all.
func Development(split string) bool {
	if split == "" {
		return true
	}
	for _, s := range DevelopmentSplits {
		if s == split {
			return true
		}
	}
	return false
}

// developmentParts is the sorted list of development parts cases hold a
// case of; cases that name no part are listed as SplitAll, the name a
// report gives them.
func developmentParts(cases []Case) []string {
	seen := map[string]bool{}
	for _, c := range cases {
		if Development(c.Split) {
			seen[orAll(c.Split)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
