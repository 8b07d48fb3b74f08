package eval

// The fourth blind test part (docs/model-check.md "The fourth blind test
// part"): written on 2026-12-01 by a new hand that had read no analyzer, no
// analyzer section and only a few cases of the other parts for their
// format, after test, test2 and test3 had all been scored and retired into
// development. It is built, checked and scored exactly like test2 and test3
// (BlindPart); it shares no source, id, description or near-duplicate with
// any earlier part. It is unscored: it admits an analyzer only on its first
// scoring (methodology §18), so it is scored once, when the lead decides a
// candidate's development figures meet the bars.

// SplitTest4 is the fourth blind test part.
const SplitTest4 = "test4"

// Blind4 is the fourth blind test part and what it is built to hold.
var Blind4 = BlindPart{
	Split: SplitTest4, HandFiles: []string{"blind4_poisoned.jsonl", "blind4_clean.jsonl"}, CorpusFile: "blind4_cases.jsonl",
	HandPrefix: "blind4-", TruthPrefix: "blind4-truth-",
	MinSpans: 330, MinPoisoned: 230, MinSpansPerCategory: 100, MinHandClean: 320,
}
