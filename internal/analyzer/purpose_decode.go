package analyzer

import (
	"encoding/base64"
	"encoding/hex"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The ninth reading's decoding (offline-purpose-8, docs/model-check.md,
// "dec: obfuscated text decoded before it is read"): an instruction hidden
// by an encoding or an obfuscation is read as the plain instruction would
// be. Each decoder turns one sentence of the original bytes into a plain
// text (base64 and base64url runs, hex runs, percent-encoding, \uXXXX and
// \xXX escapes, HTML entities, ROT13, letters split by separators,
// look-alike letters inside Latin words, leetspeak); the plain text is cut
// into sentences and each is read by the same sentence reading, with the
// entry's purpose, and what it finds is the original sentence's finding.
// The quote stays the original sentence, which holds the whole encoded run,
// so it is an exact substring of the segment as before. Nothing is found
// for being encoded: a text that decodes to something benign, or to
// nothing readable, gives nothing.
//
// Bounds: a sentence longer than decodeMaxInput is not decoded; a decoder's
// output is never longer than its input (one that would be is dropped); a
// decoded text is decoded again at most decodeMaxDepth-1 times; a sentence
// gives at most decodeMaxTexts decoded texts and each decoder replaces at
// most decodeMaxRuns runs. No recursion: the depth is a loop.

const (
	decodeMaxInput = 8 << 10
	decodeMaxDepth = 2
	decodeMaxTexts = 8
	decodeMaxRuns  = 16
	decodeMinRun   = 16
)

// readDecoded reads every decoded form of the sentence orig (f its fold)
// and keeps every category a reading finds; it also reads terminal erase
// sequences in the sentence itself (readHiddenEscape).
func (p entryPurpose) readDecoded(sr *sentenceReading, orig, f string, first bool) {
	if readHiddenEscape(f) {
		sr.conceal = true
	}
	if len(orig) > decodeMaxInput {
		return
	}
	for _, d := range decodeHidden(orig) {
		for k, r := range purposeSentences(d) {
			s := d[r[0]:r[1]]
			g := fold(s)
			if g == f {
				continue
			}
			one := first && k == 0
			sr.or(p.readSentence(g, s, one))
			if dd := deobfuscate(g); dd != g {
				sr.or(p.readSentence(dd, s, one))
			}
			if readHiddenEscape(g) {
				sr.conceal = true
			}
		}
	}
}

// decoders in the order they are tried on each text.
var decoders = []func(string) (string, bool){
	decodeBase64Runs, decodeHexRuns, decodePercent, decodeEscapes, decodeEntities,
	decodeROT13, decodeSeparated, decodeMixedScript, decodeLeet, decodeTagChars, decodeSelectorBytes,
}

// decodeHidden returns the decoded forms of s, breadth first to
// decodeMaxDepth, each distinct, none longer than s, at most
// decodeMaxTexts of them.
func decodeHidden(s string) []string {
	if len(s) > decodeMaxInput || !utf8.ValidString(s) {
		return nil
	}
	var out []string
	seen := map[string]bool{s: true}
	level := []string{s}
	for depth := 0; depth < decodeMaxDepth && len(level) > 0; depth++ {
		var next []string
		for _, t := range level {
			for _, dec := range decoders {
				d, ok := dec(t)
				if !ok || len(d) > len(t) || seen[d] || !utf8.ValidString(d) {
					continue
				}
				seen[d] = true
				out = append(out, d)
				if len(out) >= decodeMaxTexts {
					return out
				}
				next = append(next, d)
			}
		}
		level = next
	}
	return out
}

// plainText reports whether a decoded run reads as text: valid UTF-8, no
// control character but tab and line breaks, at least one space, and
// letters and spaces for at least 70% of its runes. Binary that happens
// to decode (a hash, a key, an identifier) is not.
func plainText(s string) bool {
	if !utf8.ValidString(s) || !strings.Contains(s, " ") {
		return false
	}
	n, good := 0, 0
	for _, r := range s {
		n++
		switch {
		case r == '\n' || r == '\t' || r == '\r' || r == ' ':
			good++
		case unicode.IsControl(r) || r == utf8.RuneError || !unicode.IsPrint(r):
			return false
		case unicode.IsLetter(r):
			good++
		}
	}
	return n >= 8 && good*10 >= n*7
}

// replaceRuns replaces at most decodeMaxRuns runs [a, b) that scan finds
// in s by what conv makes of them (when it succeeds).
func replaceRuns(s string, scan func(string, int) (int, int), conv func(string) (string, bool)) (string, bool) {
	var b strings.Builder
	last, changed, runs := 0, false, 0
	for i := 0; i < len(s) && runs < decodeMaxRuns; {
		a, e := scan(s, i)
		if a < 0 {
			break
		}
		runs++
		if d, ok := conv(s[a:e]); ok {
			b.WriteString(s[last:a])
			b.WriteString(d)
			last = e
			changed = true
		}
		i = e
	}
	if !changed {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

func isB64(c byte, url bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	case url:
		return c == '-' || c == '_'
	default:
		return c == '+' || c == '/'
	}
}

// scanClass finds the next run of at least min bytes of class from i (and
// its padding '=' when pad), returning -1 when there is none.
func scanClass(s string, i, min int, class func(byte) bool, pad bool) (int, int) {
	for i < len(s) {
		for i < len(s) && !class(s[i]) {
			i++
		}
		a := i
		for i < len(s) && class(s[i]) {
			i++
		}
		if i-a >= min {
			if pad {
				for k := 0; k < 2 && i < len(s) && s[i] == '='; k++ {
					i++
				}
			}
			return a, i
		}
	}
	return -1, -1
}

// decodeBase64Runs: runs of at least decodeMinRun characters of the
// standard or the URL-safe alphabet that decode to plain text.
func decodeBase64Runs(s string) (string, bool) {
	for _, url := range []bool{false, true} {
		class := func(c byte) bool { return isB64(c, url) }
		d, ok := replaceRuns(s, func(t string, i int) (int, int) { return scanClass(t, i, decodeMinRun, class, true) }, func(run string) (string, bool) {
			raw := strings.TrimRight(run, "=")
			encs := []*base64.Encoding{base64.RawStdEncoding}
			if url {
				encs = []*base64.Encoding{base64.RawURLEncoding}
			}
			for _, enc := range encs {
				if b, err := enc.DecodeString(raw); err == nil && plainText(string(b)) {
					// The decoded message is read as its own text.
					return "\n" + string(b) + "\n", true
				}
			}
			return "", false
		})
		if ok {
			// One alphabet per pass: the other would read into what this
			// one decoded, a level deeper than the depth bound counts.
			return d, true
		}
	}
	return s, false
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeHexRuns: runs of at least decodeMinRun hex digits (an even
// number), or of at least eight pairs each separated by one space or
// colon, bounded by non-word characters, that decode to plain text.
func decodeHexRuns(s string) (string, bool) {
	if !hasHexRun(s) {
		return s, false
	}
	return replaceRuns(s, func(t string, i int) (int, int) {
		if loc := reHexRun.FindStringIndex(t[i:]); loc != nil {
			return i + loc[0], i + loc[1]
		}
		return -1, -1
	}, func(run string) (string, bool) {
		digits := strings.NewReplacer(" ", "", ":", "").Replace(run)
		if len(digits)%2 != 0 {
			return "", false
		}
		b, err := hex.DecodeString(digits)
		if err != nil || !plainText(string(b)) {
			return "", false
		}
		return "\n" + string(b) + "\n", true
	})
}

var reHexRun = regexp.MustCompile(`\b(?:[0-9a-fA-F]{2}){8,}\b|\b[0-9a-fA-F]{2}(?:[ :][0-9a-fA-F]{2}){7,}\b`)

// hasHexRun is a cheap test: some decodeMinRun hex digits in a row, or
// eight pairs with a separator between them.
func hasHexRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case isHex(s[i]):
			n++
			if n >= decodeMinRun {
				return true
			}
		case (s[i] == ' ' || s[i] == ':') && n > 0:
		default:
			n = 0
		}
	}
	return false
}

// decodePercent: a word holding at least two %XX escapes, unescaped ('+'
// as a space) when the result is text.
func decodePercent(s string) (string, bool) {
	if strings.Count(s, "%") < 2 {
		return s, false
	}
	return replaceRuns(s, func(t string, i int) (int, int) {
		for i < len(t) {
			for i < len(t) && (t[i] == ' ' || t[i] == '\n' || t[i] == '\t') {
				i++
			}
			a := i
			for i < len(t) && t[i] != ' ' && t[i] != '\n' && t[i] != '\t' {
				i++
			}
			if n := pctCount(t[a:i]); n >= 2 {
				return a, i
			}
		}
		return -1, -1
	}, func(run string) (string, bool) {
		d, err := url.QueryUnescape(run)
		if err != nil || !utf8.ValidString(d) || !plainText(d) {
			return "", false
		}
		return "\n" + d + "\n", true
	})
}

func pctCount(w string) int {
	n := 0
	for i := 0; i+2 < len(w); i++ {
		if w[i] == '%' && isHex(w[i+1]) && isHex(w[i+2]) {
			n++
		}
	}
	return n
}

var reEscape = regexp.MustCompile(`\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|U[0-9a-fA-F]{8}|0?33|e\[)`)

// decodeEscapes: \uXXXX, \UXXXXXXXX, \xXX, \033 and \e written out as
// text. A decoded rune that is not a valid scalar value is left as written.
func decodeEscapes(s string) (string, bool) {
	if !strings.Contains(s, `\`) {
		return s, false
	}
	changed := false
	n := 0
	out := reEscape.ReplaceAllStringFunc(s, func(m string) string {
		n++
		if n > 4*decodeMaxRuns {
			return m
		}
		var r rune
		switch m[1] {
		case 'e':
			changed = true
			return "\x1b["
		case '0', '3':
			r = 0x1b
		default:
			v, err := strconv.ParseUint(m[2:], 16, 32)
			if err != nil {
				return m
			}
			r = rune(v)
		}
		if !utf8.ValidRune(r) || (r >= 0x80 && m[1] == 'x') {
			return m
		}
		changed = true
		return string(r)
	})
	return out, changed
}

var reEntity = regexp.MustCompile(`&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});`)

// decodeEntities: named and numeric HTML character references.
func decodeEntities(s string) (string, bool) {
	if !strings.Contains(s, "&") || !reEntity.MatchString(s) {
		return s, false
	}
	d := html.UnescapeString(s)
	return d, d != s
}

var reROT13Mark = regexp.MustCompile(`(?i)\brot-?13\b\W{0,3}`)

// decodeROT13: the text after a "rot13" mark, or a whole sentence whose
// ROT13 form reads as English and whose written form does not (dictShare).
func decodeROT13(s string) (string, bool) {
	if loc := reROT13Mark.FindStringIndex(s); loc != nil {
		return s[:loc[1]] + rot13(s[loc[1]:]), true
	}
	if !asciiLetters(s) {
		return s, false
	}
	// The written form is read first: a sentence that already reads as
	// English (the common case) is not rotated.
	words, known := dictShare(s)
	if words < 3 || known*10 > words*3 {
		return s, false
	}
	r := rot13(s)
	if _, rknown := dictShare(r); rknown*10 >= words*6 {
		return r, true
	}
	return s, false
}

func asciiLetters(s string) bool {
	letters := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
		if s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z' {
			letters++
		}
	}
	return letters >= 8
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// dictShare counts the words of s (letters, two or more) and those in the
// English word list: every word of the analyzer's own expressions
// (purposeRegexps) and the function words below.
func dictShare(s string) (words, known int) {
	d := englishWords()
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if len(w) < 2 {
			continue
		}
		words++
		if d[w] {
			known++
		}
	}
	return words, known
}

var (
	englishOnce sync.Once
	englishSet  map[string]bool
	reEscWord   = regexp.MustCompile(`\\[a-zA-Z]`)
)

const functionWords = "a an the to of and or in on at by for from with as is are was be been it its this that these those you your yours we our they them their he she his her i me my not no do does did don't if when then so but all any each every some what which who whom whose how why where there here into onto over under about after before again also only just than too very can could should would must may might will shall has have had such own same other another user users tool tools file files data message messages send tell show keep read write use call"

// englishWords is built once, from the lexicon the analyzer already has:
// the words of every rule expression, and the commonest function words.
func englishWords() map[string]bool {
	englishOnce.Do(func() {
		englishSet = map[string]bool{}
		for _, w := range strings.Fields(functionWords) {
			englishSet[w] = true
		}
		for _, r := range purposeRegexps {
			src := reEscWord.ReplaceAllString(r.String(), " ")
			for _, w := range strings.FieldsFunc(src, func(r rune) bool { return r < 'a' || r > 'z' }) {
				if len(w) >= 2 {
					englishSet[w] = true
				}
			}
		}
	})
	return englishSet
}

// decodeSeparated joins letters split apart: by dots, hyphens,
// underscores, stars or middle dots inside a word ("s.e.n.d", "D.o
// n.o.t"), or by single spaces with wider gaps between words ("D o  n o
// t"). Only runs of at least four single letters are joined.
func decodeSeparated(s string) (string, bool) {
	d1, ok1 := joinPunctSeparated(s)
	d2, ok2 := joinSpaceSeparated(d1)
	return d2, ok1 || ok2
}

var reSepToken = regexp.MustCompile(`^[A-Za-z](?:([.*_·-])[A-Za-z])+[.*_·-]?$`)

func joinPunctSeparated(s string) (string, bool) {
	if !strings.ContainsAny(s, ".*_-·") {
		return s, false
	}
	toks := strings.Split(s, " ")
	letters := make([]int, len(toks))
	for i, t := range toks {
		core := strings.TrimRight(strings.TrimLeft(t, "`'\"(["), "`'\",;:!?)]")
		if len(core) <= 64 && reSepToken.MatchString(core) {
			for _, r := range core {
				if r < 0x80 && unicode.IsLetter(r) {
					letters[i]++
				}
			}
		}
	}
	changed := false
	for i := 0; i < len(toks); {
		j, n := i, 0
		for j < len(toks) && letters[j] > 0 {
			n += letters[j]
			j++
		}
		if j == i {
			i++
			continue
		}
		if n >= 4 {
			for k := i; k < j; k++ {
				toks[k] = joinLetters(toks[k])
			}
			changed = true
		}
		i = j
	}
	if !changed {
		return s, false
	}
	return strings.Join(toks, " "), true
}

// joinLetters drops the separators between single letters of one token,
// keeping its leading and trailing punctuation (a final dot stays a
// sentence end).
func joinLetters(t string) string {
	var b strings.Builder
	rs := []rune(t)
	for i, r := range rs {
		if (r == '.' || r == '*' || r == '_' || r == '-' || r == '·') && i > 0 && i+1 < len(rs) && unicode.IsLetter(rs[i-1]) && unicode.IsLetter(rs[i+1]) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func joinSpaceSeparated(s string) (string, bool) {
	if !strings.Contains(s, "  ") {
		return s, false
	}
	groups := strings.Split(s, "  ")
	single := 0
	for i, g := range groups {
		ws := strings.Split(strings.TrimSpace(g), " ")
		// Each run of two or more one-letter words in a group is one word.
		var out []string
		for a := 0; a < len(ws); {
			b := a
			for b < len(ws) && letterCount(ws[b]) == 1 && len(ws[b]) <= 8 {
				b++
			}
			if b-a >= 2 {
				out = append(out, strings.Join(ws[a:b], ""))
				single += b - a
				a = b
				continue
			}
			out = append(out, ws[a])
			a++
		}
		groups[i] = strings.Join(out, " ")
	}
	if single < 4 {
		return s, false
	}
	out := make([]string, 0, len(groups))
	for _, g := range groups {
		if g != "" {
			out = append(out, g)
		}
	}
	return strings.Join(out, " "), true
}

func letterCount(w string) int {
	n := 0
	for _, r := range w {
		if unicode.IsLetter(r) {
			n++
		} else if unicode.IsDigit(r) {
			return 0
		}
	}
	return n
}

// decodeMixedScript folds Cyrillic and Greek look-alikes to Latin inside
// words that mix them with Latin letters ("Іgnore"), capitals included.
// A word written wholly in Cyrillic or Greek is left as it is: it is a
// word of its language (purpose_intl.go reads it so).
func decodeMixedScript(s string) (string, bool) {
	if !hasNonASCII(s) {
		return s, false
	}
	var b strings.Builder
	changed := false
	word := make([]rune, 0, 32)
	flush := func() {
		latin, other := false, false
		for _, r := range word {
			if r < 0x80 {
				latin = true
			} else if unicode.In(r, unicode.Cyrillic, unicode.Greek) {
				other = true
			}
		}
		for _, r := range word {
			if latin && other && r >= 0x80 {
				if h, ok := homoglyphs[unicode.ToLower(r)]; ok && h < 0x80 {
					if unicode.IsUpper(r) {
						h = unicode.ToUpper(h)
					}
					b.WriteRune(h)
					changed = true
					continue
				}
			}
			b.WriteRune(r)
		}
		word = word[:0]
	}
	for _, r := range s {
		if unicode.IsLetter(r) && len(word) < 64 {
			word = append(word, r)
			continue
		}
		flush()
		b.WriteRune(r)
	}
	flush()
	if !changed {
		return s, false
	}
	return b.String(), true
}

// decodeLeet reads a sentence written mostly in digits and signs for
// letters ("d0n7 73ll 7h3 u53r"): at least three words mixing letters
// with them, two in five of its words, and the written-back form must read
// as English where the written one does not (dictShare).
func decodeLeet(s string) (string, bool) {
	ws := strings.Fields(s)
	if len(ws) < 3 {
		return s, false
	}
	mixed := 0
	for _, w := range ws {
		l, d := 0, 0
		for i := 0; i < len(w); i++ {
			c := w[i]
			switch {
			case c|0x20 >= 'a' && c|0x20 <= 'z':
				l++
			case leet[c] != 0:
				d++
			}
		}
		if l > 0 && d > 0 {
			mixed++
		}
	}
	if mixed < 3 || mixed*5 < len(ws)*2 {
		return s, false
	}
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		l := leet[c]
		if l == 0 {
			continue
		}
		// A sign at a word's end is punctuation; a digit between digits
		// of a number longer than a word is a number.
		end := i+1 == len(b) || b[i+1] == ' ' || b[i+1] == '.' || b[i+1] == ','
		if (c == '!' || c == '$') && end {
			continue
		}
		b[i] = l
	}
	d := string(b)
	words, known := dictShare(s)
	_, dknown := dictShare(d)
	if words == 0 || dknown*2 < words || dknown <= known {
		return s, false
	}
	return d, true
}

// pxEraseEscape: a terminal sequence that erases what the user would see
// (clear the screen, erase the line, move up and overwrite), as the folded
// sentence keeps it (ESC kept, lower case); pxEmitVerb: the model told to
// write it out.
var (
	pxEraseEscape = px("\x1b\\[[0-3]?[jk]|\x1b\\[[0-9]*a\x1b\\[[0-3]?k|\x1bc")
	pxEmitVerb    = px(`(^|[,;:] |\bthen |\band |\balways |\bfirst )(prefix|prepend|print|emit|output|write|append|insert|add|start|begin|end|follow|wrap|send)\b`)
)

// readHiddenEscape: an instruction to write an erase sequence is
// concealment (what it erases is what the user would have seen).
func readHiddenEscape(f string) bool {
	return strings.IndexByte(f, 0x1b) >= 0 && pxEraseEscape.MatchString(f) && pxEmitVerb.MatchString(f)
}

// decodeTagChars: text written in Unicode tag characters (U+E0020 to
// U+E007E, each an ASCII character that renders as nothing, which fold
// drops as invisible) is read as the ASCII it spells, on its own line.
// A short run (a flag's subdivision tag, "gbeng") spells no plain text.
func decodeTagChars(s string) (string, bool) {
	if !strings.Contains(s, "\xf3\xa0\x80") && !strings.Contains(s, "\xf3\xa0\x81") {
		return s, false
	}
	return replaceRuneRuns(s, func(r rune) bool { return r >= 0xE0020 && r <= 0xE007E }, func(rs []rune) []byte {
		b := make([]byte, len(rs))
		for i, r := range rs {
			b[i] = byte(r - 0xE0000)
		}
		return b
	})
}

// decodeSelectorBytes: bytes hidden in variation selectors (VS1 to VS16
// for 0 to 15, VS17 to VS256 for 16 to 255), eight or more in a row, read
// when they spell plain text.
func decodeSelectorBytes(s string) (string, bool) {
	if !strings.Contains(s, "\xef\xb8") && !strings.Contains(s, "\xf3\xa0\x84") && !strings.Contains(s, "\xf3\xa0\x85") && !strings.Contains(s, "\xf3\xa0\x86") && !strings.Contains(s, "\xf3\xa0\x87") {
		return s, false
	}
	return replaceRuneRuns(s, func(r rune) bool { return r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF }, func(rs []rune) []byte {
		b := make([]byte, len(rs))
		for i, r := range rs {
			if r <= 0xFE0F {
				b[i] = byte(r - 0xFE00)
			} else {
				b[i] = byte(r - 0xE0100 + 16)
			}
		}
		return b
	})
}

// replaceRuneRuns replaces each run of at least eight runes of class (at
// most decodeMaxRuns runs) by what conv makes of it, on its own line, when
// that is plain text.
func replaceRuneRuns(s string, class func(rune) bool, conv func([]rune) []byte) (string, bool) {
	var b strings.Builder
	var run []rune
	changed, runs := false, 0
	runStart := 0
	flush := func(end int) {
		if len(run) >= 8 && runs < decodeMaxRuns {
			runs++
			if d := conv(run); plainText(string(d)) {
				b.WriteByte('\n')
				b.Write(d)
				b.WriteByte('\n')
				changed = true
				run = run[:0]
				return
			}
		}
		b.WriteString(s[runStart:end])
		run = run[:0]
	}
	for i, r := range s {
		if class(r) {
			if len(run) == 0 {
				runStart = i
			}
			run = append(run, r)
			continue
		}
		if len(run) > 0 {
			flush(i)
		}
		b.WriteRune(r)
	}
	if len(run) > 0 {
		flush(len(s))
	}
	if !changed {
		return s, false
	}
	return b.String(), true
}
