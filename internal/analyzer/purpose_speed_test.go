package analyzer

import (
	"math/rand"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// purposeSpeedTexts are the texts the soundness test reads: every distinct
// sentence of every case of the development material and the retired
// parts' hand-written cases (purposeTrainFiles), folded as the rules read
// it, and deobfuscated where that differs. (The original bytes, which the
// structural reading also matches, are left to the random test: reading
// every form of every sentence with every expression unfiltered costs
// minutes on a shared machine.)
func purposeSpeedTexts(t testing.TB) []string {
	t.Helper()
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, c := range loadTrainFiles(t, purposeTrainFiles) {
		for _, r := range purposeSentences(c.Description) {
			f := fold(c.Description[r[0]:r[1]])
			add(f)
			if d := deobfuscate(f); d != f {
				add(d)
			}
		}
	}
	return out
}

// checkPrefilter fails when the filtered expression could answer otherwise
// than the expression itself on s: where the filter skips, the expression
// must not match, and the alternatives must match exactly where the
// expression does (where the filter passes and there are no alternatives,
// the filtered methods are the expression's own call).
func checkPrefilter(t *testing.T, r *purposeRegexp, s string) bool {
	t.Helper()
	r.prepare()
	want := r.Regexp.MatchString(s)
	if want && !r.possible(s) {
		t.Errorf("%s on %q: matches, but none of its required literals %q occurs", r.String(), s, r.lits)
		return false
	}
	if r.alts == nil {
		return true
	}
	any := false
	for _, a := range r.alts {
		m := a.Regexp.MatchString(s)
		if m && !a.possible(s) {
			t.Errorf("alternative %s on %q: matches, but none of its required literals %q occurs", a.String(), s, a.lits)
			return false
		}
		any = any || m
	}
	if any != want {
		t.Errorf("%s on %q: an alternative matches %v, the expression %v", r.String(), s, any, want)
		return false
	}
	if got := r.MatchString(s); got != want {
		t.Errorf("%s on %q: filtered MatchString %v, expression %v", r.String(), s, got, want)
		return false
	}
	return true
}

// TestPurposePrefilterSound: for every expression px compiled, on every
// text of the evaluation material, skipping by the prefilter and matching
// by alternatives never changes an answer, and every match contains one of
// the required literals.
func TestPurposePrefilterSound(t *testing.T) {
	if len(purposeRegexps) < 50 {
		t.Fatalf("only %d expressions registered by px", len(purposeRegexps))
	}
	filtered := 0
	for _, r := range purposeRegexps {
		r.prepare()
		if r.lits != nil {
			filtered++
		}
	}
	if filtered == 0 {
		t.Fatal("no expression has a prefilter")
	}
	texts := purposeSpeedTexts(t)
	for _, r := range purposeRegexps {
		for _, s := range texts {
			if !checkPrefilter(t, r, s) {
				break
			}
		}
	}
}

// TestPurposePrefilterRandom: the same on random strings built from the
// expressions' own literals (whole and cut short), words of the rules'
// vocabulary, digits, punctuation, upper case, look-alike and invisible
// runes and invalid bytes, as written and folded.
func TestPurposePrefilterRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(16))
	var pieces []string
	for _, r := range purposeRegexps {
		r.prepare()
		pieces = append(pieces, r.lits...)
		for _, a := range r.alts {
			pieces = append(pieces, a.lits...)
		}
	}
	pieces = append(pieces, " ", " ", "the user", "send", "to", "https://x.test/a?b=", "@", "~/.ssh/id_rsa", "do not", "IGNORE", "Ｓend", "\xff", "\u200b", "0", "12345678", "+", "#", "`", "'", "\"", ".", ",", ";", ":", "\n", "é", "ſ", "K")
	for _, r := range purposeRegexps {
		for i := 0; i < 300; i++ {
			var b strings.Builder
			for n := rng.Intn(12); n >= 0; n-- {
				p := pieces[rng.Intn(len(pieces))]
				if rng.Intn(4) == 0 && len(p) > 1 {
					p = p[:rng.Intn(len(p))] // a literal cut short
				}
				b.WriteString(p)
			}
			s := b.String()
			if !checkPrefilter(t, r, s) || !checkPrefilter(t, r, fold(s)) {
				return
			}
		}
	}
}

// TestRequiredLiterals: the derivation on written expressions: what every
// match must contain, and no filter where a match can lack every literal.
func TestRequiredLiterals(t *testing.T) {
	cases := []struct {
		re   string
		want []string // nil: no filter
	}{
		{`\bsend\s+it\b`, []string{"send"}},
		{`\b(send|forward)s? to\b`, []string{"send", "forward"}},
		{`(a|b)?c`, []string{"c"}},
		{`(secrets?|secret key)`, []string{"secret"}},
		{`\d{3,}`, []string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}},
		{`(?i)send`, nil},
		{`x*`, nil},
		{`\b\w+\b`, nil},
		{`^(when|if)?\s*ignore`, []string{"ignore"}},
		{`(foo|)bar`, []string{"bar"}},
		{`(foo|)`, nil},
		{`\x{FFFD}`, nil},
	}
	for _, c := range cases {
		tr, err := syntax.Parse(c.re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := requiredLiterals(tr.Simplify(), 0)
		if !ok {
			got = nil
		}
		slices.Sort(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: required literals %q, want %q", c.re, got, want)
		}
	}
}

// TestPurposeAlternatives: an expression split into alternatives matches
// exactly where the expression does (on written texts), and a split is
// made through groups and over a concatenation's alternation.
func TestPurposeAlternatives(t *testing.T) {
	r := compilePurposeRegexp(`\b(do not|never) (tell|show)\b|^ignore`)
	purposeRegexps = purposeRegexps[:len(purposeRegexps)-1]
	r.prepare()
	if len(r.alts) < 3 {
		t.Fatalf("%d alternatives, want the concatenation distributed", len(r.alts))
	}
	for _, s := range []string{"never tell", "do not show them", "please ignore", "ignore it", "never", "do not tell", "nevertheless", "x never showing"} {
		checkPrefilter(t, r, s)
	}
}

// An expression px compiles derives nothing until it is first used: the
// derivation (its alternatives compiled one by one) is work every process
// of the binary would otherwise pay at start, extraction children included.
func TestPurposePrefilterLazy(t *testing.T) {
	r := compilePurposeRegexp(`\b(do not|never) (tell|show)\b|^ignore`)
	purposeRegexps = purposeRegexps[:len(purposeRegexps)-1]
	if r.lits != nil || r.alts != nil {
		t.Fatalf("derived at compile: literals %q, %d alternatives", r.lits, len(r.alts))
	}
	if !r.MatchString("never tell") || r.alts == nil {
		t.Fatalf("after first use: match or alternatives missing (%d)", len(r.alts))
	}
}
