package surface

import (
	"strings"
)

// Reading a package's Enum class as a whole: iterating it (`for m in E`,
// `[m.value for m in E]`) and looking a member up by its value (`E(v)`).
//
// Both are read only for an Enum of the package whose body is a list of
// members `NAME = "string literal"` (with a docstring, `pass`, comments and
// ordinary methods beside them), whose bases are str, Enum or StrEnum, or
// classes of the package holding no members under the same rule, and which
// defines none of the hooks that change what a member is or how a value is
// looked up. Anything else is refused with its reason: what Python would
// make of it is not read from the source alone.

// pyEnumRef marks a value that is a member of an Enum read by
// pyEnumLiteralMembers: its name and its value, so `.name` and `.value` read
// on a loop variable or a lookup's result.
type pyEnumRef struct {
	name  string
	value val
}

// pyEnumHooks are the methods that change what a member is or how a value
// is looked up: a class defining one is not read.
var pyEnumHooks = map[string]bool{"_missing_": true, "__new__": true, "__init__": true}

// pyEnumMethodDecorators are the decorators under which a method in an Enum
// body stays a descriptor (not a member).
var pyEnumMethodDecorators = map[string]bool{"property": true, "classmethod": true, "staticmethod": true}

// pyEnumLiteralMembers lists the members of Enum class cls in the order
// written, aliases included (alias[i] is the index of the earlier member
// with the same value, or -1). reason says why the class is not read.
func (x *extractor) pyEnumLiteralMembers(cls val) (names []string, values []val, alias []int, reason string) {
	if cls.k != vClass || cls.f == nil || cls.f.lang != LangPython {
		return nil, nil, nil, "not a class of the package"
	}
	// A class is read once under the frame it was defined in: iterating it
	// and looking it up in every instance of a loop read the same members.
	key := pyEnumKey{cls.f, cls.n, cls.env}
	if r, ok := x.pyEnumRead[key]; ok {
		return r.names, r.values, r.alias, r.reason
	}
	names, values, alias, reason = x.pyEnumReadClass(cls)
	if x.exceeded || x.siteOver {
		return names, values, alias, reason // a reading the budget cut is not kept
	}
	if x.pyEnumRead == nil {
		x.pyEnumRead = map[pyEnumKey]*pyEnumRead{}
	}
	x.pyEnumRead[key] = &pyEnumRead{names, values, alias, reason}
	return names, values, alias, reason
}

// pyEnumKey is a class under the frame it was defined in.
type pyEnumKey struct {
	f   *file
	n   nid
	env *env
}

// pyEnumRead is the cached result of pyEnumLiteralMembers.
type pyEnumRead struct {
	names  []string
	values []val
	alias  []int
	reason string
}

func (x *extractor) pyEnumReadClass(cls val) (names []string, values []val, alias []int, reason string) {
	enum, r := x.pyEnumReadBases(cls, map[scopeRef]bool{})
	if r != "" {
		return nil, nil, nil, r
	}
	if !enum {
		return nil, nil, nil, "not an Enum class"
	}
	f := cls.f
	if r := x.pyEnumDecorators(cls); r != "" {
		return nil, nil, nil, r
	}
	seen := map[string]bool{}
	byValue := map[string]int{}
	for _, st := range f.named(f.field(cls.n, "body")) {
		if !x.step() {
			return nil, nil, nil, "resolution budget reached"
		}
		if r := pyEnumBodyStatement(f, st); r != "" {
			return nil, nil, nil, r
		}
		if f.kind(st) != "expression_statement" {
			continue
		}
		a := f.named(st)[0]
		if f.kind(a) != "assignment" {
			continue // a docstring
		}
		key := f.text(f.field(a, "left"))
		if seen[key] {
			return nil, nil, nil, "Enum member " + key + " is assigned twice (Python raises TypeError)"
		}
		seen[key] = true
		v := x.eval(f, f.field(a, "right"), cls.env)
		s, ok := plainText(v)
		if !ok {
			return nil, nil, nil, "Enum member " + key + " has a value that is not a string literal"
		}
		names = append(names, key)
		values = append(values, v)
		if i, dup := byValue[s]; dup {
			alias = append(alias, i)
		} else {
			byValue[s] = len(names) - 1
			alias = append(alias, -1)
		}
	}
	if len(names) == 0 {
		return nil, nil, nil, "Enum class without members"
	}
	return names, values, alias, ""
}

// pyEnumBodyStatement is why statement st of an Enum body (or of a base of
// it) is not read, or "" for a member `NAME = "literal"`, a docstring,
// `pass`, a comment or an ordinary method.
func pyEnumBodyStatement(f *file, st nid) string {
	switch f.kind(st) {
	case "comment", "pass_statement":
		return ""
	case "function_definition":
		if nm := f.text(f.field(st, "name")); pyEnumHooks[nm] {
			return "the Enum defines " + nm
		}
		return ""
	case "decorated_definition":
		def := f.field(st, "definition")
		if f.kind(def) != "function_definition" {
			return "a decorated class in the Enum body"
		}
		if nm := f.text(f.field(def, "name")); pyEnumHooks[nm] {
			return "the Enum defines " + nm
		}
		for _, d := range f.named(st) {
			if f.kind(d) != "decorator" {
				continue
			}
			if t := strings.TrimSpace(strings.TrimPrefix(f.text(d), "@")); !pyEnumMethodDecorators[t] {
				return "a method under the decorator " + t + " in the Enum body (it may be a member)"
			}
		}
		return ""
	case "expression_statement":
		kids := f.named(st)
		if len(kids) != 1 {
			return "a statement of several expressions in the Enum body"
		}
		a := kids[0]
		switch f.kind(a) {
		case "string", "concatenated_string":
			return "" // a docstring, or a string statement that binds nothing
		case "assignment":
		default:
			return "a statement of kind " + f.kind(a) + " in the Enum body"
		}
		left, right := f.field(a, "left"), f.field(a, "right")
		if f.kind(left) != "identifier" {
			return "an assignment to " + f.kind(left) + " in the Enum body"
		}
		if f.field(a, "type") >= 0 || right < 0 {
			return "an annotated name " + f.text(left) + " in the Enum body"
		}
		if !pyEnumMemberName(f.text(left)) {
			// A name like _x is a member in Python 3.13; a dunder or _sunder_
			// is not: leaving either out could read the class short.
			return "an underscore-named assignment " + f.text(left) + " in the Enum body"
		}
		if k := f.kind(right); k != "string" && k != "concatenated_string" {
			return "Enum member " + f.text(left) + " has a value that is not a string literal"
		}
		return ""
	}
	return "a statement of kind " + f.kind(st) + " in the Enum body"
}

// pyEnumReadBases reports whether cls is an Enum, with the reason its bases
// are not read: a class keyword (metaclass=), a Flag, IntFlag or IntEnum
// base, a base that is not followed, or a base of the package that holds
// members or a statement pyEnumBodyStatement refuses. seen bounds the walk.
func (x *extractor) pyEnumReadBases(cls val, seen map[scopeRef]bool) (enum bool, reason string) {
	at := scopeRef{cls.f, cls.n}
	if seen[at] {
		return false, "" // a lattice reaches a base twice: its answer is already counted
	}
	if len(seen) > 64 {
		return false, "too many Enum bases"
	}
	seen[at] = true
	f := cls.f
	supers := f.field(cls.n, "superclasses")
	if supers < 0 {
		return false, ""
	}
	for _, b := range f.named(supers) {
		if f.kind(b) == "keyword_argument" {
			return false, "a class keyword (" + f.text(f.field(b, "name")) + "=) on the Enum"
		}
		bv := x.eval(f, b, cls.env)
		switch {
		case bv.k == vExternal:
			switch bv.spec {
			case "str":
			case "enum.Enum", "enum.StrEnum":
				enum = true
			case "enum.IntEnum", "enum.Flag", "enum.IntFlag":
				return false, "an Enum derived from " + strings.TrimPrefix(bv.spec, "enum.")
			default:
				return false, "a base " + f.text(b) + " that is not followed"
			}
		case bv.k == vClass && bv.f != nil && bv.f.lang == LangPython:
			be, r := x.pyEnumReadBases(bv, seen)
			if r != "" {
				return false, r
			}
			for _, st := range bv.f.named(bv.f.field(bv.n, "body")) {
				if r := pyEnumBodyStatement(bv.f, st); r != "" {
					return false, "base " + f.text(b) + ": " + r
				}
				if bv.f.kind(st) == "expression_statement" && bv.f.kind(bv.f.named(st)[0]) == "assignment" {
					return false, "base " + f.text(b) + " holds members (Python raises TypeError)"
				}
			}
			if r := x.pyEnumDecorators(bv); r != "" {
				return false, "base " + f.text(b) + ": " + r
			}
			enum = enum || be
		default:
			return false, "a base " + f.text(b) + " that is not followed"
		}
	}
	return enum, ""
}

// pyEnumDecorators is why the decorators on class cls are not read: only
// enum.unique is (it changes nothing but refuses aliases, checked by the
// caller).
func (x *extractor) pyEnumDecorators(cls val) string {
	f := cls.f
	p := f.parent(cls.n)
	if f.kind(p) != "decorated_definition" {
		return ""
	}
	for _, d := range f.named(p) {
		if f.kind(d) != "decorator" {
			continue
		}
		kids := f.named(d)
		if len(kids) != 1 {
			return "a decorator on the Enum that is not read"
		}
		dv := x.eval(f, kids[0], cls.env)
		if dv.k != vExternal || dv.spec != "enum.unique" {
			return "the decorator " + strings.TrimSpace(strings.TrimPrefix(f.text(d), "@")) + " on the Enum"
		}
	}
	return ""
}

// pyEnumUnique reports whether class cls is decorated with enum.unique.
func (x *extractor) pyEnumUnique(cls val) bool {
	f := cls.f
	p := f.parent(cls.n)
	return f.kind(p) == "decorated_definition" && x.pyEnumDecorators(cls) == ""
}

// pyEnumMemberValue is member i of a read Enum as a value: its text, marked
// with its name and value, for a str Enum; for an Enum without str, an
// unknown (it is not text) that still reads .name and .value.
func pyEnumMemberValue(name string, v val, str bool) val {
	ref := &pyEnumRef{name: name, value: v}
	if !str {
		m := unknown("member " + name + " of an Enum that is not a str Enum")
		m.pyEnum = ref
		return m
	}
	m := v
	m.pyEnum = ref
	return m
}

// pyEnumIterate is `for m in E`: the members in the order written, aliases
// left out, as Python iterates an Enum class.
func (x *extractor) pyEnumIterate(cls val) ([]val, bool) {
	names, values, alias, r := x.pyEnumLiteralMembers(cls)
	if r != "" {
		return []val{unknown("iteration over an Enum that is not read: " + r)}, false
	}
	if x.pyEnumUnique(cls) {
		for i := range alias {
			if alias[i] >= 0 {
				return []val{unknown("@unique Enum with an alias " + names[i] + " (Python raises ValueError)")}, false
			}
		}
	}
	_, str := x.pyEnumClass(cls, nil)
	var out []val
	for i := range names {
		if alias[i] < 0 {
			out = append(out, pyEnumMemberValue(names[i], values[i], str))
		}
	}
	return out, true
}

// pyEnumLookup is `E(v)`: the member whose value is the text v (the first
// written, when an alias shares it). args must be one positional value.
func (x *extractor) pyEnumLookup(cls val, args []thunk) val {
	if len(args) != 1 || args[0].name != "" {
		return unknown("a call of an Enum class with other than one value (the functional API or keywords)")
	}
	av := x.force(args[0])
	if av.k == vNeed {
		return av
	}
	s, ok := plainText(av)
	if !ok {
		return unknown("Enum looked up by a value that is not resolved: " + reasonOf(av))
	}
	names, values, alias, r := x.pyEnumLiteralMembers(cls)
	if r != "" {
		return unknown("lookup in an Enum that is not read: " + r)
	}
	if x.pyEnumUnique(cls) {
		for i := range alias {
			if alias[i] >= 0 {
				return unknown("@unique Enum with an alias " + names[i] + " (Python raises ValueError)")
			}
		}
	}
	_, str := x.pyEnumClass(cls, nil)
	for i := range names {
		if t, _ := plainText(values[i]); t == s && alias[i] < 0 {
			return pyEnumMemberValue(names[i], values[i], str)
		}
	}
	return unknown("no member of the Enum has the value " + quoteShort(s) + " (Python raises ValueError)")
}

// quoteShort quotes s for a reason, cut to a readable length.
func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return "\"" + s + "\""
}
