package surface

import (
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
