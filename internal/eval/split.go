package eval

// The split of the corpus into a development part and a test part
// (docs/model-check.md "The split"). It is decided once, by a published
// rule over each case's source, so that every case of one source sits on
// one side and nobody can move a case by hand without a test failing
// (split_test.go).

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strings"
)

// The parts of the corpus. SplitAll is not a part: it selects every case.
const (
	SplitDev  = "dev"
	SplitTest = "test"
	SplitAll  = "all"
)

// SplitRule names the rule below; it is mixed into the hash, so a new rule
// is a new name and a new split, never a quiet edit of this one.
const SplitRule = "attestari-eval-split-1"

// DevPinnedFiles are the hand-written files offline-rules-1 was written
// and adjusted against. Every case in them is a development case, and so is
// every other case whose source key one of them uses.
var DevPinnedFiles = []string{"disclosures.jsonl", "clean_written.jsonl"}

// SourceKey is what the split rule reads of a source: for a case taken
// from the runtime truth ("npm:<name>@<version>") the package name, so that
// every version of a package falls on one side; for a citation, its first
// URL (so "adapted from URL (...)" and "URL" are one source); otherwise the
// whole source text.
func SourceKey(source string) string {
	s := strings.TrimSpace(source)
	if rest, ok := strings.CutPrefix(s, "npm:"); ok {
		if i := strings.LastIndex(rest, "@"); i > 0 {
			rest = rest[:i]
		}
		return "npm:" + rest
	}
	if i := urlStart(s); i >= 0 {
		u := s[i:]
		if j := strings.IndexAny(u, " \t\n\"'<>"); j >= 0 {
			u = u[:j]
		}
		return strings.TrimRight(u, ").,;:")
	}
	return s
}

func urlStart(s string) int {
	a, b := strings.Index(s, "https://"), strings.Index(s, "http://")
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// SplitOf is the rule: a source whose key a case of DevPinnedFiles uses is
// dev; any other source is test when the first byte of
// SHA-256(SplitRule "\n" key) is odd, dev when it is even.
func SplitOf(source string, devPinned map[string]bool) string {
	k := SourceKey(source)
	if devPinned[k] {
		return SplitDev
	}
	h := sha256.Sum256([]byte(SplitRule + "\n" + k))
	if h[0]&1 == 1 {
		return SplitTest
	}
	return SplitDev
}

// DevPinnedKeys is the set of source keys of the given (DevPinnedFiles')
// cases.
func DevPinnedKeys(pinned []Case) map[string]bool {
	m := map[string]bool{}
	for _, c := range pinned {
		m[SourceKey(c.Source)] = true
	}
	return m
}

// ErrSplit classifies a request for a part of the corpus that the corpus
// cannot answer: an unknown split, a case that does not say its part, or a
// part with no case in it.
var ErrSplit = errors.New("eval: split")

// CheckSplitName accepts dev, test, test2, test3, test4 and test5 (the
// blind test parts, blind.go, blind3.go, blind4.go and blind5.go), hand6
// and hand7 (hand-written development parts, hand6.go and hand7.go) and
// all.
func CheckSplitName(split string) error {
	switch split {
	case SplitDev, SplitTest, SplitTest2, SplitTest3, SplitTest4, SplitTest5, SplitHand6, SplitHand7, SplitAll:
		return nil
	}
	return fmt.Errorf("%w: %q is not dev, test, test2, test3, test4, test5, hand6, hand7 or all", ErrSplit, split)
}

// SelectSplit returns the cases of one part ("" and all: every case). A
// case without a split is never silently left out of a part or put into
// one: asking for dev or test of a corpus holding such a case is an error.
func SelectSplit(cases []Case, split string) ([]Case, error) {
	if split == "" || split == SplitAll {
		return cases, nil
	}
	if err := CheckSplitName(split); err != nil {
		return nil, err
	}
	var out []Case
	for _, c := range cases {
		if c.Split == "" {
			return nil, fmt.Errorf("%w: case %s says no split; score the file with --split all", ErrSplit, c.ID)
		}
		if c.Split == split {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: the corpus holds no case of split %s", ErrSplit, split)
	}
	return out, nil
}

// CheckSplits reports the first case whose split is not the rule's, or
// that says none: a case moved by hand. Since the rule reads nothing but
// the source key, every case of one source is then on one side.
func CheckSplits(cases []Case, devPinned map[string]bool) error {
	for _, c := range cases {
		if want := SplitOf(c.Source, devPinned); c.Split != want {
			return fmt.Errorf("%w: case %s says split %q; the rule puts source %q in %s", ErrSplit, c.ID, c.Split, SourceKey(c.Source), want)
		}
	}
	return nil
}
