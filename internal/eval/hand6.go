package eval

// The sixth hand-written part (docs/model-check.md "The sixth hand-written
// part"): written on 2026-12-04 by a hand new to the project, under the
// blind parts' rules (no analyzer, no analyzer section read), as
// development material for the analyzer's statistical stage, so that its
// training sees phrasings of more hands than the few so far. It is not a
// test part: it is never measured only, never retired, and a report that
// scores it names it as development material and never says the
// admission test holds (Development). It has no clean base: its files are
// the hand-written cases alone, every one of split hand6 by the file it is
// in; the split rule of split.go does not read them.

// SplitHand6 is the sixth hand-written part, development material.
const SplitHand6 = "hand6"

// Hand6Files are the hand-written cases of the part: the poisoned cases,
// then their clean twins (each poisoned tool name has one).
var Hand6Files = []string{"hand6_poisoned.jsonl", "hand6_clean.jsonl"}

// Hand6IDPrefix starts the id of every case of the part; ten hex digits of
// the SHA-256 of the description follow.
const Hand6IDPrefix = "hand6-"

// What the part is built to hold (docs/model-check.md): at least this many
// poisoned cases, spans and clean twins, and poisoned cases of each group
// of surface kinds other than tools.
const (
	Hand6MinPoisoned    = 120
	Hand6MinSpans       = 150
	Hand6MinClean       = 120
	Hand6MinPerKindPair = 12
)

// DevelopmentSplits are the parts that are development material by name:
// the development part and the hand-written development parts (hand6,
// hand7.go's hand7). Cases that name no part are development material too
// (Development).
var DevelopmentSplits = []string{SplitDev, SplitHand6, SplitHand7}
