package surface

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// vkind is what a resolved expression is known to be.
type vkind uint8

const (
	vUnknown   vkind = iota // not carried to a value; reason says why
	vNeed                   // needs a binding of scope `need` enumerated first
	vText                   // text: literal segments and holes
	vNumber                 // a number literal (source text kept)
	vBool                   // true / false
	vNull                   // null / None
	vUndefined              // undefined, void 0, a missing property
	vObject                 // an object literal node, or a composite of parts
	vArray                  // an array literal node, or synthesized elements
	vFunc                   // a function node with its closure env
	vClass                  // a class declaration
	vInstance               // new Class(args)
	vModule                 // a sibling module's namespace
	vExternal               // a binding from outside the artifact (another package)
	vUnion                  // one of several alternatives (multiple returns)
	vMap                    // new Map() / new Set(): entries from its constructor and .set/.add calls
)

// scopeRef names a scope whose bindings can be enumerated: a function (its
// parameters), a for...of/for...in loop, or a comprehension.
type scopeRef struct {
	f *file
	n nid
}

// val is a resolved value. Object and array literals stay as nodes and are
// read lazily, so resolving one property does not resolve the rest.
type val struct {
	k      vkind
	f      *file
	n      nid
	env    *env
	txt    *textv
	elems  []val // synthesized array elements (n < 0), union alternatives
	parts  []val // composite object: later parts override earlier
	keys   []string
	props  []val // synthesized object: keys[i] -> props[i]
	args   []thunk
	reason string
	need   scopeRef
	spec   string // vExternal: module specifier and member path
	boolv  bool
	// omit lists the keys a synthesized object leaves out of its parts:
	// the rest of `{ a, ...rest } = v` is v without a.
	omit []string
	// client marks an unknown that is the client's own prompt argument,
	// passed through unchanged (jsclientargs.go).
	client bool
	// alt is the run of segments a value stands for when it is the client's
	// argument with the package's fallback, or one of the package's
	// alternatives (jsfallback.go); only a prompt message's template reads it.
	alt *textv
	// rtdata marks an unknown that is the operator's data listed at run
	// time (jsunread_runtime.go).
	rtdata bool
	// pyEnum marks a member of a package Enum read whole (pyenum.go): its
	// name and value, read by .name and .value.
	pyEnum *pyEnumRef
}

func unknown(reason string) val { return val{k: vUnknown, reason: reason} }

func (v val) isUnknown() bool { return v.k == vUnknown || v.k == vNeed }

// thunk is an expression to evaluate under env.
type thunk struct {
	f   *file
	n   nid
	env *env
	v   *val // already evaluated (synthesized arguments)
	// read, when set, reads the value when it is first asked for (a
	// command-line default, recorded as read only then: pyflags.go).
	read func() val
	// name is a Python keyword argument's name ("" when positional, "*"
	// for an unpacked list or an unreadable unpacking, "**" for an
	// unpacked dict read when a parameter asks).
	name string
}

// env is a persistent chain of frames: the bindings chosen for enclosing
// scopes while one registration site is evaluated.
type env struct {
	parent *env
	scope  scopeRef
	// A call frame binds parameters to argument thunks and maybe `this`.
	args    []thunk
	this    *val
	hasThis bool
	// A site frame binds parameters through one call site found in the package.
	site   *callSite
	index  int  // a loop or callback frame binds the index-th element
	isLoop bool // index is meaningful
	// items, on a Python comprehension's frame, are the elements it visits,
	// read once by pyComprehension under the comprehension's own env: a
	// reference to its variable takes items[index] instead of reading them
	// again for every element (which made a comprehension quadratic).
	items []val
	// dead says why this scope's bindings could not be enumerated.
	dead string
	// calling marks the frame of a call being evaluated (not a binding
	// chosen for the site), so recursion is recognised.
	calling bool
	depth   int
	// skip is the nearest enclosing frame of another scope (envlookup.go).
	skip *env
}

type callSite struct {
	f    *file
	n    nid // call_expression / new_expression / decorator call
	args []nid
	// thisArg is the explicit receiver of f.call(thisArg, ...), or -1.
	thisArg nid
}

// liveFrame is the frame of scope s, or (ok false) the value that stops
// resolution: a binding still needed when no frame is chosen yet, the
// frame's reason when it is dead.
func (e *env) liveFrame(s scopeRef) (fr *env, stop val, ok bool) {
	fr = e.lookup(s)
	if fr == nil {
		return nil, val{k: vNeed, need: s}, false
	}
	if fr.dead != "" {
		return nil, unknown(fr.dead), false
	}
	return fr, val{}, true
}

func (e *env) push(fr env) *env {
	fr.parent = e
	fr.skip = skipOf(e, fr.scope)
	if e != nil {
		fr.depth = e.depth + 1
	}
	return &fr
}

// seg is one literal segment or one hole of a text value.
type seg struct {
	hole bool
	f    *file
	// start and end are file byte offsets of the segment's source bytes.
	start, end int
	enc        string
	text       string // decoded
	offs       []int  // decoded byte -> source offset relative to start
	// expr and env are a hole's substituted expression (none when it is
	// not a plain expression) and the environment it is read under: only
	// a name is ever resolved through them (nameText).
	expr nid
	env  *env
	// client marks a hole filled by the client's own prompt argument
	// (jsclientargs.go).
	client bool
	// alt marks a hole where one of the package's alternatives begins
	// (jsfallback.go).
	alt bool
	// rtdata marks a hole filled by the operator's data listed at run time
	// (jsunread_runtime.go).
	rtdata bool
}

// textv is a text value: the concatenation of its segments.
type textv struct {
	segs []seg
}

func (t *textv) raw() string {
	var b strings.Builder
	for _, s := range t.segs {
		if !s.hole {
			b.WriteString(s.text)
		}
	}
	return b.String()
}

func (t *textv) partial() bool {
	for _, s := range t.segs {
		if s.hole {
			return true
		}
	}
	return false
}

// literalText decodes the bytes [start,end) of f as one literal segment.
func literalText(f *file, start, end int, enc string) val {
	if start > end || end > len(f.src) {
		return unknown("literal outside its file")
	}
	text, offs, err := literal.Decode(enc, f.src[start:end])
	if err != nil {
		return unknown("literal cannot be decoded: " + err.Error())
	}
	return val{k: vText, txt: &textv{segs: []seg{{f: f, start: start, end: end, enc: enc, text: text, offs: offs}}}}
}

func holeText(f *file, n, expr nid, e *env) val {
	return val{k: vText, txt: &textv{segs: []seg{{hole: true, f: f, start: f.start(n), end: f.end(n), expr: expr, env: e}}}}
}

// concatText joins text values; anything else makes the result unknown.
func concatText(parts ...val) val {
	out := &textv{}
	for _, p := range parts {
		if p.k == vNeed {
			return p
		}
		if p.k != vText {
			if p.k == vUnknown {
				return notClient(p) // joined with other text (jsclientargs.go)
			}
			return unknown("concatenation with a value that is not a string")
		}
		for _, s := range p.txt.segs {
			if !s.hole && s.text == "" {
				continue
			}
			out.segs = append(out.segs, s)
		}
	}
	return val{k: vText, txt: out}
}

// trimText applies String.prototype.trim / str.strip to a text value. Only
// the literal ends can be trimmed; a hole at an end stops trimming there.
func trimText(v val, left, right bool, isSpace func(rune) bool) val {
	if v.k != vText {
		return v
	}
	segs := append([]seg(nil), v.txt.segs...)
	if left {
		for len(segs) > 0 && !segs[0].hole {
			s := segs[0]
			i := 0
			for i < len(s.text) {
				r, n := utf8.DecodeRuneInString(s.text[i:])
				if !isSpace(r) {
					break
				}
				i += n
			}
			if i == len(s.text) {
				segs = segs[1:]
				continue
			}
			segs[0] = s.slice(i, len(s.text))
			break
		}
	}
	if right {
		for len(segs) > 0 && !segs[len(segs)-1].hole {
			s := segs[len(segs)-1]
			j := len(s.text)
			for j > 0 {
				r, n := utf8.DecodeLastRuneInString(s.text[:j])
				if !isSpace(r) {
					break
				}
				j -= n
			}
			if j == 0 {
				segs = segs[:len(segs)-1]
				continue
			}
			segs[len(segs)-1] = s.slice(0, j)
			break
		}
	}
	return val{k: vText, txt: &textv{segs: segs}}
}

// slice narrows a literal segment to decoded bytes [i,j), moving its source
// range to the whole characters that produce them.
func (s seg) slice(i, j int) seg {
	out := s
	out.text = s.text[i:j]
	if len(s.offs) != len(s.text)+1 {
		// Text made by the extractor (a dict key read as text, a
		// constructor's name) has no source bytes to map back to.
		out.offs = nil
		return out
	}
	srcStart := s.offs[i]
	var srcEnd int
	if j == len(s.text) {
		srcEnd = s.end - s.start
	} else {
		// offs[j] is where the character producing byte j starts; the
		// kept text ends right before it.
		srcEnd = s.offs[j]
	}
	offs := make([]int, j-i+1)
	for k := i; k < j; k++ {
		offs[k-i] = s.offs[k] - srcStart
	}
	offs[j-i] = srcEnd - srcStart
	out.offs = offs
	out.start = s.start + srcStart
	out.end = s.start + srcEnd
	return out
}

// jsSpace is the whitespace String.prototype.trim removes.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

// pySpace is the whitespace str.strip() removes.
func pySpace(r rune) bool {
	switch r {
	case 0x1C, 0x1D, 0x1E, 0x1F, 0x85:
		return true
	}
	return unicode.IsSpace(r)
}

// describe turns a resolved description value into the entry's state, raw
// text, spans and holes.
func describe(e *rundir.Entry, v val, present bool) {
	e.Spans = []rundir.Span{}
	e.Holes = []rundir.Hole{}
	if !present {
		e.DescriptionState = vocab.StateAbsent
		return
	}
	if v.k == vUndefined || v.k == vNull {
		e.DescriptionState = vocab.StateAbsent
		return
	}
	if v.k == vUnion {
		if t, ok := sameText(v.elems); ok {
			v = t
		}
	}
	if v.k != vText {
		e.DescriptionState = vocab.StateUnreadable
		e.UnreadableReason = reasonOf(v)
		return
	}
	var raw strings.Builder
	for _, s := range v.txt.segs {
		if s.hole {
			h := rundir.Hole{
				RawOffset: raw.Len(), File: s.f.path, Start: s.start, End: s.end,
				Line: s.f.line(s.start), Source: string(s.f.src[s.start:s.end]),
			}
			if s.client {
				h.FilledBy = vocab.HoleFilledByClientArgument
			} else if s.alt {
				h.FilledBy = vocab.HoleFilledByPackageAlternative
			}
			if s.rtdata {
				h.FilledBy = vocab.HoleFilledByRuntimeData
			}
			e.Holes = append(e.Holes, h)
			continue
		}
		if s.text == "" {
			continue
		}
		rs := raw.Len()
		raw.WriteString(s.text)
		e.Spans = append(e.Spans, rundir.Span{
			File: s.f.path, Start: s.start, End: s.end, Line: s.f.line(s.start),
			RawStart: rs, RawEnd: raw.Len(), Encoding: s.enc,
		})
	}
	e.DescriptionRaw = raw.String()
	if len(e.Holes) > 0 {
		e.DescriptionState = vocab.StatePartial
	} else {
		e.DescriptionState = vocab.StateReadable
	}
}

func sameText(alts []val) (val, bool) {
	if len(alts) == 0 {
		return val{}, false
	}
	for _, a := range alts {
		if a.k != vText || a.txt.partial() {
			return val{}, false
		}
	}
	first := alts[0].txt.raw()
	for _, a := range alts[1:] {
		if a.txt.raw() != first {
			return val{}, false
		}
	}
	return alts[0], true
}

func reasonOf(v val) string {
	switch v.k {
	case vUnknown:
		if v.reason != "" {
			return v.reason
		}
		return "not resolved to literal text"
	case vNeed:
		return "bound by a caller the extractor could not enumerate"
	case vExternal:
		return "value imported from another package (" + v.spec + ")"
	case vNumber, vBool:
		return "not a string"
	case vUnion:
		for _, a := range v.elems {
			if a.k == vUnknown || a.k == vExternal {
				return "one of several values, one of which is not resolved: " + reasonOf(a)
			}
		}
		return "one of several values (multiple returns, branches or assignments)"
	case vFunc:
		return "a function, not a string"
	case vObject, vArray:
		return "an object or array, not a string"
	}
	return "not resolved to literal text"
}

// plainText returns the readable text of v, or ok=false.
func plainText(v val) (string, bool) {
	if v.k == vUnion {
		if t, ok := sameText(v.elems); ok {
			v = t
		}
	}
	if v.k != vText || v.txt.partial() {
		return "", false
	}
	return v.txt.raw(), true
}
