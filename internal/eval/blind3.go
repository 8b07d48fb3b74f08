package eval

// The third blind test part (docs/model-check.md "The third blind test
// part"): written on 2026-12-01 by a hand that had read no analyzer, no
// analyzer section and only a few cases of the other parts for their
// format, after the first two test parts had been scored and retired into
// development. It is built, checked and scored exactly like test2
// (BlindPart); it shares no source, id, description or near-duplicate with
// the development part, the test part or test2.

// SplitTest3 is the third blind test part.
const SplitTest3 = "test3"

// Blind3 is the third blind test part and what it is built to hold.
var Blind3 = BlindPart{
	Split: SplitTest3, HandFiles: []string{"blind3_poisoned.jsonl", "blind3_clean.jsonl"}, CorpusFile: "blind3_cases.jsonl",
	HandPrefix: "blind3-", TruthPrefix: "blind3-truth-",
	MinSpans: 330, MinPoisoned: 230, MinSpansPerCategory: 100, MinHandClean: 320,
}
