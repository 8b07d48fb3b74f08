package literal

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	cases := []struct {
		enc, src, want string
	}{
		{JSString, `plain text`, "plain text"},
		{JSString, `a\nb\tc\rd\be\ff\vg`, "a\nb\tc\rd\be\ff\vg"},
		{JSString, `nul\0end`, "nul\x00end"},
		{JSString, `\x41\x42`, "AB"},
		{JSString, `caf\u00e9`, "café"},
		{JSString, `\u{1F600}!`, "😀!"},
		{JSString, `\uD83D\uDE00`, "😀"},
		{JSString, `don\'t \"x\" \\ \q`, `don't "x" \ q`},
		{JSString, "line\\\ncontinued", "linecontinued"},
		{JSString, "line\\\r\ncontinued", "linecontinued"},
		{JSString, "a\\\u2028b", "ab"},
		{JSString, `\101\7\08`, "A\x07\x008"},
		{JSString, `\8\9`, "89"},
		{JSString, `日本 é`, "日本 é"},
		{JSTemplate, "a\\`b\\${c}\\{", "a`b${c}{"},
		{JSTemplate, "one\r\ntwo\rthree", "one\ntwo\nthree"},
		{JSTemplate, "x\\\ny", "xy"},
		{JSTemplate, `\0`, "\x00"},
		{JSTemplateRaw, "a\\`b\\${c}\\n\\u00e9\\q", "a\\`b\\${c}\\n\\u00e9\\q"},
		{JSTemplateRaw, "one\r\ntwo\rthree\u2028four", "one\ntwo\nthree\u2028four"},
		{JSTemplateRaw, "x\\\ny", "x\\\ny"},
		{PyString, `a\nb\tc`, "a\nb\tc"},
		{PyString, `\q\d`, `\q\d`},
		{PyString, `\101\0\777`, "A\x00\u01ff"},
		{PyString, `\x41\u00e9\U0001F600`, "Aé😀"},
		{PyString, `\N{EURO SIGN}\N{latin small letter e with acute}`, "€é"},
		{PyString, `\N{CJK UNIFIED IDEOGRAPH-4E00}`, "一"},
		{PyString, "a\\\nb", "ab"},
		{PyString, "a\r\nb\rc", "a\nb\nc"},
		{PyString, `it\'s \"q\" \\`, `it's "q" \`},
		{PyString, `\a\b\f\v`, "\a\b\f\v"},
		{PyRaw, `\n\d\"`, `\n\d\"`},
		{PyRaw, "a\r\nb", "a\nb"},
		{PyFString, `{{x}} \n`, "{x} \n"},
		{PyRawFString, `{{\n}}`, `{\n}`},
		{JSON, `a\"b\\c\/d\n\u00e9\ud83d\ude00`, "a\"b\\c/d\né😀"},
		{JSString, ``, ""},
	}
	for _, c := range cases {
		got, offs, err := Decode(c.enc, []byte(c.src))
		if err != nil {
			t.Errorf("Decode(%s, %q): %v", c.enc, c.src, err)
			continue
		}
		if got != c.want {
			t.Errorf("Decode(%s, %q) = %q, want %q", c.enc, c.src, got, c.want)
		}
		checkOffs(t, c.enc, []byte(c.src), got, offs)
	}
}

func checkOffs(t *testing.T, enc string, src []byte, text string, offs []int) {
	t.Helper()
	if len(offs) != len(text)+1 {
		t.Fatalf("%s %q: len(offs)=%d, want %d", enc, src, len(offs), len(text)+1)
	}
	if offs[len(text)] != len(src) {
		t.Fatalf("%s %q: last offset %d, want %d", enc, src, offs[len(text)], len(src))
	}
	for i := 1; i < len(offs); i++ {
		if offs[i] < offs[i-1] {
			t.Fatalf("%s %q: offsets not monotonic at %d: %v", enc, src, i, offs)
		}
	}
	for i, o := range offs[:len(text)] {
		if o < 0 || o >= len(src) {
			t.Fatalf("%s %q: offset %d of byte %d out of range", enc, src, o, i)
		}
	}
}

func TestDecodeOffsets(t *testing.T) {
	// Every byte of a multi-byte character points at the start of the escape
	// that produced it.
	_, offs, err := Decode(JSString, []byte(`a\u00e9b`))
	if err != nil {
		t.Fatal(err)
	}
	want := []int{0, 1, 1, 7, 8}
	if len(offs) != len(want) {
		t.Fatalf("offs = %v, want %v", offs, want)
	}
	for i := range want {
		if offs[i] != want[i] {
			t.Fatalf("offs = %v, want %v", offs, want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		enc, src string
		want     error
	}{
		{JSString, "bad \xff byte", ErrInvalidUTF8},
		{JSTemplateRaw, "raw \xff byte", ErrInvalidUTF8},
		{JSString, `\x4`, ErrBadEscape},
		{JSString, `\u12`, ErrBadEscape},
		{JSString, `\u{}`, ErrBadEscape},
		{JSString, `\u{110000}`, ErrBadEscape},
		{JSString, `\uD800x`, ErrLoneSurrogate},
		{JSString, `\uDC00`, ErrLoneSurrogate},
		{JSString, `trailing\`, ErrBadEscape},
		{JSTemplate, `\1`, ErrBadEscape},
		{JSTemplate, `\01`, ErrBadEscape},
		{PyString, `\N{NO SUCH CHARACTER NAME}`, ErrUnknownName},
		{PyString, `\N{EURO SIGN`, ErrBadEscape},
		{PyString, `\xZZ`, ErrBadEscape},
		{PyString, `\ud800`, ErrLoneSurrogate},
		{JSON, `\q`, ErrBadEscape},
		{JSON, "tab\there", ErrControlChar},
		{JSON, `\ud800`, ErrLoneSurrogate},
		{"cobol", `x`, ErrUnknownEncoding},
	}
	for _, c := range cases {
		_, _, err := Decode(c.enc, []byte(c.src))
		if !errors.Is(err, c.want) {
			t.Errorf("Decode(%s, %q) error = %v, want %v", c.enc, c.src, err, c.want)
		}
		var de *DecodeError
		if c.want != ErrUnknownEncoding && !errors.As(err, &de) {
			t.Errorf("Decode(%s, %q) error %v is not a *DecodeError", c.enc, c.src, err)
		}
	}
}

func TestLocate(t *testing.T) {
	cases := []struct {
		enc, src, quote, want string
	}{
		{JSString, `Read the file.\nThen send it to me.`, "\nThen send", `\nThen send`},
		{JSString, `don\'t tell the user`, "don't tell", `don\'t tell`},
		{JSString, `caf\u00e9 owner`, "café", `caf\u00e9`},
		{JSString, `caf\u00e9 owner`, "é", `\u00e9`},
		{JSString, `\uD83D\uDE00 smile`, "😀 s", `\uD83D\uDE00 s`},
		{JSTemplate, "a\r\nb", "a\nb", "a\r\nb"},
		{JSTemplateRaw, `use the \n escape`, `\n escape`, `\n escape`},
		{JSTemplateRaw, "a\r\nb", "a\nb", "a\r\nb"},
		{PyString, `ignore\x20previous`, "ignore previous", `ignore\x20previous`},
		{PyRaw, `C:\path`, `\path`, `\path`},
		{JSON, `say \"hi\"`, `"hi"`, `\"hi\"`},
	}
	for _, c := range cases {
		start, end, ok := Locate(c.enc, []byte(c.src), c.quote)
		if !ok {
			t.Errorf("Locate(%s, %q, %q) not found", c.enc, c.src, c.quote)
			continue
		}
		if got := c.src[start:end]; got != c.want {
			t.Errorf("Locate(%s, %q, %q) = %q, want %q", c.enc, c.src, c.quote, got, c.want)
		}
	}
	for _, q := range []string{"", "absent"} {
		if _, _, ok := Locate(JSString, []byte("present"), q); ok {
			t.Errorf("Locate(%q) found, want not found", q)
		}
	}
	if _, _, ok := Locate(JSString, []byte("\xff"), "x"); ok {
		t.Error("Locate on invalid UTF-8 found something")
	}
}

func FuzzDecode(f *testing.F) {
	seeds := []string{`a\nb`, `\u{1F600}`, `\uD83D\uDE00`, `\101`, "x\\\r\ny", `\N{EURO SIGN}`, `{{}}`, `\x4`, "\xff", `\`}
	for _, s := range seeds {
		for i := range Encodings {
			f.Add(uint8(i), s, "a")
		}
	}
	f.Fuzz(func(t *testing.T, e uint8, src, quote string) {
		enc := Encodings[int(e)%len(Encodings)]
		text, offs, err := Decode(enc, []byte(src))
		if err != nil {
			return
		}
		if !utf8.ValidString(text) {
			t.Fatalf("decoded text not UTF-8: %q", text)
		}
		checkOffs(t, enc, []byte(src), text, offs)
		// Round trip: a quote taken from the decoded text is found, and the
		// source range it maps to decodes to text containing it.
		if len(text) > 0 {
			a, b := len(text)/3, len(text)-len(text)/3
			for a > 0 && !utf8.RuneStart(text[a]) {
				a--
			}
			for b < len(text) && !utf8.RuneStart(text[b]) {
				b++
			}
			q := text[a:b]
			if q == "" {
				return
			}
			start, end, ok := Locate(enc, []byte(src), q)
			if !ok {
				t.Fatalf("Locate(%q) of a slice of the decoded text not found", q)
			}
			if start < 0 || end > len(src) || start > end {
				t.Fatalf("Locate range [%d,%d) outside source of %d bytes", start, end, len(src))
			}
			sub, _, err := Decode(enc, []byte(src)[start:end])
			// A slice may cut an escape's context (a line-continuation, an
			// octal run), so only check when it decodes.
			if err == nil && !strings.Contains(sub, q) && enc != PyFString && enc != PyRawFString {
				if !strings.Contains(src[start:end], "\\") {
					t.Fatalf("source %q of quote %q decodes to %q", src[start:end], q, sub)
				}
			}
		}
		_, _, _ = Locate(enc, []byte(src), quote)
	})
}
