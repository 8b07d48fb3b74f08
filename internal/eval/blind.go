package eval

// The blind test part (docs/model-check.md "The blind test part"): a
// second test part, written by a hand that had read neither the analyzers
// nor the first test part, so that an analyzer can be measured on cases
// nobody who wrote or tuned it has seen. It is not drawn by the split rule
// of split.go, which does not change: every case of its files is test2 by
// the file it is in, and it shares no source, id, description or
// near-duplicate with the development or the test part (CheckBlindCases).
// Later blind parts (blind3.go, blind4.go, blind5.go) are built and checked by the same code
// (BlindPart) and shares nothing with any earlier part.
// Its clean base is the runtime truth the rule puts in the test part,
// taken by BlindCorpus from testdata/corpus/truth, never copied by hand.

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// SplitTest2 is the blind test part.
const SplitTest2 = "test2"

// BlindPart is one blind test part: its split name, the files of its
// hand-written cases, the file built from them and the clean base, the
// prefixes of its ids, and what it is built to hold (docs/model-check.md).
// Every blind part is built, checked and scored by the same code; only
// these figures differ.
type BlindPart struct {
	Split      string
	HandFiles  []string
	CorpusFile string
	// HandPrefix starts the id of every hand-written case, TruthPrefix the
	// id of every case of the clean base.
	HandPrefix, TruthPrefix                                  string
	MinSpans, MinPoisoned, MinSpansPerCategory, MinHandClean int
}

// Blind2 is the blind test part test2, written on 2026-12-01 (issue 16's
// second wave).
var Blind2 = BlindPart{
	Split: SplitTest2, HandFiles: []string{"blind_poisoned.jsonl", "blind_clean.jsonl"}, CorpusFile: BlindCorpusFile,
	HandPrefix: "blind-", TruthPrefix: blindTruthPrefix,
	MinSpans: BlindMinSpans, MinPoisoned: BlindMinPoisoned, MinSpansPerCategory: BlindMinSpansPerCategory, MinHandClean: BlindMinHandClean,
}

// BlindHandFiles are the hand-written cases of the blind test part, and
// BlindCorpusFile the file built from them and the clean base.
var BlindHandFiles = Blind2.HandFiles

const BlindCorpusFile = "blind_cases.jsonl"

// What the blind part test2 is built to hold (docs/model-check.md), and the
// token overlap at which two descriptions count as one text.
const (
	BlindMinSpans            = 320
	BlindMinPoisoned         = 220
	BlindMinSpansPerCategory = 90
	BlindMinHandClean        = 300
	NearDuplicateJaccard     = 0.5
)

// blindTruthPrefix starts the id of a clean-base case of the blind part.
const blindTruthPrefix = "blind-truth-"

// MeasuredOnly reports whether split is a part analyzers are only measured
// on (test and every blind part), whose texts a report withholds.
func MeasuredOnly(split string) bool {
	if split == SplitTest {
		return true
	}
	_, ok := BlindPartOf(split)
	return ok
}

// BlindParts are the blind test parts, in the order they were written.
func BlindParts() []BlindPart { return []BlindPart{Blind2, Blind3, Blind4, Blind5} }

// BlindPartOf is the blind part of that split name.
func BlindPartOf(split string) (BlindPart, bool) {
	for _, p := range BlindParts() {
		if p.Split == split {
			return p, true
		}
	}
	return BlindPart{}, false
}

// BlindCorpus is the blind test part test2 (Blind2.Corpus).
func BlindCorpus(hand, truth []Case, devPinned map[string]bool) []Case {
	return Blind2.Corpus(hand, truth, devPinned)
}

// Corpus is the blind part: the hand-written cases, then every
// runtime-truth case the split rule puts in the test part (truth as
// TruthCleanCases returns it for the test part's build), numbered
// TruthPrefix+NNNNN so that no id is in two parts, all with the part's
// split. The base repeats the test part's real clean descriptions on
// purpose: they are the published texts of real servers, and a blind part
// needs a control set of the size the admission test names.
func (p BlindPart) Corpus(hand, truth []Case, devPinned map[string]bool) []Case {
	out := make([]Case, 0, len(hand)+len(truth))
	for _, c := range hand {
		c.Split = p.Split
		out = append(out, c)
	}
	n := 0
	for _, c := range truth {
		if SplitOf(c.Source, devPinned) != SplitTest {
			continue
		}
		n++
		c.ID = fmt.Sprintf("%s%05d", p.TruthPrefix, n)
		c.Split = p.Split
		out = append(out, c)
	}
	return out
}

// IsBlindBase reports whether a case of the blind part test2 is of its
// clean base.
func IsBlindBase(c Case) bool { return Blind2.IsBase(c) }

// IsBase reports whether a case of the part is of its clean base.
func (p BlindPart) IsBase(c Case) bool { return strings.HasPrefix(c.ID, p.TruthPrefix) }

// Tokens is the set of words of s for the near-duplicate check: lower-cased
// runs of letters, digits and combining marks (so a Devanagari vowel sign
// stays in its word); in scripts written without spaces (Han,
// Hiragana, Katakana, Thai) every two adjacent characters, so two Chinese
// texts are compared by their character bigrams rather than as one word.
func Tokens(s string) map[string]bool {
	out := map[string]bool{}
	var word []rune
	var dense []rune
	flushWord := func() {
		if len(word) > 0 {
			out[string(word)] = true
			word = word[:0]
		}
	}
	flushDense := func() {
		switch {
		case len(dense) == 1:
			out[string(dense)] = true
		case len(dense) > 1:
			for i := 0; i+1 < len(dense); i++ {
				out[string(dense[i:i+2])] = true
			}
		}
		dense = dense[:0]
	}
	for _, r := range strings.ToLower(s) {
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai):
			flushWord()
			dense = append(dense, r)
		case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			flushDense()
			word = append(word, r)
		default:
			flushWord()
			flushDense()
		}
	}
	flushWord()
	flushDense()
	return out
}

// Jaccard is |a ∩ b| / |a ∪ b| (0 when both are empty).
func Jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	inter := 0
	for t := range a {
		if b[t] {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// CheckBlindCases checks the hand-written cases of the blind part test2
// (CheckBlindPart).
func CheckBlindCases(hand []Case, parts map[string][]Case) error {
	return CheckBlindPart(SplitTest2, hand, parts)
}

// CheckBlindPart checks the hand-written cases of a blind part against
// the other parts (name -> cases): every hand case says split; and none
// shares an id, a source key, a description, or a near-duplicate (token
// Jaccard at least NearDuplicateJaccard) with a case of another part. The
// error joins every problem found (errors.Is reads each), each naming the
// blind case; for a part other than dev it names only the part, so a
// failure never shows a test-part case.
func CheckBlindPart(split string, hand []Case, parts map[string][]Case) error {
	var errs []error
	for _, c := range hand {
		if c.Split != split {
			errs = append(errs, fmt.Errorf("%w: blind case %s says split %q, not %s", ErrSplit, c.ID, c.Split, split))
		}
	}
	names := make([]string, 0, len(parts))
	for name := range parts {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		other := parts[name]
		ids, keys, descs := map[string]string{}, map[string]string{}, map[string]string{}
		toks := make([]map[string]bool, len(other))
		for i, o := range other {
			ids[o.ID] = o.ID
			keys[SourceKey(o.Source)] = o.ID
			descs[o.Description] = o.ID
			toks[i] = Tokens(o.Description)
		}
		who := func(id string) string {
			if name == SplitDev {
				return "dev case " + id
			}
			return "a case of part " + name
		}
		for _, c := range hand {
			if id, ok := ids[c.ID]; ok {
				errs = append(errs, fmt.Errorf("%w: blind case id %s is also the id of %s", ErrCorpus, c.ID, who(id)))
			}
			if id, ok := keys[SourceKey(c.Source)]; ok {
				errs = append(errs, fmt.Errorf("%w: blind case %s has the source of %s", ErrSplit, c.ID, who(id)))
			}
			if id, ok := descs[c.Description]; ok {
				errs = append(errs, fmt.Errorf("%w: blind case %s has the description of %s", ErrCorpus, c.ID, who(id)))
			}
			ct := Tokens(c.Description)
			for i, ot := range toks {
				small, large := len(ct), len(ot)
				if small > large {
					small, large = large, small
				}
				// Jaccard is at most small/large: most pairs need no count.
				if large == 0 || float64(small) < NearDuplicateJaccard*float64(large) {
					continue
				}
				if j := Jaccard(ct, ot); j >= NearDuplicateJaccard {
					errs = append(errs, fmt.Errorf("%w: blind case %s is a near-duplicate (token Jaccard %.2f) of %s", ErrCorpus, c.ID, j, who(other[i].ID)))
					break
				}
			}
		}
	}
	return errors.Join(errs...)
}
