package eval

// The seventh hand-written part (docs/model-check.md "The seventh
// hand-written part"): written on 2026-12-04 by a hand new to the project,
// under the blind parts' rules (no analyzer, no analyzer section read), as
// development material for the analyzer's statistical stage, so that its
// training sees phrasings of one more hand. Like hand6 it is not a test
// part: it is never measured only, never retired, and a report that scores
// it names it as development material and never says the admission test
// holds (Development). It has no clean base: its files are the
// hand-written cases alone, every one of split hand7 by the file it is in;
// the split rule of split.go does not read them.

// SplitHand7 is the seventh hand-written part, development material.
const SplitHand7 = "hand7"

// Hand7Files are the hand-written cases of the part: the poisoned cases,
// then their clean twins (each poisoned tool name has one).
var Hand7Files = []string{"hand7_poisoned.jsonl", "hand7_clean.jsonl"}

// Hand7IDPrefix starts the id of every case of the part; ten hex digits of
// the SHA-256 of the description follow.
const Hand7IDPrefix = "hand7-"

// What the part is built to hold (docs/model-check.md): at least this many
// poisoned cases, spans and clean twins, and poisoned cases of each group
// of surface kinds other than tools.
const (
	Hand7MinPoisoned    = 120
	Hand7MinSpans       = 150
	Hand7MinClean       = 120
	Hand7MinPerKindPair = 12
)
