package eval

import "testing"

// TestHand7Files: testdata/eval/hand7_poisoned.jsonl and hand7_clean.jsonl
// are the seventh hand-written part, development material. Every line
// parses (ReadCases), says split hand7 and an id hand7- and ten hex digits
// of its description's SHA-256; every span is an exact substring labelled
// once with one of the three categories, without surrounding white space;
// ids are unique across every file of testdata/eval; each poisoned case
// has a clean twin of the same tool name; no description shares an id, a
// source key, a text or a near-duplicate (token Jaccard at least 0.5) with
// any case of another file (CheckBlindPart); and the counts by surface kind
// and category are the table docs/model-check.md states, rows and sums,
// beside the sha256 of each file.
// No analyzer is run on the part.
func TestHand7Files(t *testing.T) { checkHandPartFiles(t, hand7Part) }

// hand7 is development material: its name is accepted, it is neither
// measured only nor retired, a report scoring it names it as development
// material, and a case saying hand7 is read.
func TestHand7IsDevelopmentMaterial(t *testing.T) { checkHandPartIsDevelopment(t, SplitHand7) }
