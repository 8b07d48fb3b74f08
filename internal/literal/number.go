package literal

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// JSNumber is the source bytes of one JavaScript numeric literal (a decimal,
// hex, octal or binary literal, perhaps with `_` separators, or a BigInt
// literal ending in n) substituted into a template literal: its decoded text
// is what String(value) renders, exactly as ECMAScript's Number::toString
// (or BigInt::toString) does. When the rendering is the source bytes
// themselves (`5432`, `1.5`) each decoded byte maps to its own source byte;
// otherwise (`1e3` renders "1000", `0x10` renders "16") every decoded byte is
// produced by the whole literal, so a quote covers it whole or not at all.
const JSNumber = "js_number"

// ErrNotNumber wraps a numeric literal Decode will not render: not a
// JavaScript numeric literal, a legacy octal or leading-zero literal (whose
// value depends on strict mode), or an integer literal too large to convert
// without rounding questions.
var ErrNotNumber = errors.New("literal: not a numeric literal rendered exactly")

// RenderJSNumber returns String(n) for the numeric literal src, or ok false
// when src is not a literal this package renders exactly.
func RenderJSNumber(src []byte) (string, bool) {
	s := string(src)
	if s == "" {
		return "", false
	}
	if strings.HasSuffix(s, "n") {
		return renderBigInt(s[:len(s)-1])
	}
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			return renderRadix(s[2:], 16)
		case 'o', 'O':
			return renderRadix(s[2:], 8)
		case 'b', 'B':
			return renderRadix(s[2:], 2)
		case '.', 'e', 'E':
		default:
			// 017, 08, 0_1: legacy forms whose meaning depends on the
			// mode, or syntax errors.
			return "", false
		}
	}
	digits, ok := decimalLiteral(s)
	if !ok {
		return "", false
	}
	f, err := strconv.ParseFloat(digits, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return "", false
	}
	return formatJSNumber(f), true
}

// decimalLiteral checks the grammar of a DecimalLiteral (digits [. digits]
// [exponent], or . digits [exponent], separators only between digits) and
// returns it without separators.
func decimalLiteral(s string) (string, bool) {
	var b strings.Builder
	i := 0
	run := func() int {
		n := 0
		for i < len(s) {
			c := s[i]
			if c >= '0' && c <= '9' {
				b.WriteByte(c)
				n++
				i++
				continue
			}
			if c == '_' && n > 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
				i++
				continue
			}
			break
		}
		return n
	}
	intDigits := run()
	fracDigits := 0
	if i < len(s) && s[i] == '.' {
		b.WriteByte('.')
		i++
		fracDigits = run()
	}
	if intDigits == 0 && fracDigits == 0 {
		return "", false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		b.WriteByte('e')
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			b.WriteByte(s[i])
			i++
		}
		if run() == 0 {
			return "", false
		}
	}
	if i != len(s) {
		return "", false
	}
	return b.String(), true
}

// digitsOf strips separators from the digits of a radix literal, checking
// each digit and that separators sit only between digits.
func digitsOf(s string, base int) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' {
			if i == 0 || i == len(s)-1 || s[i-1] == '_' || s[i+1] == '_' {
				return "", false
			}
			continue
		}
		d, err := strconv.ParseUint(string(c), base, 8)
		if err != nil || int(d) >= base {
			return "", false
		}
		b.WriteByte(c)
	}
	if b.Len() == 0 {
		return "", false
	}
	return b.String(), true
}

// renderRadix renders a hex, octal or binary integer literal: exact up to
// 2^53, where every integer is a double; beyond that it is left unread.
func renderRadix(s string, base int) (string, bool) {
	d, ok := digitsOf(s, base)
	if !ok {
		return "", false
	}
	u, err := strconv.ParseUint(d, base, 64)
	if err != nil || u > 1<<53 {
		return "", false
	}
	return strconv.FormatUint(u, 10), true
}

// renderBigInt renders a BigInt literal (123n, 0x1fn): its decimal digits.
func renderBigInt(s string) (string, bool) {
	base := 10
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		default:
			return "", false // 012n is a syntax error
		}
		s = s[2:]
	}
	d, ok := digitsOf(s, base)
	if !ok || len(d) > 4096 {
		return "", false
	}
	v, ok := new(big.Int).SetString(d, base)
	if !ok {
		return "", false
	}
	return v.String(), true
}

// formatJSNumber is ECMAScript's Number::toString(x) for radix 10. Go's
// shortest round-trip digits are the digits s of the specification (k as
// small as possible, the closest to x when several are).
func formatJSNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return "NaN"
	case x == 0:
		return "0"
	case math.IsInf(x, 1):
		return "Infinity"
	case math.IsInf(x, -1):
		return "-Infinity"
	case x < 0:
		return "-" + formatJSNumber(-x)
	}
	e := strconv.FormatFloat(x, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	p, _ := strconv.Atoi(exp)
	k, n := len(digits), p+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	ex := strconv.Itoa(abs(n - 1))
	if k == 1 {
		return digits + "e" + sign + ex
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + ex
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// number decodes a JSNumber literal into the decoder.
func (d *decoder) number() error {
	text, ok := RenderJSNumber(d.src)
	if !ok {
		return d.fail(0, ErrNotNumber)
	}
	if text == string(d.src) {
		for i := 0; i < len(text); i++ {
			d.out = append(d.out, text[i])
			d.offs = append(d.offs, i)
			d.ends = append(d.ends, i+1)
		}
		return nil
	}
	for i := 0; i < len(text); i++ {
		d.out = append(d.out, text[i])
		d.offs = append(d.offs, 0)
		d.ends = append(d.ends, len(d.src))
	}
	return nil
}
