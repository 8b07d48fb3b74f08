// Package verify is the model check's deterministic verifier: the test a
// language model's proposal must pass to become a finding, and that G7
// re-applies at decision time. It reads surface rows and stored file bytes
// handed to it; it calls no model, no network and no database. It is a leaf:
// it imports only the standard library, internal/literal and internal/rundir,
// so the decision, the publication and the store can depend on it without
// linking the checks that run (docs/architecture.md, import rules).
package verify

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// VerifierVersion names what the verifier accepts and rejects. It rides on
// every decision row; any change to VerifyQuote's or VerifyExcerpt's verdicts
// changes it (docs/methodology.md §5.4).
//
// verify-2 (methodology 2.3.4): a quote across literal spans that are not one
// run in one file (a template's text and the constant substituted into it,
// declared earlier or in another module) verifies piece by piece, each piece
// a run of spans in one file in source order (Verified.Parts); and spans
// written as numeric literals (literal.JSNumber) decode.
//
// verify-3 (methodology 2.3.5): spans of a template read raw (String.raw,
// literal.JSTemplateRaw) are template segments when a quote is cut at a
// substitution, as cooked template segments are.
const VerifierVersion = "verify-3"

// ErrRejected classifies a verifier rejection (errors.Is). The concrete error
// is a *RejectError carrying a stable reason.
var ErrRejected = errors.New("verifier rejected")

// Rejection reasons, stable strings recorded on rejected proposals and on
// decision rows.
const (
	RejectEmptyQuote      = "quote_empty"
	RejectNoEntry         = "entry_not_declared_in_file"
	RejectNotInText       = "quote_not_in_text"
	RejectAcrossHole      = "quote_across_hole"
	RejectOutsideSpans    = "quote_outside_literal_spans"
	RejectSpansDisordered = "spans_not_contiguous_in_file"
	RejectSourceMismatch  = "source_does_not_decode_to_text"
	RejectSplitsCharacter = "quote_splits_a_character"
	RejectSourceMissing   = "source_unreadable"
	RejectNotAtExcerpt    = "excerpt_not_at_a_verified_position"
)

// RejectError says why a quote or an excerpt was rejected.
type RejectError struct {
	Reason string
	Detail string
}

func (e *RejectError) Error() string {
	if e.Detail == "" {
		return "verifier rejected: " + e.Reason
	}
	return "verifier rejected: " + e.Reason + ": " + e.Detail
}

// Is makes errors.Is(err, ErrRejected) true for every rejection.
func (e *RejectError) Is(target error) bool { return target == ErrRejected }

func reject(reason, format string, args ...any) *RejectError {
	return &RejectError{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Verified is an accepted quote: where it sits in the entry's decoded text and
// the source bytes it maps to.
type Verified struct {
	Kind      string `json:"kind"`
	Entry     string `json:"entry"`
	File      string `json:"file"`
	RawStart  int    `json:"raw_start"` // byte offsets into the entry's description_raw
	RawEnd    int    `json:"raw_end"`
	Start     int    `json:"start"` // byte offsets into the file
	End       int    `json:"end"`
	LineStart int    `json:"line_start"` // 1-based, inclusive
	LineEnd   int    `json:"line_end"`
	Quote     string `json:"quote"`   // the decoded text matched
	Excerpt   []byte `json:"excerpt"` // the file's bytes [Start, End): the finding's excerpt
	// Parts, when the quote crosses from one place of the source to another
	// (a constant substituted into a template), are its pieces in text
	// order, each verified alone: one run of spans in one file, with its own
	// excerpt. The fields above then give the whole quote's raw range and
	// quote, and the first piece's file, bytes and lines. Every byte of the
	// quote is in exactly one piece.
	Parts []Verified `json:"parts,omitempty"`
}

// entriesFor returns the entries a proposal naming (kind, name) may quote, in
// the surface's order. A prompt's message text is reported under the kind
// prompt and the prompt's name (docs/methodology.md §5.3), so kind prompt also
// reaches the prompt_text entries whose parent is that prompt.
func entriesFor(s *rundir.Surface, kind, name string) []rundir.Entry {
	var out []rundir.Entry
	pick := func(list []rundir.Entry, byParent bool) {
		for _, e := range list {
			if e.Name == name || (byParent && e.Parent == name) {
				out = append(out, e)
			}
		}
	}
	switch kind {
	case "", vocab.EntryTool:
		pick(s.Tools, false)
	case vocab.EntryPrompt:
		pick(s.Prompts, false)
		pick(s.PromptTexts, true)
	case vocab.EntryPromptText:
		pick(s.PromptTexts, true)
	case vocab.EntryResource:
		pick(s.Resources, false)
	case vocab.EntryResourceTemplate:
		pick(s.ResourceTemplates, false)
	case vocab.EntryInstructions:
		pick(s.Instructions, false)
	case vocab.EntryParameterDescription:
		pick(s.ParameterDescriptions, false)
	}
	return out
}

// declaredIn reports whether any literal span of e sits in file.
func declaredIn(e rundir.Entry, file string) bool {
	for _, sp := range e.Spans {
		if sp.File == file {
			return true
		}
	}
	return false
}

// source memoises file reads and span decodes within one verification.
type source struct {
	fileBytes func(string) ([]byte, error)
	files     map[string][]byte
}

func (s *source) file(path string) ([]byte, error) {
	if b, ok := s.files[path]; ok {
		return b, nil
	}
	b, err := s.fileBytes(path)
	if err != nil {
		return nil, err
	}
	if s.files == nil {
		s.files = map[string][]byte{}
	}
	s.files[path] = b
	return b, nil
}

// spanText decodes one span's source bytes and checks they produce exactly the
// slice of description_raw the span claims: the stored file must be the file
// the surface was read from.
func spanText(src []byte, e rundir.Entry, sp rundir.Span) (text string, offs []int, err error) {
	if sp.Start < 0 || sp.End < sp.Start || sp.End > len(src) {
		return "", nil, reject(RejectSourceMismatch, "span %d..%d outside %s (%d bytes)", sp.Start, sp.End, sp.File, len(src))
	}
	if sp.RawStart < 0 || sp.RawEnd < sp.RawStart || sp.RawEnd > len(e.DescriptionRaw) {
		return "", nil, reject(RejectSourceMismatch, "span raw range %d..%d outside the text", sp.RawStart, sp.RawEnd)
	}
	text, offs, err = literal.Decode(sp.Encoding, src[sp.Start:sp.End])
	if err != nil {
		return "", nil, reject(RejectSourceMismatch, "%s: %v", sp.File, err)
	}
	if text != e.DescriptionRaw[sp.RawStart:sp.RawEnd] {
		return "", nil, reject(RejectSourceMismatch, "%s bytes %d..%d do not decode to the recorded text", sp.File, sp.Start, sp.End)
	}
	return text, offs, nil
}

// verifyAt is the verifier's one test, shared by VerifyQuote (at proposal
// time) and VerifyExcerpt (G7 at decision time): the raw range [i, j) of e's
// description_raw lies wholly inside literal spans of e, with no hole strictly
// inside it, the spans covering it are consecutive in the text, sit in file in
// increasing source order, and decode from the stored bytes to exactly the
// recorded text, and no two of them meet across a template substitution
// (splitsAt). The excerpt is the source bytes from the first mapped byte
// to the last, so a quote across two joined literals includes the bytes
// between them (docs/methodology.md §5.4).
func verifyAt(src *source, e rundir.Entry, file string, i, j int) (Verified, error) {
	for _, h := range e.Holes {
		if h.RawOffset > i && h.RawOffset < j {
			return Verified{}, reject(RejectAcrossHole, "hole at %d inside %d..%d", h.RawOffset, i, j)
		}
	}
	// The spans that cover [i, j), in text order; every byte must be covered.
	cover, ok := coverOf(e, i, j)
	if !ok {
		return Verified{}, reject(RejectOutsideSpans, "text %d..%d not covered by literal spans", i, j)
	}
	for k, sp := range cover {
		if sp.File != file {
			return Verified{}, reject(RejectOutsideSpans, "span in %s, not %s", sp.File, file)
		}
		if k > 0 && sp.Start < cover[k-1].End {
			return Verified{}, reject(RejectSpansDisordered, "span at %d precedes the span before it", sp.Start)
		}
	}
	b, err := src.file(file)
	if err != nil {
		return Verified{}, &RejectError{Reason: RejectSourceMissing, Detail: err.Error()}
	}
	for k := 1; k < len(cover); k++ {
		if splitsAt(b, cover[k-1], cover[k]) {
			return Verified{}, reject(RejectSpansDisordered, "spans at %d and %d meet across a template substitution", cover[k-1].End, cover[k].Start)
		}
	}

	first, last := cover[0], cover[len(cover)-1]
	text, offs, err := spanText(b, e, first)
	if err != nil {
		return Verified{}, err
	}
	p := i - first.RawStart
	if p > 0 && offs[p] == offs[p-1] {
		return Verified{}, reject(RejectSplitsCharacter, "quote starts inside an escape")
	}
	start := first.Start + offs[p]

	if last.RawStart != first.RawStart {
		// Middle spans must decode too: the excerpt covers their bytes.
		for _, sp := range cover[1 : len(cover)-1] {
			if _, _, err := spanText(b, e, sp); err != nil {
				return Verified{}, err
			}
		}
		text, offs, err = spanText(b, e, last)
		if err != nil {
			return Verified{}, err
		}
	}
	q := j - last.RawStart
	if q < len(text) && offs[q] == offs[q-1] {
		return Verified{}, reject(RejectSplitsCharacter, "quote ends inside an escape")
	}
	// The end of the unit that produced the quote's last byte: Locate of the
	// prefix text[:q] finds it at the start of the span and returns its end.
	lsrc := b[last.Start:last.End]
	_, endLocal, ok := literal.Locate(last.Encoding, lsrc, text[:q])
	if !ok {
		return Verified{}, reject(RejectSourceMismatch, "cannot map the quote's end in %s", file)
	}
	end := last.Start + endLocal
	if end <= start {
		return Verified{}, reject(RejectSpansDisordered, "mapped range %d..%d is empty", start, end)
	}
	return Verified{
		Kind: e.Kind, Entry: e.Name, File: file,
		RawStart: i, RawEnd: j, Start: start, End: end,
		LineStart: lineOf(b, start), LineEnd: lineOf(b, end-1),
		Quote:   e.DescriptionRaw[i:j],
		Excerpt: bytes.Clone(b[start:end]),
	}, nil
}

// coverOf returns the spans of e that cover the raw range [i, j), in text
// order, or ok false when some byte of it is in no span.
func coverOf(e rundir.Entry, i, j int) ([]rundir.Span, bool) {
	spans := make([]rundir.Span, len(e.Spans))
	copy(spans, e.Spans)
	sort.SliceStable(spans, func(a, b int) bool { return spans[a].RawStart < spans[b].RawStart })
	var cover []rundir.Span
	pos := i
	for _, sp := range spans {
		if sp.RawEnd <= pos || sp.RawStart >= j {
			continue
		}
		if sp.RawStart > pos {
			break
		}
		cover = append(cover, sp)
		pos = sp.RawEnd
		if pos >= j {
			break
		}
	}
	return cover, pos >= j && len(cover) > 0
}

// verifyQuoteAt verifies the raw range [i, j) of e for a proposal that names
// file: as one excerpt when its spans are one run in file (verifyAt), else
// piece by piece (verifyPieces).
func verifyQuoteAt(src *source, e rundir.Entry, file string, i, j int) (Verified, error) {
	cover, ok := coverOf(e, i, j)
	if !ok {
		return verifyAt(src, e, file, i, j)
	}
	runs, ok := runsOf(src, cover)
	if !ok || len(runs) < 2 {
		return verifyAt(src, e, file, i, j)
	}
	return verifyPieces(src, e, file, i, j, runs)
}

// runsOf splits covering spans where the source stops being one place: the
// next span is in another file, sits before the end of the span before it,
// or the two meet across a template substitution (splitsAt). ok is false
// when a file cannot be read (verifyAt then says so).
func runsOf(src *source, cover []rundir.Span) ([][]rundir.Span, bool) {
	var runs [][]rundir.Span
	for k, sp := range cover {
		split := k == 0 || sp.File != cover[k-1].File || sp.Start < cover[k-1].End
		if !split {
			b, err := src.file(sp.File)
			if err != nil {
				return nil, false
			}
			split = splitsAt(b, cover[k-1], sp)
		}
		if split {
			runs = append(runs, nil)
		}
		runs[len(runs)-1] = append(runs[len(runs)-1], sp)
	}
	return runs, true
}

// splitsAt reports whether two spans consecutive in the text, in one file in
// source order, meet across a template substitution rather than being joined
// literals: the first is a template segment followed by `${`, or the second
// is a template segment that resumes after a substitution's `}`. The text
// between them then comes from somewhere else (a constant, verify-2), so no
// one excerpt covers both.
func splitsAt(b []byte, prev, cur rundir.Span) bool {
	if isTemplateSegment(prev.Encoding) && prev.End >= 0 && prev.End+1 < len(b) && b[prev.End] == '$' && b[prev.End+1] == '{' {
		return true
	}
	return isTemplateSegment(cur.Encoding) && cur.Start > 0 && cur.Start <= len(b) && b[cur.Start-1] == '}'
}

// isTemplateSegment: a template literal's segment, cooked or raw (a
// String.raw template, js_template_raw, proposed for verify-3).
func isTemplateSegment(enc string) bool {
	return enc == literal.JSTemplate || enc == literal.JSTemplateRaw
}

// verifyPieces verifies a quote whose spans lie in more than one place: no
// hole strictly inside the whole range, each run of spans verified alone by
// verifyAt over its part of the range, and at least one piece in file (the
// file the proposal was made against). Each piece's excerpt is its own
// source bytes, so every quoted byte is checked where it is written.
func verifyPieces(src *source, e rundir.Entry, file string, i, j int, runs [][]rundir.Span) (Verified, error) {
	for _, h := range e.Holes {
		if h.RawOffset > i && h.RawOffset < j {
			return Verified{}, reject(RejectAcrossHole, "hole at %d inside %d..%d", h.RawOffset, i, j)
		}
	}
	var parts []Verified
	inFile := false
	for _, run := range runs {
		a, b := max(i, run[0].RawStart), min(j, run[len(run)-1].RawEnd)
		v, err := verifyAt(src, e, run[0].File, a, b)
		if err != nil {
			return Verified{}, err
		}
		inFile = inFile || v.File == file
		parts = append(parts, v)
	}
	if !inFile {
		return Verified{}, reject(RejectOutsideSpans, "no piece of the quote is in %s", file)
	}
	out := parts[0]
	out.RawStart, out.RawEnd, out.Quote = i, j, e.DescriptionRaw[i:j]
	out.Parts = parts
	return out, nil
}

// lineOf is the 1-based line of byte offset off.
func lineOf(b []byte, off int) int {
	if off > len(b) {
		off = len(b)
	}
	return bytes.Count(b[:off], []byte{'\n'}) + 1
}

// VerifyQuote is the verifier a proposal passes before it becomes a finding:
// quote must occur byte for byte in the decoded text of an entry of the given
// kind named entryName that is declared in file, wholly inside that entry's
// literal spans with no hole inside the match, and must map back to source
// bytes of file that decode to it. A match whose spans lie in more than one
// place (a constant substituted into a template: another file, earlier in the
// file, or across the substitution) verifies piece by piece, each piece one
// run of spans with its own excerpt (Verified.Parts), one of them in file.
// Every occurrence of quote is tried in
// order; the first that verifies is returned. fileBytes returns the stored
// bytes of a member of the artifact by path.
//
// A rejection is a *RejectError (errors.Is(err, ErrRejected)); it is an
// outcome, never a crash.
func VerifyQuote(surface *rundir.Surface, fileBytes func(path string) ([]byte, error), kind, entryName, file, quote string) (Verified, error) {
	if quote == "" {
		return Verified{}, reject(RejectEmptyQuote, "")
	}
	if surface == nil {
		return Verified{}, reject(RejectNoEntry, "no surface row")
	}
	src := &source{fileBytes: fileBytes}
	var firstErr error
	found := false
	for _, e := range entriesFor(surface, kind, entryName) {
		if !declaredIn(e, file) {
			continue
		}
		found = true
		for from := 0; from <= len(e.DescriptionRaw); {
			k := strings.Index(e.DescriptionRaw[from:], quote)
			if k < 0 {
				break
			}
			i := from + k
			v, err := verifyQuoteAt(src, e, file, i, i+len(quote))
			if err == nil {
				return v, nil
			}
			if firstErr == nil {
				firstErr = err
			}
			from = i + 1
		}
	}
	if !found {
		return Verified{}, reject(RejectNoEntry, "no %s %q declared in %s", kindOrTool(kind), entryName, file)
	}
	if firstErr != nil {
		return Verified{}, firstErr
	}
	return Verified{}, reject(RejectNotInText, "quote not in the text of %s %q", kindOrTool(kind), entryName)
}

func kindOrTool(kind string) string {
	if kind == "" {
		return vocab.EntryTool
	}
	return kind
}

// VerifyExcerpt is G7 (docs/methodology.md §9): a finding records source
// bytes (its excerpt) and the lines they sit on, not the decoded quote. For
// each place the excerpt occurs in file within lineStart..lineEnd (the whole
// file when both are 0) that begins and ends on a character boundary of a
// literal span of a matching entry, the decoded quote is recovered and passed
// through verifyAt, the same test VerifyQuote applies; the excerpt verifies
// when that test maps the quote back to exactly those bytes.
func VerifyExcerpt(surface *rundir.Surface, fileBytes func(path string) ([]byte, error), kind, entryName, file string, excerpt []byte, lineStart, lineEnd int) (Verified, error) {
	if len(excerpt) == 0 {
		return Verified{}, reject(RejectEmptyQuote, "empty excerpt")
	}
	if surface == nil {
		return Verified{}, reject(RejectNoEntry, "no surface row")
	}
	var entries []rundir.Entry
	for _, e := range entriesFor(surface, kind, entryName) {
		if declaredIn(e, file) {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return Verified{}, reject(RejectNoEntry, "no %s %q declared in %s", kindOrTool(kind), entryName, file)
	}
	src := &source{fileBytes: fileBytes}
	b, err := src.file(file)
	if err != nil {
		return Verified{}, &RejectError{Reason: RejectSourceMissing, Detail: err.Error()}
	}
	lo, hi := 0, len(b)
	if lineStart > 0 || lineEnd > 0 {
		lo, hi = LineRange(b, lineStart, lineEnd)
	}
	var firstErr error
	for from := lo; from < hi; {
		k := bytes.Index(b[from:hi], excerpt)
		if k < 0 {
			break
		}
		x := from + k
		y := x + len(excerpt)
		for _, e := range entries {
			i, j, ok := rawRangeOf(b, e, file, x, y)
			if !ok {
				continue
			}
			v, err := verifyAt(src, e, file, i, j)
			if err == nil && v.Start == x && v.End == y {
				return v, nil
			}
			if err == nil {
				err = reject(RejectNotAtExcerpt, "the quote maps to %d..%d, the excerpt sits at %d..%d", v.Start, v.End, x, y)
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		from = x + 1
	}
	if firstErr != nil {
		return Verified{}, firstErr
	}
	return Verified{}, reject(RejectOutsideSpans, "excerpt does not begin and end inside literal spans of %s %q in %s lines %d..%d", kindOrTool(kind), entryName, file, lineStart, lineEnd)
}

// rawRangeOf maps the file range [x, y) to the raw range of e's text it
// decodes to, when x starts a decoded unit of one of e's spans and y ends one.
func rawRangeOf(b []byte, e rundir.Entry, file string, x, y int) (int, int, bool) {
	i, j := -1, -1
	for _, sp := range e.Spans {
		if sp.File != file || sp.Start < 0 || sp.End > len(b) || sp.Start > sp.End {
			continue
		}
		inStart := x >= sp.Start && x < sp.End
		inEnd := y > sp.Start && y <= sp.End
		if !inStart && !inEnd {
			continue
		}
		text, offs, err := literal.Decode(sp.Encoding, b[sp.Start:sp.End])
		if err != nil || sp.RawEnd-sp.RawStart != len(text) {
			continue
		}
		if inStart && i < 0 {
			for a := 0; a < len(text); a++ {
				if sp.Start+offs[a] == x && (a == 0 || offs[a-1] != offs[a]) {
					i = sp.RawStart + a
					break
				}
			}
		}
		if inEnd && j < 0 {
			// The first decoded byte whose unit starts at or after y; the
			// unit before it must end at y, which verifyAt confirms.
			for c := 1; c <= len(text); c++ {
				if sp.Start+offs[c] >= y && sp.Start+offs[c-1] < y {
					j = sp.RawStart + c
					break
				}
			}
		}
	}
	if i < 0 || j < 0 || j <= i {
		return 0, 0, false
	}
	return i, j, true
}

// LineRange returns the byte range of lines first..last (1-based, inclusive)
// of b, the newline ending the last line excluded. Lines out of range, or
// last < first, give an empty range, so an excerpt cited at lines a file does
// not have never verifies. G6 and G7 share it.
func LineRange(b []byte, first, last int) (int, int) {
	if first < 1 || last < first {
		return 0, 0
	}
	line, lo := 1, -1
	if first == 1 {
		lo = 0
	}
	for k := 0; k < len(b); k++ {
		if b[k] != '\n' {
			continue
		}
		if line == last {
			if lo < 0 {
				return 0, 0
			}
			return lo, k
		}
		line++
		if line == first {
			lo = k + 1
		}
	}
	if lo < 0 || line < last {
		return 0, 0
	}
	return lo, len(b)
}

// Reject builds a rejection with a stable reason, for a caller (the model
// check) that refuses a proposal before the verifier sees it.
func Reject(reason, format string, args ...any) *RejectError { return reject(reason, format, args...) }

// LineOf is the 1-based line of byte offset off in b, as the verifier counts
// lines for an excerpt (the model check's reassignment findings count alike).
func LineOf(b []byte, off int) int { return lineOf(b, off) }
