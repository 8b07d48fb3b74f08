package surface

import (
	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// The package's own bytes in resources listed from the operator's data
// (methodology §5.3 and §5.4, 2.3.11). A listing of the operator's tables or
// files (jsunread_runtime.go) builds each resource's name, title and
// description from the listed element and from literals of the package:
//
//	name: `"${row.table_name}" database schema`,   // `"` and `" database schema` are the package's
//	name: file.name || "Untitled",                  // "Untitled" is the package's
//	description: `Columns of ${row.table_name}.`,   // as since 2.3.8
//
// The client shows every one of these texts to the model. Until 2.3.10 only
// the description was read; the name's literal parts were never examined,
// so a poisoned literal beside the operator's value would have graded.
// Since 2.3.11 the name and the title are read as the description is, and
// each that holds bytes of the package's is recorded as one more entry of
// the listing (listed_member name or title): partial, its substitutions of
// the element holes filled by runtime_data, its literal segments examined by
// the analyzer and quoted by the verifier like any other text. A member that
// is the element's value alone (`name: file.name`) holds no byte of the
// package's and records no entry; a member that cannot be read exactly
// records an entry `unreadable`, which is not analysed and refuses as any
// such entry does.
//
// `D || L` and `D ?? L`, where D is the element's value (the operator's)
// and L a text of the package read exactly, send either the operator's
// string or L: they are read as the operator's hole followed by L's
// segments, so every byte of L is examined where it is written, and no quote
// joins L to bytes before it (there is a hole before it). The description is
// read the same way.

// listedMembers are the members of a listed resource, besides its
// description, that the client shows: read by listedTexts.
var listedMembers = []string{vocab.ListedMemberName, vocab.ListedMemberTitle}

// listedText reads the member value n of the object a listing's callback
// builds, under e: the operator's value alone is one hole filled by
// runtime_data; `D || L` and `D ?? L` of the operator's value D are its hole
// then L; anything else is read as any text is.
func (x *extractor) listedText(f *file, n nid, e *env) val {
	inner := stripWrappers(f, n)
	if inner < 0 {
		return unknown("no expression")
	}
	if f.kind(inner) == "binary_expression" {
		op := f.text(f.field(inner, "operator"))
		left, right := f.field(inner, "left"), f.field(inner, "right")
		if (op == "||" || op == "??") && left >= 0 && right >= 0 {
			if lv := x.eval(f, left, e); lv.k == vUnknown && lv.rtdata {
				rv := x.eval(f, right, e)
				if rv.k != vText || rv.txt == nil {
					return unknown("the package's alternative to the operator's value is not read: " + reasonOf(rv))
				}
				segs := append([]seg{runtimeHoleAt(f, left)}, rv.txt.segs...)
				return val{k: vText, txt: &textv{segs: segs}}
			}
		}
	}
	v := x.eval(f, n, e)
	if v.k == vUnknown && v.rtdata {
		// The whole text is the operator's: one hole, no bytes.
		return val{k: vText, txt: &textv{segs: []seg{runtimeHoleAt(f, n)}}}
	}
	return v
}

// runtimeHoleAt is the hole of the operator's value written at n.
func runtimeHoleAt(f *file, n nid) seg {
	return seg{hole: true, f: f, start: f.start(n), end: f.end(n), expr: none, rtdata: true}
}

// listedTexts records, for each member of listedMembers the object obj
// builds, an entry of the listing when the member holds bytes of the
// package's or cannot be read exactly (see the comment at the top).
func (x *extractor) listedTexts(f *file, obj nid, e *env, c *collector) {
	for _, member := range listedMembers {
		n := objectMember(f, obj, member)
		if n < 0 {
			continue
		}
		v := x.listedText(f, n, e)
		if v.k == vUndefined || v.k == vNull || v.k == vText && v.txt != nil && !packageBytes(v.txt) {
			continue // absent, or the operator's value alone
		}
		ent := entryBase(KindResource, c.file, c.site)
		ent.NameState = vocab.StateUnreadable
		ent.ListedAtRunTime = true
		ent.ListedMember = member
		ent.SchemaKind = SchemaNone
		describe(&ent, v, true)
		c.entries = append(c.entries, ent)
	}
}

// packageBytes reports whether t holds a byte that is not a hole filled by
// the operator's data: a literal segment, or any other hole.
func packageBytes(t *textv) bool {
	for _, s := range t.segs {
		if s.hole && !s.rtdata || !s.hole && s.text != "" {
			return true
		}
	}
	return false
}

// runtimePropWritten reports whether the package may have written property
// key of an element of the operator's data: it writes a property of that
// name somewhere other than on a fresh object of its own (a name bound once
// to an object, array, function or class literal, jsFreshPropWrites). Such a
// fresh object is never an element an I/O call of another package returns,
// so `const body = {}; body.name = v` leaves the element's name the
// operator's (2.3.11); every other write (through a parameter, `this`
// outside a constructor, a call's result, a nested member) still drops the
// mark, as since 2.3.8.
func (x *extractor) runtimePropWritten(key string) bool {
	return x.constPropWritten(key)-x.jsFreshPropWrites(key, nil, none) > 0
}

// runtimeBindingWritten reports whether the package may have written the
// binding b through which a value of the operator's data is read: a file
// with no facts, or a write of that very binding in its file (matched to
// the binding it writes, jsBindingWritten). A write of another binding of
// the same name (`let file` in another function) changes nothing b holds.
func (x *extractor) runtimeBindingWritten(f *file, b binding) bool {
	return f.facts == nil || x.jsBindingWritten(f, b)
}

// The name and title of a resource or resource template the package
// registers (methodology §5.3 and §5.4, 2.3.12). resources/list and
// resources/templates/list send each resource's name (the protocol's
// BaseMetadata.name, a display name when no title is given) and title
// beside its description, and a client that hands the model its resources
// (a listing tool, an attached resource) hands it these texts too. Until
// 2.3.11 only the description of a registered resource was examined, and a
// poisoned name would have graded. Since 2.3.12 each of them that the
// registration gives is recorded as one more entry of the resource's kind,
// listed_member name or title, its Name the resource's, its text read as a
// description is: a text of the package read exactly is readable with its
// spans, so the analyzer examines it and the verifier quotes it where it is
// written; one not read exactly is unreadable (refused as not_analyzed).
// Tool and prompt names and titles are not recorded this way (see
// docs/versions/2.3.12/review.md for why).

// memberEntry records the member (vocab.ListedMemberName or
// vocab.ListedMemberTitle) of the registered resource or template base,
// whose value is v, found says whether the registration gives it at all.
func memberEntry(base rundir.Entry, member string, v val, found bool, c *collector) {
	if !found || v.k == vUndefined || v.k == vNull {
		return
	}
	ent := rundir.Entry{Kind: base.Kind, Name: base.Name, NameState: base.NameState, URI: base.URI,
		File: base.File, Line: base.Line, ListedMember: member, SchemaKind: SchemaNone}
	describe(&ent, v, true)
	if ent.DescriptionState == vocab.StateReadable && ent.DescriptionRaw == "" {
		return // an empty text: nothing a client shows
	}
	c.entries = append(c.entries, ent)
}

// identifierMember records a resource's name that is its function's name
// (a Python def of the package, FastMCP's default): the identifier's bytes,
// which no escape can change, are the text.
func identifierMember(base rundir.Entry, f *file, id nid, c *collector) {
	ent := rundir.Entry{Kind: base.Kind, Name: base.Name, NameState: base.NameState, URI: base.URI,
		File: base.File, Line: base.Line, ListedMember: vocab.ListedMemberName, SchemaKind: SchemaNone}
	text := f.text(id)
	if text == "" {
		return
	}
	ent.Spans = []rundir.Span{{File: f.path, Start: f.start(id), End: f.end(id), Line: f.line(f.start(id)),
		RawStart: 0, RawEnd: len(text), Encoding: literal.PyRaw}}
	ent.Holes = []rundir.Hole{}
	ent.DescriptionRaw = text
	ent.DescriptionState = vocab.StateReadable
	c.entries = append(c.entries, ent)
}

// pyResourceMembers records the name and title of a resource registered by
// a FastMCP decorator (or its call form): the name= argument, else the
// function's name, which FastMCP takes by default; the title= argument.
func (x *extractor) pyResourceMembers(base rundir.Entry, args []thunk, nameV val, df *file, def nid, c *collector) {
	if nameV.k == vUndefined || nameV.k == vNull || nameV.k == vFunc {
		if id := df.field(def, "name"); id >= 0 {
			identifierMember(base, df, id, c)
		}
	} else {
		memberEntry(base, vocab.ListedMemberName, nameV, true, c)
	}
	if a, ok := kwarg(args, "title"); ok {
		memberEntry(base, vocab.ListedMemberTitle, x.force(a), true, c)
	}
}
