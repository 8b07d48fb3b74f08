package analyzer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text handling of the purpose analyzer (purpose.go). Matching reads a
// folded copy of each sentence; quotes are always byte ranges of the
// original segment, so folding never changes what the verifier checks.

// homoglyphs folds letters of other scripts that render like Latin letters
// (Cyrillic, Greek, and a few Latin look-alikes) onto the Latin letter, so
// "іgnore" written with a Cyrillic і matches "ignore". Only matching reads
// the folded text.
var homoglyphs = map[rune]rune{
	// Cyrillic
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c',
	'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ї': 'i', 'ј': 'j', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w',
	'һ': 'h', 'ӏ': 'l', 'ɡ': 'g',
	// Greek
	'α': 'a', 'β': 'b', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u',
	'χ': 'x', 'ω': 'w', 'ϲ': 'c', 'ϳ': 'j',
	// Latin look-alikes and typographic forms NFKC keeps
	'ı': 'i', 'ȷ': 'j', 'ℓ': 'l', '‘': '\'', '’': '\'', '‚': '\'', '‛': '\'', '′': '\'', '“': '"', '”': '"',
	'„': '"', '‟': '"', '″': '"', '‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '―': '-', '−': '-',
	'。': '.', '！': '!', '？': '?', '；': ';', '，': ',', '：': ':',
}

// invisible reports runes that render as nothing: zero-width characters,
// joiners, bidirectional controls, the soft hyphen and the BOM. They are
// dropped before matching, so "ig\u200bnore" reads as "ignore".
func invisible(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5, r == 0x180E:
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x206F:
		return true
	case r == 0xFEFF, r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// fold returns the matching form of s: NFKC, invisible runes removed,
// homoglyphs folded, lower case, every run of white space (and control
// characters) one space, trimmed. It is linear in len(s).
func fold(s string) string { return foldText(s, true) }

// foldText is fold's loop, shared with foldIntl: letters is whether
// homoglyph letters are folded to Latin (and an ESC kept, so an ANSI
// sequence stays visible to the rules); without it only the punctuation
// homoglyphs (U+2000 on) are folded and every control character is space.
func foldText(s string, letters bool) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, " ")
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		if invisible(r) {
			continue
		}
		if h, ok := homoglyphs[r]; ok && (letters || r >= 0x2000) {
			r = h
		}
		if unicode.IsSpace(r) || (unicode.IsControl(r) && (!letters || r != 0x1b)) {
			if !space {
				b.WriteByte(' ')
				space = true
			}
			continue
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return strings.TrimRight(b.String(), " ")
}

// purposeSentences splits a segment into sentence ranges [start, end) of
// the original bytes, trimmed of surrounding space and list markers.
// Boundaries are line breaks, a sentence end (. ! ? and their full-width
// forms followed by space or the end), and short markup tags such as
// <IMPORTANT>. It never splits inside a UTF-8 sequence.
func purposeSentences(s string) [][2]int {
	var out [][2]int
	start := 0
	emit := func(a, b int) {
		for a < b && strings.IndexByte(" \t\r\n-*•#>", s[a]) >= 0 {
			a++
		}
		for b > a && strings.IndexByte(" \t\r\n", s[b-1]) >= 0 {
			b--
		}
		if b > a {
			out = append(out, [2]int{a, b})
		}
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\n':
			emit(start, i)
			start = i + 1
		case c == '<':
			if j := strings.IndexByte(s[i:], '>'); j > 0 && j < 40 && !strings.ContainsAny(s[i+1:i+j], " \n<") {
				emit(start, i)
				start = i + j + 1
				i += j + 1
				continue
			}
		case c == '.' || c == '!' || c == '?':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' || s[i+1] == '\t' || s[i+1] == '\r' {
				emit(start, i+1)
				start = i + 1
			}
		case c >= 0x80:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == '。' || r == '！' || r == '？' || r == '।' || r == '؟' {
				emit(start, i+n)
				start = i + n
			}
			i += n
			continue
		}
		i++
	}
	emit(start, len(s))
	return out
}

// leet maps digits and signs written for letters ("1gn0re", "pa55word").
var leet = map[byte]byte{'0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', '$': 's', '!': 'i'}

// deobfuscate returns f (a folded sentence) with letters spaced apart
// joined ("i g n o r e" reads "ignore") and, in a word of at least three
// letters that also holds one or two digits or signs, those written back as
// letters ("s3cr3t" reads "secret"). Hex, version strings, addresses and
// identifiers with '_', '.', '/' or '-' are left alone. Linear in len(f).
func deobfuscate(f string) string {
	words := strings.Split(f, " ")
	var out []string
	changed := false
	for i := 0; i < len(words); {
		// A run of at least four one-letter words.
		j := i
		for j < len(words) && len(words[j]) == 1 && words[j][0] >= 'a' && words[j][0] <= 'z' {
			j++
		}
		if j-i >= 4 {
			out = append(out, strings.Join(words[i:j], ""))
			changed = true
			i = j
			continue
		}
		w := words[i]
		if lw := leetWord(w); lw != w {
			w = lw
			changed = true
		}
		out = append(out, w)
		i++
	}
	if !changed {
		return f
	}
	return strings.Join(out, " ")
}

func leetWord(w string) string {
	letters, subs := 0, 0
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case c >= 'a' && c <= 'z':
			letters++
		case leet[c] != 0:
			subs++
		case c == '_' || c == '.' || c == '/' || c == '-' || c == ':' || c >= 0x80 || (c >= '0' && c <= '9'):
			return w
		}
	}
	if letters < 3 || subs == 0 || subs > 3 || strings.HasPrefix(w, "0x") {
		return w
	}
	b := []byte(w)
	for k := range b {
		// A trailing sign is punctuation, not a letter.
		if l := leet[b[k]]; l != 0 && !(k == len(b)-1 && (b[k] == '!' || b[k] == '$')) {
			b[k] = l
		}
	}
	return string(b)
}
