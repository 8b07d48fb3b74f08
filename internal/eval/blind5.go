package eval

// The fifth blind test part (docs/model-check.md "The fifth blind test
// part"): written on 2026-12-02 by a new hand that had read no analyzer, no
// analyzer section and only five cases of an earlier part for their format,
// while the fourth part (test4) waits, unscored, for a candidate. It gives
// the lead a second unseen measurement to score once, at a merge, without
// spending test4. It is built, checked and scored exactly like the other
// blind parts (BlindPart); it shares no source, id, description or
// near-duplicate with any earlier part. It is unscored: it admits an
// analyzer only on its first scoring (methodology §18).

// SplitTest5 is the fifth blind test part.
const SplitTest5 = "test5"

// Blind5 is the fifth blind test part and what it is built to hold.
var Blind5 = BlindPart{
	Split: SplitTest5, HandFiles: []string{"blind5_poisoned.jsonl", "blind5_clean.jsonl"}, CorpusFile: "blind5_cases.jsonl",
	HandPrefix: "blind5-", TruthPrefix: "blind5-truth-",
	MinSpans: 330, MinPoisoned: 230, MinSpansPerCategory: 100, MinHandClean: 320,
}
