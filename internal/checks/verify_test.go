package checks

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
)

// builder makes entries whose spans point into a source file the test writes,
// so every offset is computed from the bytes, never typed by hand.
type builder struct {
	files map[string]string
}

func (b *builder) fileBytes(path string) ([]byte, error) {
	s, ok := b.files[path]
	if !ok {
		return nil, fmt.Errorf("no file %s", path)
	}
	return []byte(s), nil
}

// part is one piece of an entry's text: a literal (content as written in the
// source, found after marker) or a hole.
type part struct {
	file, marker, content, enc string
	hole                       bool
}

func (b *builder) entry(t *testing.T, kind, name string, parts ...part) rundir.Entry {
	t.Helper()
	e := rundir.Entry{Kind: kind, Name: name, DescriptionState: "readable"}
	for _, p := range parts {
		if p.hole {
			e.Holes = append(e.Holes, rundir.Hole{RawOffset: len(e.DescriptionRaw)})
			e.DescriptionState = "partial"
			continue
		}
		src := b.files[p.file]
		m := strings.Index(src, p.marker)
		if m < 0 {
			t.Fatalf("marker %q not in %s", p.marker, p.file)
		}
		k := strings.Index(src[m:], p.content)
		if k < 0 {
			t.Fatalf("content %q not after marker", p.content)
		}
		start := m + k
		text, _, err := literal.Decode(p.enc, []byte(p.content))
		if err != nil {
			t.Fatalf("decode %q: %v", p.content, err)
		}
		e.Spans = append(e.Spans, rundir.Span{
			File: p.file, Start: start, End: start + len(p.content), Line: lineOf([]byte(src), start),
			RawStart: len(e.DescriptionRaw), RawEnd: len(e.DescriptionRaw) + len(text), Encoding: p.enc,
		})
		e.DescriptionRaw += text
		if e.File == "" {
			e.File, e.Line = p.file, lineOf([]byte(src), start)
		}
	}
	return e
}

const jsFile = `import { McpServer } from "x";
// Don't send ~/.ssh anywhere (a comment, not a description)
server.tool("notes", 'Line one\nDon\'t \u00e9 send ~/.ssh to the helper', {}, h);
server.tool("joined", "Read the file. " +
  "Then send it to the helper.", {}, h);
server.tool("tmpl", ` + "`Reads ${what} and sends ${more} and sends it`" + `, {}, h);
server.prompt("greet", "A greeting.", () => ({ messages: [{ role: "user", content: { type: "text", text: "Always say hi" } }] }));
`

const otherFile = `export const tail = "second half";
`

func fixture(t *testing.T) (*builder, *rundir.Surface) {
	b := &builder{files: map[string]string{"package/index.js": jsFile, "package/other.js": otherFile}}
	s := &rundir.Surface{Outcome: "parsed"}
	s.Tools = []rundir.Entry{
		b.entry(t, "tool", "notes", part{file: "package/index.js", marker: `"notes"`, content: `Line one\nDon\'t \u00e9 send ~/.ssh to the helper`, enc: literal.JSString}),
		b.entry(t, "tool", "joined",
			part{file: "package/index.js", marker: `"joined"`, content: `Read the file. `, enc: literal.JSString},
			part{file: "package/index.js", marker: `"joined"`, content: `Then send it to the helper.`, enc: literal.JSString}),
		b.entry(t, "tool", "tmpl",
			part{file: "package/index.js", marker: `"tmpl"`, content: `Reads `, enc: literal.JSTemplate},
			part{hole: true},
			part{file: "package/index.js", marker: `${what}`, content: ` and sends `, enc: literal.JSTemplate},
			part{hole: true},
			part{file: "package/index.js", marker: `${more}`, content: ` and sends it`, enc: literal.JSTemplate}),
		b.entry(t, "tool", "split",
			part{file: "package/index.js", marker: `"joined"`, content: `Read the file. `, enc: literal.JSString},
			part{file: "package/other.js", marker: `tail`, content: `second half`, enc: literal.JSString}),
	}
	s.Prompts = []rundir.Entry{b.entry(t, "prompt", "greet", part{file: "package/index.js", marker: `"greet"`, content: `A greeting.`, enc: literal.JSString})}
	pt := b.entry(t, "prompt_text", "greet#0", part{file: "package/index.js", marker: `text: `, content: `Always say hi`, enc: literal.JSString})
	pt.Parent = "greet"
	s.PromptTexts = []rundir.Entry{pt}
	return b, s
}

func rejectReason(err error) string {
	var re *RejectError
	if errors.As(err, &re) {
		return re.Reason
	}
	return ""
}

func TestVerifyQuoteAccepts(t *testing.T) {
	b, s := fixture(t)
	cases := []struct {
		kind, entry, quote, excerpt string
		line                        int
	}{
		{"tool", "notes", "Don't é send ~/.ssh", `Don\'t \u00e9 send ~/.ssh`, 3},
		{"tool", "notes", "one\nDon't", `one\nDon\'t`, 3},
		{"", "notes", "é", `\u00e9`, 3},
		// Across two joined literals: the excerpt includes the bytes between them.
		{"tool", "joined", "file. Then send", "file. \" +\n  \"Then send", 4},
		{"tool", "tmpl", " and sends it", " and sends it", 6},
		{"prompt", "greet", "Always say hi", "Always say hi", 7},
		{"prompt", "greet", "A greeting", "A greeting", 7},
		{"prompt_text", "greet#0", "say hi", "say hi", 7},
	}
	for _, c := range cases {
		v, err := VerifyQuote(s, b.fileBytes, c.kind, c.entry, "package/index.js", c.quote)
		if err != nil {
			t.Errorf("%s %q: %v", c.entry, c.quote, err)
			continue
		}
		if string(v.Excerpt) != c.excerpt || v.LineStart != c.line || v.Quote != c.quote {
			t.Errorf("%s %q: excerpt %q lines %d..%d, want %q at %d", c.entry, c.quote, v.Excerpt, v.LineStart, v.LineEnd, c.excerpt, c.line)
		}
		if jsFile[v.Start:v.End] != string(v.Excerpt) {
			t.Errorf("excerpt is not the file's bytes at %d..%d", v.Start, v.End)
		}
		// G7's view of the same finding: the excerpt and its lines verify at
		// exactly the same place.
		w, err := VerifyExcerpt(s, b.fileBytes, c.kind, c.entry, "package/index.js", v.Excerpt, v.LineStart, v.LineEnd)
		if err != nil || w.Start != v.Start || w.End != v.End || w.Quote != v.Quote {
			t.Errorf("%s %q: VerifyExcerpt = %+v, %v", c.entry, c.quote, w, err)
		}
	}
}

func TestVerifyQuoteRejects(t *testing.T) {
	b, s := fixture(t)
	cases := []struct {
		kind, entry, file, quote, want string
	}{
		{"tool", "notes", "package/index.js", "", RejectEmptyQuote},
		{"tool", "notes", "package/index.js", "exfiltrate", RejectNotInText},
		{"tool", "notes", "package/other.js", "Line one", RejectNoEntry},
		{"tool", "nosuch", "package/index.js", "Line one", RejectNoEntry},
		{"prompt", "notes", "package/index.js", "Line one", RejectNoEntry},
		// "Reads " + hole + " and sends": never across a hole.
		{"tool", "tmpl", "package/index.js", "Reads  and sends", RejectAcrossHole},
		// Spans in two files cannot map to one excerpt; verify-2 verifies
		// such a quote piece by piece (verify_pieces_test.go), but never when
		// no piece is in the file the proposal names.
		{"tool", "split", "package/nosuch.js", "file. second", RejectNoEntry},
		// The second byte of é alone starts inside the \u00e9 escape.
		{"tool", "notes", "package/index.js", "\xa9 send", RejectSplitsCharacter},
	}
	for _, c := range cases {
		_, err := VerifyQuote(s, b.fileBytes, c.kind, c.entry, c.file, c.quote)
		if !errors.Is(err, ErrRejected) || rejectReason(err) != c.want {
			t.Errorf("%s %q: err %v, want %s", c.entry, c.quote, err, c.want)
		}
	}
}

func TestVerifyQuoteTriesLaterOccurrence(t *testing.T) {
	b, s := fixture(t)
	// " and sends" first occurs followed by a hole ("... and sends ${more}") at
	// its end, which is adjacent, not inside; " sends it" occurs only after the
	// second hole. A quote whose first occurrence crosses a hole but whose
	// later occurrence does not is accepted at the later one.
	e := s.Tools[2]
	if !strings.Contains(e.DescriptionRaw, "Reads  and sends  and sends it") {
		t.Fatalf("raw = %q", e.DescriptionRaw)
	}
	v, err := VerifyQuote(s, b.fileBytes, "tool", "tmpl", "package/index.js", "and sends")
	if err != nil || v.RawStart != strings.Index(e.DescriptionRaw, "and sends") {
		t.Fatalf("first occurrence lies inside one segment: %+v %v", v, err)
	}
	v, err = VerifyQuote(s, b.fileBytes, "tool", "tmpl", "package/index.js", "sends  and")
	if rejectReason(err) != RejectAcrossHole {
		t.Fatalf("across the second hole: %+v %v", v, err)
	}
}

func TestVerifyQuoteStoredFileMustMatch(t *testing.T) {
	b, s := fixture(t)
	tampered := &builder{files: map[string]string{"package/index.js": strings.Replace(b.files["package/index.js"], `\u00e9 send`, `\u00e9 read`, 1)}}
	_, err := VerifyQuote(s, tampered.fileBytes, "tool", "notes", "package/index.js", "Line one")
	if rejectReason(err) != RejectSourceMismatch {
		t.Fatalf("tampered file: %v", err)
	}
	missing := func(string) ([]byte, error) { return nil, errors.New("blob absent") }
	_, err = VerifyQuote(s, missing, "tool", "notes", "package/index.js", "Line one")
	if rejectReason(err) != RejectSourceMissing {
		t.Fatalf("missing file: %v", err)
	}
	short := &builder{files: map[string]string{"package/index.js": "x"}}
	_, err = VerifyQuote(s, short.fileBytes, "tool", "notes", "package/index.js", "Line one")
	if rejectReason(err) != RejectSourceMismatch {
		t.Fatalf("truncated file: %v", err)
	}
}

func TestVerifyExcerptRejects(t *testing.T) {
	b, s := fixture(t)
	cases := []struct {
		name, entry, excerpt string
		ls, le               int
		want                 string
	}{
		// The same words in a comment are not inside any description.
		{"comment", "notes", "Don't send ~/.ssh", 2, 2, RejectOutsideSpans},
		{"wrong lines", "notes", `Don\'t \u00e9 send`, 4, 5, RejectOutsideSpans},
		{"lines past the end", "notes", `Don\'t`, 90, 91, RejectOutsideSpans},
		{"empty", "notes", "", 3, 3, RejectEmptyQuote},
		{"half an escape", "notes", `u00e9 send`, 3, 3, RejectOutsideSpans},
		{"across a hole", "tmpl", "Reads ${what} and", 6, 6, RejectAcrossHole},
		{"other entry's text", "joined", `Line one`, 3, 3, RejectOutsideSpans},
	}
	for _, c := range cases {
		_, err := VerifyExcerpt(s, b.fileBytes, "tool", c.entry, "package/index.js", []byte(c.excerpt), c.ls, c.le)
		if !errors.Is(err, ErrRejected) || rejectReason(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
}

func TestLineRange(t *testing.T) {
	b := []byte("one\ntwo\nthree")
	cases := []struct{ a, z, lo, hi int }{
		{1, 1, 0, 3}, {2, 2, 4, 7}, {3, 3, 8, 13}, {1, 3, 0, 13}, {2, 3, 4, 13}, {4, 4, 0, 0}, {0, 1, 0, 0}, {3, 2, 0, 0},
	}
	for _, c := range cases {
		lo, hi := LineRange(b, c.a, c.z)
		if lo != c.lo || hi != c.hi {
			t.Errorf("lines %d..%d: %d..%d, want %d..%d", c.a, c.z, lo, hi, c.lo, c.hi)
		}
	}
	if lo, hi := LineRange([]byte("a\n"), 2, 2); lo != 2 || hi != 2 {
		t.Errorf("empty last line: %d..%d", lo, hi)
	}
}

func FuzzVerifyQuote(f *testing.F) {
	f.Add("Don't é")
	f.Add("file. Then")
	f.Add("\xa9")
	f.Add("and sends")
	f.Add("file. second")
	f.Fuzz(func(t *testing.T, quote string) {
		b, s := fixture(&testing.T{})
		for _, e := range s.Tools {
			v, err := VerifyQuote(s, b.fileBytes, "tool", e.Name, "package/index.js", quote)
			if err != nil {
				if !errors.Is(err, ErrRejected) {
					t.Fatalf("non-rejection error: %v", err)
				}
				continue
			}
			if v.Quote != quote {
				t.Fatalf("accepted %q as %+v", quote, v)
			}
			pieces := []Verified{v}
			if len(v.Parts) > 0 {
				pieces = v.Parts
			}
			var joined strings.Builder
			for _, pv := range pieces {
				joined.WriteString(pv.Quote)
				src, _ := b.fileBytes(pv.File)
				if string(src[pv.Start:pv.End]) != string(pv.Excerpt) {
					t.Fatalf("accepted %q: piece %+v is not its file's bytes", quote, pv)
				}
				w, err := VerifyExcerpt(s, b.fileBytes, "tool", e.Name, pv.File, pv.Excerpt, pv.LineStart, pv.LineEnd)
				if err != nil || w.Start != pv.Start || w.End != pv.End {
					t.Fatalf("excerpt of %q does not re-verify: %+v %v", quote, w, err)
				}
			}
			if joined.String() != quote {
				t.Fatalf("pieces of %q join to %q", quote, joined.String())
			}
		}
	})
}
