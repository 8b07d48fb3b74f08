package analyzer

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// The purpose analyzer's speed (issue 16's time bar): its rules are some
// hundred RE2 expressions, and most of them cannot match most sentences. A
// purposeRegexp is one such expression with a literal prefilter derived
// from its syntax tree when it is compiled (px): a set of strings at least
// one of which every match must contain. Where none occurs in the text the
// expression is not run, and the answer is the one it would have given (no
// match); where one occurs the expression runs as before. So the filter
// changes no answer, only how soon a sentence that cannot match is passed
// over, and an expression added later gets it for free. The derivation is
// conservative: a part of the expression it cannot bound (a class of many
// characters, an optional part, a case-folded literal, a text that can be
// empty) gives no filter, and the expression then always runs.
// TestPurposePrefilterSound checks it on every expression over the
// evaluation material and on random strings.

// purposeRegexp is a compiled rule with its prefilter. Its methods are
// those of regexp.Regexp the rules call; any other is the embedded one,
// unfiltered.
type purposeRegexp struct {
	*regexp.Regexp
	// lits: every match contains one of these; nil is no filter.
	lits []string
	// bytes and strs are lits split for the test: the members of one
	// byte (one strings.ContainsAny) and the longer ones.
	bytes string
	strs  []string
	// alts, when set, are the expression's alternatives compiled one by
	// one (purposeAlternatives): the expression matches a text exactly
	// when one of them does, so MatchString runs only those whose own
	// filter passes. The positional methods run the whole expression
	// (leftmost-first order is the whole expression's).
	alts []*purposeRegexp
	// split: alternatives are derived (an expression px compiled); once
	// guards the derivation (prepare).
	split bool
	once  sync.Once
}

// purposeRegexps is every expression px compiled, for the soundness test.
var purposeRegexps []*purposeRegexp

// compilePurposeRegexp compiles s; its prefilter and alternatives are
// derived on first use (prepare), not here: px runs at package
// initialisation in every process of the binary, among them each
// extraction child, which never runs the analyzer, and deriving every
// expression's alternatives there cost about a second of CPU time.
func compilePurposeRegexp(s string) *purposeRegexp {
	r := &purposeRegexp{Regexp: regexp.MustCompile(s), split: true}
	purposeRegexps = append(purposeRegexps, r)
	return r
}

// prepare derives r's filter and, for an expression px compiled, its
// alternatives, once.
func (r *purposeRegexp) prepare() {
	r.once.Do(func() {
		r.deriveFilter()
		if !r.split {
			return
		}
		if t, err := syntax.Parse(r.String(), syntax.Perl); err == nil {
			if alts := purposeAlternatives(t, 0); len(alts) > 1 {
				for _, a := range alts {
					re, err := regexp.Compile(a.String())
					if err != nil {
						r.alts = nil
						break
					}
					r.alts = append(r.alts, newPurposeRegexp(re))
				}
			}
		}
	})
}

// newPurposeRegexp is re with its filter derived now (an alternative of
// an expression being prepared; it is not split further).
func newPurposeRegexp(re *regexp.Regexp) *purposeRegexp {
	r := &purposeRegexp{Regexp: re}
	r.once.Do(r.deriveFilter)
	return r
}

// deriveFilter derives r's required literals.
func (r *purposeRegexp) deriveFilter() {
	if t, err := syntax.Parse(r.String(), syntax.Perl); err == nil {
		if set, ok := requiredLiterals(t.Simplify(), 0); ok {
			r.lits = set
			for _, l := range set {
				if len(l) == 1 {
					r.bytes += l
				} else {
					r.strs = append(r.strs, l)
				}
			}
		}
	}
}

// maxPurposeAlternatives bounds how many alternatives an expression is
// split into.
const maxPurposeAlternatives = 64

// purposeAlternatives returns expressions whose alternation matches
// exactly the texts re matches: re's top-level alternatives (through
// groups), and a concatenation distributed over its first alternation
// part (x(a|b)y is xay|xby). It returns re alone when it finds none.
func purposeAlternatives(re *syntax.Regexp, depth int) []*syntax.Regexp {
	if depth > 2 {
		return []*syntax.Regexp{re}
	}
	switch re.Op {
	case syntax.OpCapture:
		return purposeAlternatives(re.Sub[0], depth+1)
	case syntax.OpAlternate:
		var out []*syntax.Regexp
		for _, sub := range re.Sub {
			out = append(out, purposeAlternatives(sub, depth+1)...)
			if len(out) > maxPurposeAlternatives {
				return []*syntax.Regexp{re}
			}
		}
		return out
	case syntax.OpConcat:
		for i, sub := range re.Sub {
			inner := sub
			for inner.Op == syntax.OpCapture {
				inner = inner.Sub[0]
			}
			if inner.Op != syntax.OpAlternate {
				continue
			}
			alts := purposeAlternatives(inner, depth+1)
			if len(alts) < 2 || len(alts) > maxPurposeAlternatives {
				return []*syntax.Regexp{re}
			}
			out := make([]*syntax.Regexp, 0, len(alts))
			for _, a := range alts {
				subs := make([]*syntax.Regexp, 0, len(re.Sub))
				subs = append(subs, re.Sub[:i]...)
				subs = append(subs, a)
				subs = append(subs, re.Sub[i+1:]...)
				out = append(out, &syntax.Regexp{Op: syntax.OpConcat, Flags: re.Flags, Sub: subs})
			}
			return out
		}
	}
	return []*syntax.Regexp{re}
}

// possible reports whether s contains one of the expression's required
// literals (always true without a filter).
func (r *purposeRegexp) possible(s string) bool {
	r.prepare()
	if r.lits == nil {
		return true
	}
	if r.bytes != "" && strings.ContainsAny(s, r.bytes) {
		return true
	}
	for _, l := range r.strs {
		if strings.Contains(s, l) {
			return true
		}
	}
	return false
}

func (r *purposeRegexp) MatchString(s string) bool {
	if !r.possible(s) {
		return false
	}
	if r.alts == nil {
		return r.Regexp.MatchString(s)
	}
	for _, a := range r.alts {
		if a.possible(s) && a.Regexp.MatchString(s) {
			return true
		}
	}
	return false
}

func (r *purposeRegexp) FindStringIndex(s string) []int {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindStringIndex(s)
}

func (r *purposeRegexp) FindAllStringIndex(s string, n int) [][]int {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindAllStringIndex(s, n)
}

func (r *purposeRegexp) FindString(s string) string {
	if !r.possible(s) {
		return ""
	}
	return r.Regexp.FindString(s)
}

func (r *purposeRegexp) FindAllString(s string, n int) []string {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindAllString(s, n)
}

func (r *purposeRegexp) FindStringSubmatch(s string) []string {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindStringSubmatch(s)
}

func (r *purposeRegexp) FindStringSubmatchIndex(s string) []int {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindStringSubmatchIndex(s)
}

func (r *purposeRegexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	if !r.possible(s) {
		return nil
	}
	return r.Regexp.FindAllStringSubmatchIndex(s, n)
}

// ReplaceAllString returns src itself where the expression cannot match,
// as regexp does when it finds no match.
func (r *purposeRegexp) ReplaceAllString(src, repl string) string {
	if !r.possible(src) {
		return src
	}
	return r.Regexp.ReplaceAllString(src, repl)
}

func (r *purposeRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	if !r.possible(src) {
		return src
	}
	return r.Regexp.ReplaceAllStringFunc(src, repl)
}

// indexFinder is what unnegated and valueNamed read of an expression: a
// rule compiled by px or by regexp alike.
type indexFinder interface {
	FindAllStringIndex(s string, n int) [][]int
}

const (
	// maxPrefilterLiterals bounds a filter's set: a larger one is not
	// derived (no filter).
	maxPrefilterLiterals = 96
	// maxPrefilterClass is the most characters a class may hold to be
	// read as its characters (ten: a digit).
	maxPrefilterClass = 10
	// maxPrefilterDepth bounds the derivation's recursion (the
	// expressions are the analyzer's own, but every recursion is bounded).
	maxPrefilterDepth = 200
)

// requiredLiterals returns a set of non-empty strings one of which every
// match of re contains, and whether it found one. It never returns a set
// holding a string that a match might lack.
func requiredLiterals(re *syntax.Regexp, depth int) ([]string, bool) {
	if depth > maxPrefilterDepth {
		return nil, false
	}
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 || len(re.Rune) == 0 {
			return nil, false
		}
		for _, r := range re.Rune {
			if r == utf8.RuneError || !utf8.ValidRune(r) {
				// An invalid byte of the text matches U+FFFD without
				// containing its encoding.
				return nil, false
			}
		}
		return []string{string(re.Rune)}, true
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo+1 > maxPrefilterClass || len(set)+int(hi-lo+1) > maxPrefilterClass {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				if r == utf8.RuneError || !utf8.ValidRune(r) {
					return nil, false
				}
				set = append(set, string(r))
			}
		}
		return set, len(set) > 0
	case syntax.OpCapture:
		return requiredLiterals(re.Sub[0], depth+1)
	case syntax.OpPlus:
		return requiredLiterals(re.Sub[0], depth+1)
	case syntax.OpRepeat:
		if re.Min < 1 {
			return nil, false
		}
		return requiredLiterals(re.Sub[0], depth+1)
	case syntax.OpAlternate:
		var set []string
		for _, sub := range re.Sub {
			s, ok := requiredLiterals(sub, depth+1)
			if !ok {
				return nil, false
			}
			set = append(set, s...)
			if len(set) > maxPrefilterLiterals {
				return nil, false
			}
		}
		return dedupeLiterals(set), true
	case syntax.OpConcat:
		return concatLiterals(re.Sub, depth)
	}
	// Empty matches, anchors, word boundaries, any character, stars and
	// optional parts: nothing every match must contain.
	return nil, false
}

// concatLiterals: every match of a concatenation contains what each of its
// parts requires, and a run of adjacent plain literals as one string; the
// best of these (the longest shortest member, then the fewest members) is
// the filter.
func concatLiterals(subs []*syntax.Regexp, depth int) ([]string, bool) {
	var best []string
	found := false
	consider := func(set []string) {
		if len(set) == 0 {
			return
		}
		if !found || betterLiterals(set, best) {
			best, found = set, true
		}
	}
	var run strings.Builder
	flush := func() {
		if run.Len() > 0 {
			consider([]string{run.String()})
			run.Reset()
		}
	}
	for _, sub := range subs {
		if sub.Op == syntax.OpLiteral {
			if s, ok := requiredLiterals(sub, depth+1); ok {
				run.WriteString(s[0])
				continue
			}
		}
		flush()
		if s, ok := requiredLiterals(sub, depth+1); ok {
			consider(s)
		}
	}
	flush()
	return best, found
}

// betterLiterals: a's shortest member is longer than b's, or as long with
// fewer members.
func betterLiterals(a, b []string) bool {
	ma, mb := shortestLiteral(a), shortestLiteral(b)
	if ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func shortestLiteral(set []string) int {
	m := -1
	for _, s := range set {
		if m < 0 || len(s) < m {
			m = len(s)
		}
	}
	return m
}

// dedupeLiterals drops repeated members and members containing another
// member (a text containing the longer one contains the shorter), keeping
// the order of the rest.
func dedupeLiterals(set []string) []string {
	out := make([]string, 0, len(set))
	for i, s := range set {
		redundant := false
		for j, o := range set {
			if i != j && strings.Contains(s, o) && (len(o) < len(s) || j < i) {
				redundant = true
				break
			}
		}
		if !redundant {
			out = append(out, s)
		}
	}
	return out
}
