package surface

import (
	"strconv"
	"strings"
)

// Objects of a schema changed after they are built (methodology §5.3, since
// 2.3.16). Where the schema reading reaches an object literal through a
// declared name (`const m = {...}; server.tool(n, d, m, cb)`, a spread
// `{...m}`, a member `S.a` of a constant table, an imported name), the
// literal is read only when no use of that name in the package can change
// the object after it is built; otherwise the schema is a gap naming the
// use and its place. A use reads the object when it is:
//
//   - a member read as a value (m.a, m["a"]), a spread of it ({...m}: since
//     2.3.19 the copy is followed as holding m's members, schematext_mut_spread.go), a test
//     on it (typeof m, "a" in m, m === x, for (k in m)), a type (typeof m in
//     a type);
//   - an argument, or a member of an object or array literal that is an
//     argument, of a registration call of the package (every registration:
//     a shape reused by several tools stays read);
//   - an argument of zod's builders (z.object(m), s.extend(m), …: zod copies
//     or keeps the shape, it never writes it), or of Object.keys, values,
//     entries, freeze, JSON.stringify, or a source of Object.assign (not its
//     target);
//   - `delete m.k` with k named (a literal key, or the element of a loop over
//     a literal list): the reading leaves k out (a member under k is a gap
//     unless it carries no text), as it did for a spread in a function.
//
// Any other use may change it: a member or computed write, a compound
// assignment or ++/-- on a member, a method call on it or on a member
// (m.a.push(…)), the target of Object.assign/defineProperty/setPrototypeOf,
// an argument of any other call (a function of the package may write its
// parameter), an alias (assigned to another name, put into an object or
// array that is not a registration's argument, returned), an assignment
// of the name itself. A name inside a function is looked for in that
// function's body; a module-level name in its whole file and, when the
// file exports it, in every file of the package importing it (by name, as
// a namespace, or by require). For a member of a constant table (S.a), a
// use under another key (S.b.x = …) does not change S.a; a use under S.a,
// or of S itself, does. Walks are over the syntax trees already parsed,
// bounded by the file.

// mutChange is one use that may change an object, or the keys it deletes.
type mutChange struct {
	f      *file
	at     nid
	reason string
}

// mutReaders are builtins an object handed to only reads.
var mutReaders = map[string]bool{
	"Object.keys": true, "Object.values": true, "Object.entries": true, "Object.freeze": true,
	"JSON.stringify": true, "Object.getOwnPropertyNames": true, "Object.isFrozen": true,
}

// mutDepthLimit bounds the climbs of this file (wrappers, member chains,
// literals around a use).
const mutDepthLimit = 64

// mutNestLimit bounds the declared literals followed from one object (an
// object put into a literal held by another name is looked for under that
// name too).
const mutNestLimit = 16

// mutStepLimit bounds the uses the walks of this file classify for one
// schema: past it the object is taken as changed.
const mutStepLimit = 2000000

// mutTick counts one use classified; true when the limit is passed.
func (r *schemaRead) mutTick() bool {
	r.mutSteps++
	return r.mutSteps > mutStepLimit
}

// literalChanges checks the object literal lit (of file f), reached by the
// schema reading: when it is the initialiser of a declared name (or a
// member of one, through pairs of object literals), every use of that name
// is classified. ok false names the first change; del are the keys deleted.
func (r *schemaRead) literalChanges(f *file, lit nid) (del []string, ch mutChange, ok bool) {
	decl, path := mutDeclOf(f, lit)
	if decl < 0 {
		return nil, mutChange{}, true
	}
	return r.declChanges(f, decl, path)
}

// nameChanges checks the name at n (an identifier, or a member chain on
// one) the schema reading resolved: its declaration's uses, under the path
// of members n reads.
func (r *schemaRead) nameChanges(f *file, n nid) (del []string, ch mutChange, ok bool) {
	var path []string
	for i := 0; i < mutDepthLimit && n >= 0; i++ {
		switch f.kind(n) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
			n = exprChild(f, n)
			continue
		case "member_expression", "subscript_expression":
			path = append([]string{mutKey(f, n)}, path...)
			n = f.field(n, "object")
			continue
		case "identifier":
			b, found := r.x.lookup(f, n, f.text(n))
			if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
				return nil, mutChange{}, true
			}
			return r.declChanges(f, b.decl, path)
		}
		break
	}
	return nil, mutChange{}, true
}

// mutDeclOf climbs from an object literal to the declarator it initialises,
// with the keys from the declared name down to it; decl < 0 when it is not
// held by a declared name.
func mutDeclOf(f *file, n nid) (decl nid, path []string) {
	for i := 0; i < mutDepthLimit; i++ {
		p := f.parent(n)
		if p < 0 {
			return none, nil
		}
		switch f.kind(p) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression":
		case "pair":
			if f.field(p, "value") != n {
				return none, nil
			}
			k := f.field(p, "key")
			key := "*"
			if f.kind(k) != "computed_property_name" {
				key = propKeyName(f, k)
			}
			path = append([]string{key}, path...)
			p = f.parent(p) // the object
			if p < 0 || f.kind(p) != "object" {
				return none, nil
			}
		case "array":
			path = append([]string{"*"}, path...)
		case "variable_declarator":
			if f.field(p, "value") != n || f.kind(f.field(p, "name")) != "identifier" {
				return none, nil
			}
			return p, path
		default:
			return none, nil
		}
		n = p
	}
	return none, nil
}

// mutKey is the key a member expression reads: its name, a literal index,
// or "*" (any key).
func mutKey(f *file, n nid) string {
	if f.kind(n) == "member_expression" {
		if p := f.field(n, "property"); f.kind(p) == "property_identifier" {
			return f.text(p)
		}
		return "*"
	}
	if s, lit := f.stringValue(f.field(n, "index")); lit && f.kind(f.field(n, "index")) == "string" {
		return s
	}
	return "*"
}

// mutAgree reports whether a use under keys k reaches the object at path p:
// one is a prefix of the other ("*" matching any key).
func mutAgree(k, p []string) bool {
	for i := 0; i < len(k) && i < len(p); i++ {
		if k[i] != p[i] && k[i] != "*" && p[i] != "*" {
			return false
		}
	}
	return true
}

// declChanges classifies every use of the name declared by decl in file f,
// for the object at path below it.
func (r *schemaRead) declChanges(f *file, decl nid, path []string) (del []string, ch mutChange, ok bool) {
	if hit, put := r.declMemo(f, decl, path, &del, &ch, &ok); hit {
		return del, ch, ok
	} else if put != nil {
		defer put()
	}
	id := f.field(decl, "name")
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, decl, "the object is held through more than " + strconv.Itoa(mutNestLimit) + " literals"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	name := f.text(id)
	scope := nameScope(f, decl)
	exported := scope == 0 && mutExportedDecl(f, decl)
	ch, ok = r.bindingUses(f, scope, id, name, func(b binding) bool { return b.decl == decl }, func(n nid) (mutChange, bool) {
		if p := f.parent(n); p >= 0 && f.kind(p) == "export_specifier" {
			exported = true
			return mutChange{}, true
		}
		d, c, good := r.useChanges(f, n, path)
		if good {
			del = append(del, d...)
		}
		return c, good
	})
	if !ok || !exported {
		return del, ch, ok
	}
	d, c, good := r.importerChanges(f, name, path)
	return append(del, d...), c, good
}

// mutExportedDecl reports whether decl is declared under export.
func mutExportedDecl(f *file, decl nid) bool {
	p := f.parent(decl)
	if p < 0 {
		return false
	}
	q := f.parent(p)
	return q >= 0 && f.kind(q) == "export_statement"
}

// importerChanges classifies the uses of an exported name of f in every
// other file of the package that imports it.
func (r *schemaRead) importerChanges(f *file, name string, path []string) (del []string, ch mutChange, ok bool) {
	return r.importerUses(f, name, path, nil)
}

// importerUses enumerates the uses of an exported name of f in every other
// file of the package that imports it (by name, as a namespace's member,
// through export * and named re-exports): each is classified by useChanges
// under path, or, when call is not nil, by call (an exported function's
// callers, schematext_mut_ret.go): a use that call cannot classify (the
// whole namespace handed on, a CommonJS re-export) is a change.
func (r *schemaRead) importerUses(f *file, name string, path []string, call func(g *file, n nid) (mutChange, bool)) (del []string, ch mutChange, ok bool) {
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, 0, "the object is re-exported through more than " + strconv.Itoa(mutNestLimit) + " modules"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	for _, g := range r.x.files {
		if g == f || g.facts == nil || g.lang == LangPython {
			continue
		}
		// Re-exports: export * from "./f", export { name as x } from "./f"
		// make g export the object too.
		var again []string
		for _, st := range g.facts.stars {
			if r.x.resolveModule(g, st) == f {
				again = append(again, name)
			}
		}
		for en, ex := range g.facts.exports {
			if ex.kind == exReexport && ex.name == name && r.x.resolveModule(g, ex.spec) == f {
				again = append(again, en)
			}
		}
		if call != nil && len(again) > 0 && r.x.entryFile(g) {
			return nil, mutChange{g, 0, "the function returning the object is exported by the package's entry " + g.path}, false
		}
		for _, en := range again {
			if d, c, good := r.importerUses(g, en, path, call); !good {
				return nil, c, false
			} else {
				del = append(del, d...)
			}
		}
		for _, im := range g.facts.imports {
			if r.x.resolveModule(g, im.spec) != f {
				continue
			}
			if im.req && tscExportStar(g, im.node) {
				// __exportStar(require("./f"), exports): g exports name too.
				if call != nil {
					return nil, mutChange{g, im.node, "the function returning the object is re-exported by a CommonJS module"}, false
				}
				d, c, good := r.cjsExportChanges(g, none, name, path)
				if !good {
					return nil, c, false
				}
				del = append(del, d...)
				continue
			}
			local, ns, refuse := mutImportLocal(g, im, name)
			if refuse != "" {
				return nil, mutChange{g, im.node, refuse}, false
			}
			if local == "" {
				continue
			}
			ok = true
			mutEach(r.x.usesOf(g, 0, local), func(n nid) bool {
				if r.mutTick() {
					ch, ok = mutLimitPassed(g, n), false
					return false
				}
				switch g.kind(n) {
				case "identifier", "shorthand_property_identifier":
				default:
					return true
				}
				if g.text(n) != local {
					return true
				}
				if p := g.parent(n); p >= 0 && (g.kind(p) == "import_specifier" || g.kind(p) == "namespace_import" || g.kind(p) == "import_clause" ||
					(g.kind(p) == "variable_declarator" && g.field(p, "name") == n)) {
					return true // the binding itself
				}
				if ub, found := r.x.lookup(g, n, local); !found || (ub.kind != bImport && !im.req) || (im.req && (ub.kind != bDecl || !g.contains(ub.decl, im.node))) {
					return true // another binding of the same name
				}
				use := n
				if ns {
					p := g.parent(n)
					if p < 0 || g.kind(p) != "member_expression" || g.field(p, "object") != n {
						if g.kind(p) == "member_expression" || g.kind(p) == "subscript_expression" {
							if mutKey(g, p) != "*" {
								return true
							}
						}
						var c mutChange
						if call != nil {
							ch, ok = mutChange{g, n, "the function returning the object is used other than called"}, false
							return false
						}
						if _, c, ok = r.useChanges(g, n, append([]string{name}, path...)); !ok {
							ch = c
						}
						return ok
					}
					if g.text(g.field(p, "property")) != name {
						return true
					}
					use = p
				}
				if call != nil {
					if c, good := call(g, use); !good {
						ch, ok = c, false
						return false
					}
					return true
				}
				d, c, good := r.useChanges(g, use, path)
				if !good {
					ch, ok = c, false
					return false
				}
				del = append(del, d...)
				return true
			})
			if !ok {
				return del, ch, false
			}
		}
	}
	return del, ch, true
}

// mutImportLocal is the local name an import binds f's exported name to
// (ns when it is bound to the whole module), or why the import is not read.
func mutImportLocal(g *file, im importFact, name string) (local string, ns bool, refuse string) {
	hit := false
	for _, nm := range im.names {
		if nm == name || nm == "*" || nm == "default" {
			hit = true
		}
	}
	if !hit && !im.req {
		return "", false, ""
	}
	if im.req {
		d := im.node
		for i := 0; i < 8 && d >= 0 && g.kind(d) != "variable_declarator"; i++ {
			switch g.kind(g.parent(d)) {
			case "parenthesized_expression", "await_expression", "call_expression", "arguments", "variable_declarator":
				d = g.parent(d)
			default:
				d = none
			}
		}
		if d < 0 || g.kind(d) != "variable_declarator" {
			return "", false, "a module exporting the name is required where its value is not a name"
		}
		nm := g.field(d, "name")
		switch g.kind(nm) {
		case "identifier":
			return g.text(nm), true, ""
		case "object_pattern":
			for _, c := range g.named(nm) {
				switch g.kind(c) {
				case "shorthand_property_identifier_pattern":
					if g.text(c) == name {
						return name, false, ""
					}
				case "pair_pattern":
					if propKeyName(g, g.field(c, "key")) == name {
						if v := g.field(c, "value"); g.kind(v) == "identifier" {
							return g.text(v), false, ""
						}
						return "", false, "the name is required into a pattern not read"
					}
				case "comment":
				default:
					return "", false, "the name is required into a pattern not read"
				}
			}
			return "", false, ""
		}
		return "", false, "the name is required into a pattern not read"
	}
	var found string
	var isNS bool
	g.walk(im.node, func(n nid) bool {
		switch g.kind(n) {
		case "import_specifier":
			imported := g.field(n, "name")
			if g.text(imported) == name {
				found = g.text(imported)
				if a := g.field(n, "alias"); a >= 0 {
					found = g.text(a)
				}
			}
			return false
		case "namespace_import":
			for _, c := range g.named(n) {
				if g.kind(c) == "identifier" {
					found, isNS = g.text(c), true
				}
			}
			return false
		}
		return true
	})
	return found, isNS, ""
}

// useChanges classifies one use n of the name (or the expression standing
// for the object, for a namespace member): path is where the object read
// is below the name.
func (r *schemaRead) useChanges(f *file, n nid, path []string) (del []string, ch mutChange, ok bool) {
	no := func(at nid, why string) ([]string, mutChange, bool) {
		return nil, mutChange{f, at, why}, false
	}
	copied := r.copyOwnMember(f, n) // n names a shallow copy (schematext_mut_spread.go)
	if f.kind(n) == "shorthand_property_identifier" {
		// { m }: the object put into another literal.
		return r.containerUse(f, n, path)
	}
	n = mutOuter(f, n)
	p := f.parent(n)
	if p < 0 {
		return no(n, "the object is used where the reading does not follow")
	}
	var keys []string
	top, last := n, none
	for i := 0; i < mutDepthLimit; i++ {
		q := f.parent(top)
		if q >= 0 && (f.kind(q) == "member_expression" || f.kind(q) == "subscript_expression") && f.field(q, "object") == top {
			keys = append(keys, mutKey(f, q))
			last = q
			top = mutOuter(f, q)
			continue
		}
		break
	}
	q := f.parent(top)
	if len(keys) > 0 && keys[0] == "length" && f.kind(f.parent(n)) == "member_expression" {
		// The length of an array or a text is a number, never the object
		// or one of its elements (the path's "*" stands for an element).
		if o := r.x.eval(f, n, nil); o.k == vArray || o.k == vText {
			return nil, mutChange{}, true
		}
	}
	agree := keys
	if len(keys) > 0 && f.kind(q) == "call_expression" && f.field(q, "function") == top {
		agree = keys[:len(keys)-1] // a method reaches its receiver through this
	}
	if len(keys) > 0 && !mutAgree(agree, path) {
		return nil, mutChange{}, true // a member under another key
	}
	if len(keys) > 0 {
		switch f.kind(q) {
		case "unary_expression":
			if f.text(f.field(q, "operator")) == "delete" {
				if copied && len(keys) == 1 {
					return nil, mutChange{}, true // the copy's own member
				}
				if len(keys) != len(path)+1 {
					return no(q, "a member of the object is deleted")
				}
				ks, named := r.deletedKey(f, last, nil)
				if !named {
					return no(q, "a member of the object is deleted under a key not named")
				}
				return ks, mutChange{}, true
			}
			return nil, mutChange{}, true
		case "assignment_expression", "augmented_assignment_expression":
			if f.field(q, "left") == top && !(copied && len(keys) == 1) {
				return no(q, "a member of the object is written")
			}
			return nil, mutChange{}, true
		case "update_expression":
			if copied && len(keys) == 1 {
				return nil, mutChange{}, true // the copy's own member
			}
			return no(q, "a member of the object is incremented")
		case "spread_element":
			// { ...m.k }: a copy holding the object's members (schematext_mut_spread.go).
			if r.readingAt(f, top) {
				return nil, mutChange{}, true
			}
			if len(keys) <= len(path) {
				return r.spreadUse(f, q, path[len(keys):])
			}
			if r.primitiveMember(f, top) {
				return nil, mutChange{}, true
			}
			return r.spreadUse(f, q, nil)
		case "for_in_statement":
			if f.field(q, "right") == top && len(keys) <= len(path) {
				return r.loopUse(f, q, path[len(keys):]) // schematext_mut_wrap.go
			} else if f.field(q, "right") == top {
				return r.loopUse(f, q, nil)
			}
			return no(q, "a member of the object is a loop's target")
		case "call_expression":
			if f.field(q, "function") == top {
				var rest []string
				if len(keys)-1 <= len(path) {
					rest = path[len(keys)-1:]
				}
				if c, good := r.methodReads(f, q, last, len(keys)-1 > len(path), rest); !good {
					return nil, c, false
				}
			}
			return nil, mutChange{}, true
		case "arguments":
			// The object read, or one holding it, handed to a call; a member
			// below it handed to a function of the package (which may
			// write its parameter's members).
			var rest []string
			if len(keys) <= len(path) {
				rest = path[len(keys):]
			}
			if ok, why := r.argumentReads(f, top, q, rest); !ok && (len(keys) <= len(path) || r.packageFunction(f, f.parent(q)) || mutWriters[f.text(f.field(f.parent(q), "function"))]) {
				return no(q, why)
			}
			return nil, mutChange{}, true
		case "pair", "array", "shorthand_property_identifier", "variable_declarator", "assignment_pattern", "return_statement", "arrow_function":
			if len(keys) <= len(path) && f.kind(q) == "variable_declarator" && f.field(q, "value") == top && f.kind(f.field(q, "name")) == "identifier" {
				// const d = table[k]: d's uses are the object's, below.
				return r.declChanges(f, q, path[len(keys):])
			}
			if len(keys) <= len(path) && f.kind(q) == "variable_declarator" && f.field(q, "value") == top && f.kind(f.field(q, "name")) == "object_pattern" {
				return r.patternUse(f, q, path[len(keys):]) // const { a, ...o } = m.k (schematext_mut_wrap.go)
			}
			if len(keys) <= len(path) {
				// The object read (or one holding it) handed on.
				if f.kind(q) == "pair" || f.kind(q) == "array" {
					return r.containerUse(f, top, path[len(keys):])
				}
				if f.kind(q) == "return_statement" || (f.kind(q) == "arrow_function" && f.field(q, "body") == top) {
					// Returned: the site's answer, or its callers, as for the
					// object itself (schematext_mut_top.go).
					if r.siteCallbackReturn(f, q) || r.dispatcherAnswer(f, q) {
						return nil, mutChange{}, true
					}
					if c, good, known := r.returnCallers(f, q, path[len(keys):]); known {
						return nil, c, good
					}
				}
				return no(top, "a member holding the object is handed on")
			}
			// A member inside the object given a name or put into a
			// literal: a part of the object, its uses followed as the
			// object's (any change through it is a change), unless it is
			// a text, a number or a boolean (nothing to change).
			if r.primitiveMember(f, top) {
				return nil, mutChange{}, true
			}
			if f.kind(q) == "variable_declarator" && f.field(q, "value") == top && f.kind(f.field(q, "name")) == "identifier" {
				return r.declChanges(f, q, nil)
			}
			if f.kind(q) == "pair" || f.kind(q) == "array" {
				return r.containerUse(f, top, nil)
			}
			return no(top, "a member of the object is handed on")
		}
		return nil, mutChange{}, true // a member read as a value
	}
	if f.kind(p) == "spread_element" && !r.readingAt(f, n) {
		return r.spreadUse(f, p, path) // { ...m }: a copy holding m's members (schematext_mut_spread.go)
	}
	switch f.kind(p) {
	case "spread_element", "type_query", "for_in_statement", "binary_expression", "ternary_expression", "if_statement", "template_substitution":
		if (f.kind(p) == "ternary_expression" && f.field(p, "condition") != n) ||
			(f.kind(p) == "binary_expression" && mutLogical[f.text(f.field(p, "operator"))]) {
			// cond ? m : o, m || o, m ?? o: the value may be the object,
			// followed as the object.
			return r.nestedUse(f, p, path)
		}
		if f.kind(p) == "for_in_statement" && f.field(p, "right") != n {
			return no(p, "the name is a loop's target")
		}
		if f.kind(p) == "for_in_statement" {
			return r.loopUse(f, p, path) // for (t of m): elements (schematext_mut_wrap.go)
		}
		return nil, mutChange{}, true
	case "unary_expression":
		switch f.text(f.field(p, "operator")) {
		case "typeof", "!", "void":
			return nil, mutChange{}, true
		}
		return no(p, "the object is deleted or changed by an operator")
	case "arguments":
		if ok, why := r.argumentReads(f, n, p, path); !ok {
			return no(p, why)
		}
		return nil, mutChange{}, true
	case "pair", "array":
		if f.kind(p) == "pair" && f.field(p, "value") != n {
			return no(p, "the object is used as a key")
		}
		return r.containerUse(f, n, path)
	case "assignment_expression", "augmented_assignment_expression":
		if f.field(p, "left") == n && copied {
			return nil, mutChange{}, true // the copy's name bound again: the object is not changed
		}
		if f.field(p, "left") == n {
			return no(p, "the name is assigned again")
		}
		if f.field(p, "right") == n && f.kind(f.field(p, "left")) == "identifier" {
			return r.assignedLocal(f, p, path) // let x; x = m (schematext_mut_express.go)
		}
		return no(p, "the object is assigned to another name")
	case "update_expression":
		return no(p, "the name is incremented")
	case "variable_declarator":
		if f.field(p, "value") == n && f.kind(f.field(p, "name")) == "identifier" {
			// const a = m: a's uses are the object's.
			return r.declChanges(f, p, path)
		}
		if f.field(p, "value") == n && f.kind(f.field(p, "name")) == "object_pattern" {
			return r.patternUse(f, p, path) // const { a, ...o } = m (schematext_mut_wrap.go)
		}
		return no(p, "the object is given another name")
	case "return_statement", "arrow_function", "yield_expression":
		if r.siteCallbackReturn(f, p) || r.dispatcherAnswer(f, p) { // schematext_mut_top.go
			return nil, mutChange{}, true // the list a registration's handler returns
		}
		if name := tscReexportGetter(f, p); name != "" {
			// Object.defineProperty(exports, "X", { get: function () { return m; } })
			return r.cjsExportChanges(f, none, name, path)
		}
		if f.kind(p) != "yield_expression" {
			if c, good, known := r.returnCallers(f, p, path); known {
				return nil, c, good
			}
		}
		return no(p, "the object is returned")
	case "export_specifier":
		return nil, mutChange{}, true
	}
	return no(p, "the object is used as "+f.kind(p)+", not followed")
}

// mutOuter climbs the wrappers around an expression.
func mutOuter(f *file, n nid) nid {
	for i := 0; i < mutDepthLimit; i++ {
		p := f.parent(n)
		switch f.kind(p) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "type_assertion":
			n = p
			continue
		}
		break
	}
	return n
}

// containerUse classifies an object put into object and array literals (n
// the use, rest where the object read is below it): inside the arguments
// of a registration call, a zod method or esbuild's spread helpers it is
// read; inside a literal held by a declared name, that name's uses are
// classified for the object under the keys that lead to it; anywhere else
// the object is handed on.
func (r *schemaRead) containerUse(f *file, n nid, rest []string) (del []string, ch mutChange, ok bool) {
	var keys []string
	for i := 0; i < mutDepthLimit; i++ {
		p := f.parent(n)
		if p < 0 {
			break
		}
		switch f.kind(p) {
		case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression", "object":
		case "array":
			keys = append([]string{"*"}, keys...)
		case "pair":
			if f.field(p, "value") != n {
				return nil, mutChange{f, p, "the object is used as a key"}, false
			}
			k := f.field(p, "key")
			key := "*"
			if f.kind(k) != "computed_property_name" {
				key = propKeyName(f, k)
			}
			keys = append([]string{key}, keys...)
		case "arguments":
			if good, why := r.argumentReads(f, n, p, append(keys, rest...)); !good {
				return nil, mutChange{f, p, why}, false
			}
			return nil, mutChange{}, true
		case "variable_declarator":
			if f.field(p, "value") != n || f.kind(f.field(p, "name")) != "identifier" {
				return nil, mutChange{f, p, "the object is put into a literal destructured"}, false
			}
			return r.declChanges(f, p, append(keys, rest...))
		case "assignment_expression":
			if name := cjsExportName(f, f.field(p, "left")); name != "" && f.field(p, "right") == n {
				// exports.X = { … }: every use of exports.X in the file and
				// of X in the files requiring or importing it.
				return r.cjsExportChanges(f, p, name, append(keys, rest...))
			}
			if f.field(p, "right") == n && f.kind(f.field(p, "left")) == "identifier" {
				return r.assignedLocal(f, p, append(keys, rest...)) // let x; x = { k: m } (schematext_mut_express.go)
			}
			return nil, mutChange{f, p, "the object is put into a literal that is handed on"}, false
		case "return_statement", "arrow_function":
			if r.siteCallbackReturn(f, p) || r.dispatcherAnswer(f, p) { // schematext_mut_top.go
				return nil, mutChange{}, true
			}
			if c, good, known := r.returnCallers(f, p, append(keys, rest...)); known {
				return nil, c, good
			}
			return nil, mutChange{f, p, "the object is put into a literal that is returned"}, false
		default:
			return nil, mutChange{f, p, "the object is put into a literal that is handed on"}, false
		}
		n = p
	}
	return nil, mutChange{f, n, "the object is put into a literal not followed"}, false
}

// registrationCall reports whether call is one of f's registration sites.
func (r *schemaRead) registrationCall(f *file, call nid) bool {
	if call < 0 || f.facts == nil || r.wrapperSite(f, call) || r.notSDKHandlerSite(f, call) { // schematext_mut_wrap.go
		return false
	}
	for _, s := range f.facts.sites {
		if s.n == call {
			return true
		}
	}
	return false
}

// argumentReads reports whether an argument n of the call around args only
// reads the object: a registration call, a zod builder, a builtin that
// reads, a source of Object.assign.
func (r *schemaRead) argumentReads(f *file, n, args nid, rest []string) (bool, string) {
	call := f.parent(args)
	if call < 0 {
		return false, "the object is an argument of a call not read"
	}
	if r.registrationCall(f, call) || r.esbuildExportTarget(f, n, call) || r.collectionTest(f, call) || r.expressSend(f, n, call) { // schematext_mut_top.go, schematext_mut_express.go
		return true, ""
	}
	callee := f.field(call, "function")
	ct := f.text(callee)
	if mutReaders[ct] {
		return true, ""
	}
	if ct == "Object.assign" {
		if a := f.args(call); len(a) > 0 && a[0] != n {
			return true, ""
		}
		return false, "the object is the target of Object.assign"
	}
	if f.kind(call) == "call_expression" && f.kind(callee) == "member_expression" && r.zodReceiver(f, f.field(callee, "object")) {
		return true, "" // zod keeps or copies what it is given, never writes it
	}
	if f.kind(call) == "call_expression" && r.x.esbuildSpreadCall(f, call) {
		return true, "" // a spread, lowered (schematext_esbuild.go)
	}
	if f.kind(call) == "call_expression" && r.x.sdkFromJSONSchema(f, call) {
		return true, "" // the v2 SDK's fromJsonSchema(S) keeps S as it is (schematext_sdk.go)
	}
	if good, why, known := r.mapConstructed(f, n, call, rest); known { // schematext_mut_wrap.go
		return good, why
	}
	if f.kind(call) == "call_expression" {
		if c, good, known := r.calleeReads(f, call, n, rest); known {
			if good {
				return true, ""
			}
			return false, c.reason + " (in " + c.f.path + ":" + strconv.Itoa(c.f.lineOf(c.at)) + ")"
		}
	}
	if ct != "" && len(ct) < 64 {
		return false, "the object is handed to " + ct + "(…), which may change it"
	}
	return false, "the object is handed to a call, which may change it"
}

// zodReceiver reports whether recv (the receiver of a zod method) is zod's
// namespace or a schema built from it.
func (r *schemaRead) zodReceiver(f *file, recv nid) bool {
	root := schemaChainRoot(f, recv)
	if r.zodRoot(f, root, nil) {
		return true
	}
	if f.kind(root) != "identifier" && f.kind(root) != "member_expression" {
		return false
	}
	v := r.x.eval(f, root, nil)
	if v.f == nil || v.n < 0 || v.f.kind(v.n) != "call_expression" {
		return false
	}
	return r.zodRoot(v.f, schemaChainRoot(v.f, v.n), v.env)
}

// unchanged checks the object v the schema reading reached at n (a name, a
// member, a spread's argument): both the name written at n and the
// declared name holding v's literal. A use that may change the object is a
// gap at n naming the use and its place, and unchanged is false; keys the
// package deletes from the literal are kept for members (r.deleted).
func (r *schemaRead) unchanged(f *file, n nid, v val) bool {
	if v.f == nil || v.n < 0 || (v.f.kind(v.n) != "object" && v.f.kind(v.n) != "array") {
		return true // a schema built by a call: its shape is read where it is written
	}
	if frozenNamespace(v.f, v.n) {
		return true // Object.freeze({ object: objectType, … }): a bundled namespace
	}
	if v.f.inVendoredRegion(v.n) {
		return true // bundled third-party code (a bundled zod's namespace object)
	}
	savedF, saved := r.mutAtF, r.mutAt
	r.mutAtF, r.mutAt = f, n // the reading's own use (schematext_mut_spread.go)
	del, ch, ok := r.nameChanges(f, n)
	if ok {
		var d []string
		d, ch, ok = r.literalChanges(v.f, v.n)
		del = append(del, d...)
	}
	r.mutAtF, r.mutAt = savedF, saved
	if !ok {
		r.gap(f, n, "schema object changed after it is built: "+ch.reason+" at "+ch.f.path+":"+strconv.Itoa(ch.f.lineOf(ch.at)))
		return false
	}
	if len(del) > 0 && v.f != nil && v.n >= 0 && v.f.kind(v.n) == "object" {
		if r.deleted == nil {
			r.deleted = map[progKey][]string{}
		}
		k := progKey{v.f, v.n, nil}
		r.deleted[k] = append(r.deleted[k], del...)
	}
	return true
}

// withoutDeleted wraps each so a member under a key the package deletes
// from the literal is left out (a gap unless it carries no text).
func (r *schemaRead) withoutDeleted(del []string, each func(key string, g *file, v nid, ge *env)) func(key string, g *file, v nid, ge *env) {
	if len(del) == 0 {
		return each
	}
	return func(key string, g *file, m nid, ge *env) {
		for _, d := range del {
			if d == key {
				if !literalValue(g, m) {
					r.gap(g, m, "schema member deleted by the package ("+key+") not read")
				}
				return
			}
		}
		each(key, g, m, ge)
	}
}

// packageFunction reports whether the callee of call resolves to a function
// written in the package.
func (r *schemaRead) packageFunction(f *file, call nid) bool {
	if call < 0 || f.kind(call) != "call_expression" {
		return false
	}
	v := r.x.eval(f, f.field(call, "function"), nil)
	return v.f != nil && v.n >= 0 && functionKind(v.f.kind(v.n))
}

// mutReadMethods are the methods of arrays and objects that change neither
// the receiver nor its elements (a callback given to one is read for what it
// does to its parameters); mutHolding return some of the receiver's
// elements, so their result is followed as the receiver is.
var (
	mutReadMethods = map[string]bool{
		"map": true, "filter": true, "forEach": true, "find": true, "findIndex": true, "findLast": true, "findLastIndex": true,
		"some": true, "every": true, "flatMap": true, "includes": true, "indexOf": true, "lastIndexOf": true, "slice": true,
		"concat": true, "join": true, "at": true, "keys": true, "values": true, "entries": true, "hasOwnProperty": true,
		"toString": true, "propertyIsEnumerable": true,
	}
	mutHolding = map[string]bool{"filter": true, "find": true, "findLast": true, "slice": true, "concat": true, "at": true, "values": true, "entries": true, "flatMap": true}
)

// methodReads classifies a method called on the object, or on a member
// holding it (below: on a member inside it): a zod schema's method reads;
// a method that only reads reads, its callbacks' parameters followed as the
// object (any change of an element is a change) and a result holding
// elements followed as the object; any other method may change it.
func (r *schemaRead) methodReads(f *file, call, member nid, below bool, rest []string) (mutChange, bool) {
	no := mutChange{f, call, "a method of the object is called"}
	if member < 0 || f.kind(member) != "member_expression" {
		return no, false
	}
	recv := f.field(member, "object")
	if r.zodReceiver(f, recv) {
		return mutChange{}, true // a zod schema's method returns a new schema
	}
	method := f.text(f.field(member, "property"))
	if r.pushBelowElement(f, member, below, rest) { // schematext_mut_top.go
		return mutChange{}, true
	}
	if !mutReadMethods[method] && r.thislessMethod(f, member) {
		// The package's own function, which cannot reach the object
		// through this; its arguments are uses of their own.
		return mutChange{}, true
	}
	if !mutReadMethods[method] {
		no.reason = "a method of the object is called (" + method + ")"
		return no, false
	}
	if r.mutDepth >= mutNestLimit {
		return mutChange{f, call, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " calls"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	// An element is the object's member under rest's first key (any
	// element when the receiver is the object itself: nil, the whole).
	var elem []string
	if len(rest) > 0 && !below {
		elem = rest[1:]
	}
	whole := rest
	if below {
		whole = nil
	}
	mapCall := none
	if method == "map" || method == "flatMap" {
		mapCall = call // its result holds the callback's returns (mapReturn)
	}
	for _, a := range f.args(call) {
		a = unparen(f, a)
		g, fn := f, a
		if cb := r.namedCallback(f, a); cb.f != nil { // schematext_mut_wrap.go
			g, fn = cb.f, cb.n
		}
		switch {
		case functionKind(g.kind(fn)):
			for i, pr := range [][]string{elem, nil, whole} {
				if i == 1 {
					continue // the index
				}
				if _, c, good := r.framedParamChanges(g, fn, i, pr, f, mapCall); !good { // schematext_mut_wrap.go
					return c, false
				}
			}
		case literalValue(f, a):
		default:
			return mutChange{f, a, "a method of the object is called with an argument not read"}, false
		}
	}
	if mutHolding[method] {
		res := whole
		if method == "find" || method == "findLast" || method == "at" {
			res = elem
		}
		if _, c, good := r.useChanges(f, call, res); !good {
			return c, false
		}
	}
	return mutChange{}, true
}

// calleeReads reads a call of a function of the package with the object as
// its argument n: known when the callee resolves to a function written in
// the package; good when the parameter n binds is a plain name whose uses in
// the function only read the object (rest is where the object read is below
// the argument).
func (r *schemaRead) calleeReads(f *file, call, n nid, rest []string) (ch mutChange, good, known bool) {
	v := r.x.eval(f, f.field(call, "function"), nil)
	if v.f == nil || v.n < 0 || !functionKind(v.f.kind(v.n)) {
		return mutChange{}, false, false
	}
	idx := -1
	for i, a := range f.args(call) {
		if a == n || f.contains(a, n) {
			if a != n && mutOuter(f, n) != a && unparen(f, a) != n {
				return mutChange{f, a, "the object is handed to a function of the package inside an expression"}, false, true
			}
			idx = i
		}
		if f.kind(a) == "spread_element" {
			return mutChange{f, a, "the object is handed to a function of the package with a spread argument"}, false, true
		}
	}
	if idx < 0 {
		return mutChange{f, call, "the object is handed to a function of the package"}, false, true
	}
	if r.mutDepth >= mutNestLimit {
		return mutChange{f, call, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " calls"}, false, true
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	// The argument's literal, when it is one held by a name: a method
	// called on the parameter is then looked up in it (thislessMethod).
	if av := r.x.eval(f, f.args(call)[idx], nil); av.f != nil && av.n >= 0 && av.f.kind(av.n) == "object" {
		if p := mutParamID(v.f, v.n, idx); p >= 0 {
			if r.mutArgs == nil {
				r.mutArgs = map[progKey]val{}
			}
			k := progKey{v.f, p, nil}
			prev, had := r.mutArgs[k]
			r.mutArgs[k] = av
			defer func() {
				if had {
					r.mutArgs[k] = prev
				} else {
					delete(r.mutArgs, k)
				}
			}()
		}
	}
	_, ch, good = r.framedParamChanges(v.f, v.n, idx, rest, nil, none)
	return ch, good, true
}

// paramChanges classifies the uses, in function fn, of its parameter at
// index idx as uses of the object (at rest below it). A parameter that is
// not a plain name, a function using arguments, is a change; a missing
// parameter receives nothing.
func (r *schemaRead) paramChanges(f *file, fn nid, idx int, rest []string) (del []string, ch mutChange, ok bool) {
	var params []nid
	if p := f.field(fn, "parameter"); p >= 0 {
		params = []nid{p}
	} else if ps := f.field(fn, "parameters"); ps >= 0 {
		params = nonComment(f, ps)
	}
	if idx >= len(params) {
		return nil, mutChange{}, true
	}
	p := params[idx]
	if q := p; f.kind(q) == "object_pattern" || (f.kind(q) == "required_parameter" && f.kind(f.field(q, "pattern")) == "object_pattern") {
		if f.kind(q) == "required_parameter" {
			q = f.field(q, "pattern")
		}
		// ({ a, b }) => …: the names bound, as a declaration's pattern
		// (schematext_mut_wrap.go), after the arguments check below.
		for _, n := range r.x.usesOf(f, fn, "arguments") {
			if b, found := r.x.lookup(f, n, "arguments"); !found || b.kind == bParam && b.fn == fn {
				return nil, mutChange{f, n, "a function handed the object reads its arguments"}, false
			}
		}
		return r.patternFollow(f, q, fn, rest)
	}
	switch f.kind(p) {
	case "identifier":
	case "required_parameter", "optional_parameter":
		p = f.field(p, "pattern")
		if p < 0 || f.kind(p) != "identifier" {
			return nil, mutChange{f, params[idx], "the object is handed to a parameter that is not a plain name"}, false
		}
	default:
		return nil, mutChange{f, p, "the object is handed to a parameter that is not a plain name"}, false
	}
	name := f.text(p)
	ok = true
	for _, n := range r.x.usesOf(f, fn, "arguments") {
		if b, found := r.x.lookup(f, n, "arguments"); !found || b.kind == bParam && b.fn == fn {
			return nil, mutChange{f, n, "a function handed the object reads its arguments"}, false
		}
	}
	ch, ok = r.bindingUses(f, fn, p, name, func(b binding) bool { return b.kind == bParam && b.id == p }, func(n nid) (mutChange, bool) {
		d, c, good := r.useChanges(f, n, rest)
		if good {
			del = append(del, d...)
		}
		return c, good
	})
	return del, ch, ok
}

// mutLogical are the operators whose value may be an operand.
var mutLogical = map[string]bool{"||": true, "??": true, "&&": true}

// nestedUse follows an expression whose value may be the object as a use of
// it, bounded by mutNestLimit.
func (r *schemaRead) nestedUse(f *file, n nid, path []string) (del []string, ch mutChange, ok bool) {
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, n, "the object is followed through more than " + strconv.Itoa(mutNestLimit) + " expressions"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	return r.useChanges(f, n, path)
}

// cjsExportName is X for exports.X or module.exports.X, else "".
func cjsExportName(f *file, left nid) string {
	if f.kind(left) != "member_expression" {
		return ""
	}
	switch f.text(f.field(left, "object")) {
	case "exports", "module.exports":
		return f.text(f.field(left, "property"))
	}
	return ""
}

// cjsExportChanges classifies the uses of a CommonJS export X (assigned at
// assign): exports.X read in its file as a use of the object, and X in every
// file of the package importing or requiring it.
func (r *schemaRead) cjsExportChanges(f *file, assign nid, name string, path []string) (del []string, ch mutChange, ok bool) {
	if r.mutDepth >= mutNestLimit {
		return nil, mutChange{f, 0, "the object is held through more than " + strconv.Itoa(mutNestLimit) + " literals"}, false
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	ok = true
	left := none
	if assign >= 0 {
		left = f.field(assign, "left")
	}
	var exps []nid
	for _, e := range r.x.usesOf(f, 0, "exports") {
		if m := f.parent(e); m >= 0 && f.kind(m) == "member_expression" && f.field(m, "object") == e {
			exps = append(exps, m)
		}
	}
	for _, e := range r.x.usesOf(f, 0, "module") {
		if m := f.parent(e); m >= 0 && f.kind(m) == "member_expression" && f.field(m, "object") == e && f.text(f.field(m, "property")) == "exports" {
			if mm := f.parent(m); mm >= 0 && f.kind(mm) == "member_expression" && f.field(mm, "object") == m {
				exps = append(exps, mm)
			}
		}
	}
	mutEach(exps, func(n nid) bool {
		if r.mutTick() {
			ch, ok = mutLimitPassed(f, n), false
			return false
		}
		if n == left || cjsExportName(f, n) != name {
			return true
		}
		if p := f.parent(n); f.kind(p) == "assignment_expression" && f.field(p, "left") == n && voidChain(f, f.field(p, "right")) {
			return true // tsc's exports.X = exports.Y = void 0 before the assignment
		}
		d, c, good := r.useChanges(f, n, path)
		if !good {
			ch, ok = c, false
			return false
		}
		del = append(del, d...)
		return true
	})
	if !ok {
		return del, ch, false
	}
	d, c, good := r.importerChanges(f, name, path)
	return append(del, d...), c, good
}

// thislessMethod reports whether the method member calls resolves to a
// function of the package that cannot reach its receiver: an arrow
// function, or a function whose body has no this outside nested functions.
func (r *schemaRead) thislessMethod(f *file, member nid) bool {
	if r.thislessInLoop(f, member) { // schematext_mut_top.go
		return true
	}
	v := r.x.eval(f, member, nil)
	if (v.f == nil || v.n < 0) && r.thislessInTable(f, member) {
		return true
	}
	if recv := f.field(member, "object"); f.kind(recv) == "identifier" && f.kind(f.field(member, "property")) == "property_identifier" {
		// p.m() with p a parameter bound to a literal of the package
		// (calleeReads): the literal's member m.
		if b, found := r.x.lookup(f, recv, f.text(recv)); found && b.kind == bParam {
			if av, ok := r.mutArgs[progKey{f, b.id, nil}]; ok {
				v = val{}
				name := f.text(f.field(member, "property"))
				for _, c := range av.f.named(av.n) {
					if av.f.kind(c) == "pair" && propKeyName(av.f, av.f.field(c, "key")) == name {
						v = val{f: av.f, n: av.f.field(c, "value")}
					}
					if av.f.kind(c) == "spread_element" || (av.f.kind(c) == "method_definition" && av.f.text(av.f.field(c, "name")) == name) {
						return false
					}
				}
			}
		}
	}
	if v.f == nil || v.n < 0 || !functionKind(v.f.kind(v.n)) {
		return false
	}
	return thislessFunction(v.f, v.n)
}

// thislessFunction reports whether fn is an arrow function, or a function
// with no this, super or arguments outside nested functions.
func thislessFunction(g *file, fn nid) bool {
	if g.kind(fn) == "arrow_function" {
		return true
	}
	uses := false
	g.walk(fn, func(n nid) bool {
		if uses {
			return false
		}
		if n != fn && functionKind(g.kind(n)) && g.kind(n) != "arrow_function" {
			return false
		}
		if g.kind(n) == "this" || g.kind(n) == "super" || (g.kind(n) == "identifier" && g.text(n) == "arguments") {
			uses = true
		}
		return true
	})
	return !uses
}

// frozenNamespace reports whether the object literal lit is the argument of
// Object.freeze and every member is a name, a getter of a name or a literal
// (a bundle's namespace object,
// `Object.freeze({ __proto__: null, object: objectType, … })`): no member
// can be written, deleted or added, and no member is an object literal of
// its own (one reached through a name is checked where it is read).
func frozenNamespace(f *file, lit nid) bool {
	if f.kind(lit) != "object" {
		return false
	}
	args := f.parent(mutOuter(f, lit))
	if args < 0 || f.kind(args) != "arguments" || f.text(f.field(f.parent(args), "function")) != "Object.freeze" {
		return false
	}
	for _, c := range f.named(lit) {
		switch f.kind(c) {
		case "comment", "shorthand_property_identifier":
		case "method_definition":
			// get util () { return lib_util; }: a getter of a name.
			body := f.field(c, "body")
			st := nonComment(f, body)
			if !strings.HasPrefix(f.text(c), "get ") || len(st) != 1 || f.kind(st[0]) != "return_statement" {
				return false
			}
			if rv := nonComment(f, st[0]); len(rv) != 1 || f.kind(rv[0]) != "identifier" {
				return false
			}
		case "pair":
			switch f.kind(f.field(c, "value")) {
			case "identifier", "null", "undefined", "string", "number", "true", "false":
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// tscReexportGetter is X when ret (a return, or an arrow's body) is the
// return of the getter tsc writes for a re-export,
// Object.defineProperty(exports, "X", { enumerable: true, get: function () { return m.X; } }).
func tscReexportGetter(f *file, ret nid) string {
	fn := ret
	if f.kind(fn) != "arrow_function" {
		fn = f.parent(ret) // the body
		if fn < 0 || f.kind(fn) != "statement_block" || len(nonComment(f, fn)) != 1 {
			return ""
		}
		fn = f.parent(fn)
	}
	if fn < 0 || !functionKind(f.kind(fn)) {
		return ""
	}
	pair := f.parent(fn)
	if pair < 0 || f.kind(pair) != "pair" || propKeyName(f, f.field(pair, "key")) != "get" {
		return ""
	}
	args := f.parent(f.parent(pair))
	if args < 0 || f.kind(args) != "arguments" || f.text(f.field(f.parent(args), "function")) != "Object.defineProperty" {
		return ""
	}
	a := f.args(f.parent(args))
	if len(a) != 3 || f.text(a[0]) != "exports" || f.parent(f.parent(pair)) != args || a[2] != f.parent(pair) {
		return ""
	}
	name, lit := f.stringValue(a[1])
	if !lit || f.kind(a[1]) != "string" {
		return ""
	}
	return name
}

// voidChain reports whether n is void 0, or an assignment chain ending in it
// (tsc's exports.A = exports.B = void 0).
func voidChain(f *file, n nid) bool {
	for i := 0; i < 4096 && n >= 0; i++ {
		if isVoid0(f, n) {
			return true
		}
		if f.kind(n) != "assignment_expression" {
			return false
		}
		n = f.field(n, "right")
	}
	return false
}

// tscExportStar reports whether req (a require call) is the first argument
// of tsc's __exportStar(require("./m"), exports).
func tscExportStar(f *file, req nid) bool {
	args := f.parent(mutOuter(f, req))
	if args < 0 || f.kind(args) != "arguments" {
		return false
	}
	call := f.parent(args)
	a := f.args(call)
	callee := f.text(f.field(call, "function"))
	return (callee == "__exportStar" || strings.HasSuffix(callee, ".__exportStar")) && len(a) == 2 && a[0] == mutOuter(f, req) && f.text(a[1]) == "exports"
}

// siteCallbackReturn reports whether ret (a return, or an arrow's body)
// returns from a function written as an argument of a registration call
// (the handler of tools/list returns the list the server sends).
func (r *schemaRead) siteCallbackReturn(f *file, ret nid) bool {
	fn := ret
	for i := 0; i < mutDepthLimit && fn >= 0 && !functionKind(f.kind(fn)); i++ {
		fn = f.parent(fn)
	}
	if fn < 0 || !functionKind(f.kind(fn)) {
		return false
	}
	fn = asyncLoweredOuter(f, fn) // schematext_mut_top.go
	args := f.parent(mutOuter(f, fn))
	return args >= 0 && f.kind(args) == "arguments" && r.registrationCall(f, f.parent(args))
}

// mutParamID is the identifier of fn's parameter at idx when it is a plain
// name, else none.
func mutParamID(f *file, fn nid, idx int) nid {
	var params []nid
	if p := f.field(fn, "parameter"); p >= 0 {
		params = []nid{p}
	} else if ps := f.field(fn, "parameters"); ps >= 0 {
		params = nonComment(f, ps)
	}
	if idx >= len(params) {
		return none
	}
	p := params[idx]
	switch f.kind(p) {
	case "identifier":
		return p
	case "required_parameter", "optional_parameter":
		if q := f.field(p, "pattern"); q >= 0 && f.kind(q) == "identifier" {
			return q
		}
	}
	return none
}

// usesOf lists the identifiers and shorthand members named name inside
// root, from the file's index (built once per file).
func (x *extractor) usesOf(f *file, root nid, name string) []nid {
	idx, ok := x.nameUses[f]
	if !ok {
		idx = map[string][]nid{}
		f.walk(0, func(n nid) bool {
			switch f.kind(n) {
			case "identifier", "shorthand_property_identifier":
				idx[f.text(n)] = append(idx[f.text(n)], n)
			}
			return true
		})
		if x.nameUses == nil {
			x.nameUses = map[*file]map[string][]nid{}
		}
		x.nameUses[f] = idx
	}
	var out []nid
	lo, hi := f.start(root), f.end(root)
	for _, n := range idx[name] {
		if f.start(n) >= lo && f.end(n) <= hi && f.contains(root, n) {
			out = append(out, n)
		}
	}
	return out
}

// bindingUses calls use, in order, for each use in scope of the binding
// whose name is declared at id: the identifiers and shorthand properties
// named name (usesOf), id itself left out, whose binding same accepts
// (another binding of the same name is another object). Each use counts
// against the schema's uses limit, past which the limit is the change. It
// stops at the first use that is a change and returns it.
func (r *schemaRead) bindingUses(f *file, scope, id nid, name string, same func(binding) bool, use func(n nid) (mutChange, bool)) (ch mutChange, ok bool) {
	ok = true
	mutEach(r.x.usesOf(f, scope, name), func(n nid) bool {
		if r.mutTick() {
			ch, ok = mutLimitPassed(f, n), false
			return false
		}
		if n == id {
			return true
		}
		if b, found := r.x.lookup(f, n, name); !found || !same(b) {
			return true
		}
		if c, good := use(n); !good {
			ch, ok = c, false
		}
		return ok
	})
	return ch, ok
}

// mutEach calls fn for each node in order, until fn returns false (a change
// was found: the uses after it are not classified).
func mutEach(ns []nid, fn func(nid) bool) {
	for _, n := range ns {
		if !fn(n) {
			return
		}
	}
}

// mutWriters are builtins that write their first argument.
var mutWriters = map[string]bool{
	"Object.assign": true, "Object.defineProperty": true, "Object.defineProperties": true, "Object.setPrototypeOf": true,
	"Reflect.set": true, "Reflect.defineProperty": true, "Reflect.deleteProperty": true, "Reflect.setPrototypeOf": true,
}

// primitiveMember reports whether the member expression m is known to hold
// a text, a number or a boolean: by the general evaluation, or, on a
// parameter bound to a literal by the call followed (mutArgs), by the
// literal's member written as such a literal.
func (r *schemaRead) primitiveMember(f *file, m nid) bool {
	m = unparen(f, m)
	if f.kind(m) != "member_expression" {
		return false
	}
	if v := r.x.eval(f, m, nil); v.k == vText || v.k == vNumber || v.k == vBool {
		return true
	}
	recv := f.field(m, "object")
	if f.kind(recv) != "identifier" || f.kind(f.field(m, "property")) != "property_identifier" {
		return false
	}
	b, found := r.x.lookup(f, recv, f.text(recv))
	if !found || b.kind != bParam {
		return false
	}
	av, ok := r.mutArgs[progKey{f, b.id, nil}]
	if !ok {
		return false
	}
	name := f.text(f.field(m, "property"))
	for _, c := range av.f.named(av.n) {
		switch av.f.kind(c) {
		case "spread_element", "method_definition":
			return false
		case "pair":
			if propKeyName(av.f, av.f.field(c, "key")) == name {
				switch av.f.kind(av.f.field(c, "value")) {
				case "string", "number", "true", "false":
					return true
				case "template_string":
					_, lit := av.f.stringValue(av.f.field(c, "value"))
					return lit
				}
				return false
			}
		}
	}
	return false
}

// thislessInTable reports whether d.m() with d declared as T[k] (an element
// of a table chosen at run time) calls, for every element of T, a function
// that cannot reach its receiver: T an object literal, every member's value
// an object literal (or a name of one) whose member m resolves to such a
// function. Bounded by the table's size.
func (r *schemaRead) thislessInTable(f *file, member nid) bool {
	recv := f.field(member, "object")
	name := f.text(f.field(member, "property"))
	if f.kind(recv) != "identifier" || f.kind(f.field(member, "property")) != "property_identifier" {
		return false
	}
	b, found := r.x.lookup(f, recv, f.text(recv))
	if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
		return false
	}
	init := unparen(f, f.field(b.decl, "value"))
	if init < 0 || f.kind(init) != "subscript_expression" {
		return false
	}
	tv := r.x.eval(f, f.field(init, "object"), nil)
	if tv.f == nil || tv.n < 0 || tv.f.kind(tv.n) != "object" {
		return false
	}
	t := tv.f
	elems := 0
	for _, c := range t.named(tv.n) {
		switch t.kind(c) {
		case "comment":
			continue
		case "pair", "shorthand_property_identifier":
		default:
			return false
		}
		ev := c
		if t.kind(c) == "pair" {
			ev = t.field(c, "value")
		}
		el := r.x.eval(t, ev, nil)
		if el.f == nil || el.n < 0 || el.f.kind(el.n) != "object" {
			return false
		}
		hit := false
		for _, m := range el.f.named(el.n) {
			switch el.f.kind(m) {
			case "spread_element":
				return false
			case "method_definition":
				if el.f.text(el.f.field(m, "name")) == name {
					return false
				}
			case "pair":
				if propKeyName(el.f, el.f.field(m, "key")) != name {
					continue
				}
				fv := r.x.eval(el.f, el.f.field(m, "value"), nil)
				if fv.f == nil || fv.n < 0 || !functionKind(fv.f.kind(fv.n)) || !thislessFunction(fv.f, fv.n) {
					return false
				}
				hit = true
			}
		}
		if !hit {
			return false
		}
		elems++
	}
	return elems > 0
}

// mutLimitPassed is the change recorded where the uses followed for one
// schema pass mutStepLimit: past it the object counts as changed.
func mutLimitPassed(f *file, n nid) mutChange {
	return mutChange{f, n, "the uses of the object passed the reading's limit of " + strconv.Itoa(mutStepLimit) + " uses"}
}

// entryFile reports whether g is one of the files package.json names
// (main, module, bin, exports), or whether no such file is known (then any
// module may be the package's entry).
func (x *extractor) entryFile(g *file) bool {
	if len(x.entryFiles) == 0 {
		return true
	}
	for _, e := range x.entryFiles {
		if e == g {
			return true
		}
	}
	return false
}
