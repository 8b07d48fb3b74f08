// Package literal owns the decoding of string-literal source bytes into the
// text a client receives, with a map from every decoded byte back to the
// source bytes it came from.
//
// The extractor records each literal segment of a description as a span of
// source bytes plus the encoding those bytes are written in; the verifier
// later matches a quote against the decoded text and maps it back to source
// bytes with Locate, so that an excerpt verifies byte for byte against the
// stored file even when the description contains escapes.
// Both sides must decode identically, which is why this is one package.
//
// It must not guess: bytes it cannot decode exactly as the language does
// (invalid UTF-8, malformed escapes, a lone surrogate, an unknown \N{name})
// are an error, and the caller records the text as unreadable with that
// reason. It knows nothing of syntax trees, files or surfaces.
package literal

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Encodings: the literal syntaxes whose content bytes Decode understands.
// The source bytes are always the content between the quotes, without any
// prefix (r, f, b) or the quotes themselves.
const (
	// JSString is a single- or double-quoted JavaScript/TypeScript string.
	JSString = "js_string"
	// JSTemplate is one literal segment of a JavaScript template literal.
	JSTemplate = "js_template"
	// PyString is a Python str literal body (any quote style, not raw).
	PyString = "py_string"
	// PyRaw is a Python raw string literal body (r"..." / r"""...""").
	PyRaw = "py_raw"
	// PyFString is one literal segment of a Python f-string: PyString plus
	// the doubled braces {{ and }}.
	PyFString = "py_fstring"
	// PyRawFString is one literal segment of a raw f-string (rf"...").
	PyRawFString = "py_raw_fstring"
	// JSON is the body of a JSON string.
	JSON = "json"
)

// Errors Decode wraps; classify with errors.Is.
var (
	ErrInvalidUTF8     = errors.New("literal: source is not valid UTF-8")
	ErrBadEscape       = errors.New("literal: malformed escape sequence")
	ErrLoneSurrogate   = errors.New("literal: lone UTF-16 surrogate")
	ErrUnknownName     = errors.New("literal: unknown \\N{} character name")
	ErrUnknownEncoding = errors.New("literal: unknown encoding")
	ErrControlChar     = errors.New("literal: unescaped control character")
)

// DecodeError says where in the source a decoding failed.
type DecodeError struct {
	Encoding string
	Offset   int
	Err      error
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("decode %s at source offset %d: %v", e.Encoding, e.Offset, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Decode returns the decoded UTF-8 text a client receives for the literal
// content src written in enc, and offs, with len(offs) == len(text)+1, where
// offs[i] is the source offset of the character or escape sequence that
// produced decoded byte i, and offs[len(text)] == len(src).
func Decode(enc string, src []byte) (text string, offs []int, err error) {
	text, offs, _, err = decode(enc, src)
	return text, offs, err
}

// Locate finds the first occurrence of quote in the decoded text of src and
// returns the source byte range [start, end) of src that produces it, always
// covering whole characters and escape sequences. ok is false when src does
// not decode, quote is empty, or quote does not occur.
func Locate(enc string, src []byte, quote string) (start, end int, ok bool) {
	if quote == "" {
		return 0, 0, false
	}
	text, offs, ends, err := decode(enc, src)
	if err != nil {
		return 0, 0, false
	}
	i := strings.Index(text, quote)
	if i < 0 {
		return 0, 0, false
	}
	return offs[i], ends[i+len(quote)-1], true
}

// decoder accumulates decoded bytes and, per byte, the source range of the
// unit (character or escape) that produced it.
type decoder struct {
	enc  string
	src  []byte
	out  []byte
	offs []int
	ends []int
}

func (d *decoder) emit(r rune, start, end int) {
	n := len(d.out)
	d.out = utf8.AppendRune(d.out, r)
	for i := n; i < len(d.out); i++ {
		d.offs = append(d.offs, start)
		d.ends = append(d.ends, end)
	}
}

func (d *decoder) fail(off int, err error) error {
	return &DecodeError{Encoding: d.enc, Offset: off, Err: err}
}

func decode(enc string, src []byte) (string, []int, []int, error) {
	d := &decoder{enc: enc, src: src, out: make([]byte, 0, len(src)), offs: make([]int, 0, len(src)+1), ends: make([]int, 0, len(src))}
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			r, n := utf8.DecodeRune(src[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return "", nil, nil, d.fail(off, ErrInvalidUTF8)
	}
	var err error
	switch enc {
	case JSString:
		err = d.js(false)
	case JSTemplate:
		err = d.js(true)
	case PyString:
		err = d.py(false, false)
	case PyRaw:
		err = d.py(true, false)
	case PyFString:
		err = d.py(false, true)
	case PyRawFString:
		err = d.py(true, true)
	case JSON:
		err = d.json()
	case JSNumber:
		err = d.number()
	case JSTemplateRaw:
		err = d.jsRaw()
	default:
		return "", nil, nil, fmt.Errorf("decode %q: %w", enc, ErrUnknownEncoding)
	}
	if err != nil {
		return "", nil, nil, err
	}
	d.offs = append(d.offs, len(src))
	return string(d.out), d.offs, d.ends, nil
}

// hexVal parses exactly the hex digits of b; ok is false on any other byte.
func hexVal(b []byte) (rune, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var v rune
	for _, c := range b {
		var x byte
		switch {
		case c >= '0' && c <= '9':
			x = c - '0'
		case c >= 'a' && c <= 'f':
			x = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			x = c - 'A' + 10
		default:
			return 0, false
		}
		v = v<<4 | rune(x)
		if v > 0x10FFFF {
			return 0, false
		}
	}
	return v, true
}

func isHighSurrogate(r rune) bool { return r >= 0xD800 && r <= 0xDBFF }
func isLowSurrogate(r rune) bool  { return r >= 0xDC00 && r <= 0xDFFF }

// lineTerminatorLen reports the length of a JS line terminator at src[i]
// (LF, CR, CRLF, U+2028, U+2029), or 0.
func lineTerminatorLen(src []byte, i int) int {
	switch {
	case src[i] == '\n':
		return 1
	case src[i] == '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	}
	r, n := utf8.DecodeRune(src[i:])
	if r == '\u2028' || r == '\u2029' {
		return n
	}
	return 0
}

// js decodes a JavaScript string (template=false) or template segment
// (template=true) the way the language computes its cooked value.
func (d *decoder) js(template bool) error {
	src := d.src
	i := 0
	for i < len(src) {
		c := src[i]
		if c == '\r' && template {
			// Templates normalise CRLF and lone CR to LF in their cooked value.
			n := 1
			if i+1 < len(src) && src[i+1] == '\n' {
				n = 2
			}
			d.emit('\n', i, i+n)
			i += n
			continue
		}
		if c != '\\' {
			r, n := utf8.DecodeRune(src[i:])
			d.emit(r, i, i+n)
			i += n
			continue
		}
		start := i
		if i+1 >= len(src) {
			return d.fail(i, ErrBadEscape)
		}
		e := src[i+1]
		if n := lineTerminatorLen(src, i+1); n > 0 {
			// Line continuation: contributes nothing to the value.
			i += 1 + n
			continue
		}
		switch e {
		case 'n':
			d.emit('\n', start, i+2)
			i += 2
		case 't':
			d.emit('\t', start, i+2)
			i += 2
		case 'r':
			d.emit('\r', start, i+2)
			i += 2
		case 'b':
			d.emit('\b', start, i+2)
			i += 2
		case 'f':
			d.emit('\f', start, i+2)
			i += 2
		case 'v':
			d.emit('\v', start, i+2)
			i += 2
		case 'x':
			if i+4 > len(src) {
				return d.fail(start, ErrBadEscape)
			}
			v, ok := hexVal(src[i+2 : i+4])
			if !ok {
				return d.fail(start, ErrBadEscape)
			}
			d.emit(v, start, i+4)
			i += 4
		case 'u':
			v, n, err := d.jsUnicode(i)
			if err != nil {
				return err
			}
			if isHighSurrogate(v) {
				// A high surrogate followed by a \u low surrogate is one character.
				if i+n+1 < len(src) && src[i+n] == '\\' && src[i+n+1] == 'u' {
					lo, m, err := d.jsUnicode(i + n)
					if err == nil && isLowSurrogate(lo) {
						d.emit((v-0xD800)<<10+(lo-0xDC00)+0x10000, start, i+n+m)
						i += n + m
						continue
					}
				}
				return d.fail(start, ErrLoneSurrogate)
			}
			if isLowSurrogate(v) {
				return d.fail(start, ErrLoneSurrogate)
			}
			d.emit(v, start, i+n)
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			next := byte(0)
			if i+2 < len(src) {
				next = src[i+2]
			}
			if e == '0' && !(next >= '0' && next <= '9') {
				d.emit(0, start, i+2)
				i += 2
				continue
			}
			if template {
				// Templates forbid legacy octal escapes.
				return d.fail(start, ErrBadEscape)
			}
			// Legacy octal (sloppy-mode scripts, which CommonJS files are):
			// ZeroToThree OctalDigit OctalDigit, or up to two digits otherwise.
			maxDigits := 2
			if e <= '3' {
				maxDigits = 3
			}
			j := i + 1
			var v rune
			for j < len(src) && j < i+1+maxDigits && src[j] >= '0' && src[j] <= '7' {
				v = v*8 + rune(src[j]-'0')
				j++
			}
			d.emit(v, start, j)
			i = j
		case '8', '9':
			if template {
				return d.fail(start, ErrBadEscape)
			}
			d.emit(rune(e), start, i+2)
			i += 2
		default:
			// Any other escaped character stands for itself (\' \" \\ \` \$ \{ ...).
			r, n := utf8.DecodeRune(src[i+1:])
			d.emit(r, start, i+1+n)
			i += 1 + n
		}
	}
	return nil
}

// jsUnicode reads \uHHHH or \u{H...} at src[i] and returns the value and the
// escape's length.
func (d *decoder) jsUnicode(i int) (rune, int, error) {
	src := d.src
	if i+2 < len(src) && src[i+2] == '{' {
		j := i + 3
		for j < len(src) && src[j] != '}' {
			j++
		}
		if j >= len(src) || j == i+3 {
			return 0, 0, d.fail(i, ErrBadEscape)
		}
		v, ok := hexVal(src[i+3 : j])
		if !ok {
			return 0, 0, d.fail(i, ErrBadEscape)
		}
		return v, j + 1 - i, nil
	}
	if i+6 > len(src) {
		return 0, 0, d.fail(i, ErrBadEscape)
	}
	v, ok := hexVal(src[i+2 : i+6])
	if !ok {
		return 0, 0, d.fail(i, ErrBadEscape)
	}
	return v, 6, nil
}

// py decodes a Python string body. Python's tokenizer reads source with
// universal newlines, so CRLF and lone CR become LF in every literal, raw or
// not.
func (d *decoder) py(raw, fstring bool) error {
	src := d.src
	i := 0
	for i < len(src) {
		c := src[i]
		if c == '\r' {
			n := 1
			if i+1 < len(src) && src[i+1] == '\n' {
				n = 2
			}
			d.emit('\n', i, i+n)
			i += n
			continue
		}
		if fstring && (c == '{' || c == '}') && i+1 < len(src) && src[i+1] == c {
			d.emit(rune(c), i, i+2)
			i += 2
			continue
		}
		if c != '\\' || raw {
			if c == '\\' && raw && i+1 < len(src) && src[i+1] != '\r' {
				// In a raw string a backslash keeps the next character with it
				// (r"\"" is two characters); both stand for themselves.
				d.emit('\\', i, i+1)
				i++
				r, n := utf8.DecodeRune(src[i:])
				d.emit(r, i, i+n)
				i += n
				continue
			}
			r, n := utf8.DecodeRune(src[i:])
			d.emit(r, i, i+n)
			i += n
			continue
		}
		start := i
		if i+1 >= len(src) {
			return d.fail(i, ErrBadEscape)
		}
		e := src[i+1]
		switch e {
		case '\n':
			i += 2
		case '\r':
			i += 2
			if i < len(src) && src[i] == '\n' {
				i++
			}
		case '\\', '\'', '"':
			d.emit(rune(e), start, i+2)
			i += 2
		case 'a':
			d.emit('\a', start, i+2)
			i += 2
		case 'b':
			d.emit('\b', start, i+2)
			i += 2
		case 'f':
			d.emit('\f', start, i+2)
			i += 2
		case 'n':
			d.emit('\n', start, i+2)
			i += 2
		case 'r':
			d.emit('\r', start, i+2)
			i += 2
		case 't':
			d.emit('\t', start, i+2)
			i += 2
		case 'v':
			d.emit('\v', start, i+2)
			i += 2
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i + 1
			var v rune
			for j < len(src) && j < i+4 && src[j] >= '0' && src[j] <= '7' {
				v = v*8 + rune(src[j]-'0')
				j++
			}
			d.emit(v, start, j)
			i = j
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+2+n > len(src) {
				return d.fail(start, ErrBadEscape)
			}
			v, ok := hexVal(src[i+2 : i+2+n])
			if !ok {
				return d.fail(start, ErrBadEscape)
			}
			if isHighSurrogate(v) || isLowSurrogate(v) {
				// Python keeps lone surrogates in str, but they cannot be
				// sent as UTF-8; the client never receives them as written.
				return d.fail(start, ErrLoneSurrogate)
			}
			d.emit(v, start, i+2+n)
			i += 2 + n
		case 'N':
			if i+2 >= len(src) || src[i+2] != '{' {
				return d.fail(start, ErrBadEscape)
			}
			j := i + 3
			for j < len(src) && src[j] != '}' {
				j++
			}
			if j >= len(src) {
				return d.fail(start, ErrBadEscape)
			}
			r, ok := lookupName(string(src[i+3 : j]))
			if !ok {
				return d.fail(start, ErrUnknownName)
			}
			d.emit(r, start, j+1)
			i = j + 1
		default:
			// Python keeps an unrecognised escape as written, backslash included.
			d.emit('\\', start, i+1)
			i++
		}
	}
	return nil
}

// json decodes a JSON string body (RFC 8259).
func (d *decoder) json() error {
	src := d.src
	i := 0
	for i < len(src) {
		c := src[i]
		if c < 0x20 {
			return d.fail(i, ErrControlChar)
		}
		if c != '\\' {
			r, n := utf8.DecodeRune(src[i:])
			d.emit(r, i, i+n)
			i += n
			continue
		}
		start := i
		if i+1 >= len(src) {
			return d.fail(i, ErrBadEscape)
		}
		e := src[i+1]
		var r rune
		switch e {
		case '"', '\\', '/':
			r = rune(e)
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			if i+6 > len(src) {
				return d.fail(start, ErrBadEscape)
			}
			v, ok := hexVal(src[i+2 : i+6])
			if !ok {
				return d.fail(start, ErrBadEscape)
			}
			if isHighSurrogate(v) {
				if i+12 <= len(src) && src[i+6] == '\\' && src[i+7] == 'u' {
					lo, ok := hexVal(src[i+8 : i+12])
					if ok && isLowSurrogate(lo) {
						d.emit((v-0xD800)<<10+(lo-0xDC00)+0x10000, start, i+12)
						i += 12
						continue
					}
				}
				return d.fail(start, ErrLoneSurrogate)
			}
			if isLowSurrogate(v) {
				return d.fail(start, ErrLoneSurrogate)
			}
			d.emit(v, start, i+6)
			i += 6
			continue
		default:
			return d.fail(start, ErrBadEscape)
		}
		d.emit(r, start, i+2)
		i += 2
	}
	return nil
}
