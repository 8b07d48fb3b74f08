package surface

import (
	"slices"
	"strconv"
	"strings"
)

// progKey identifies an evaluation in progress, to stop resolution cycles.
type progKey struct {
	f *file
	n nid
	e *env
}

// step counts one resolution step against the package's budget and reports
// whether resolution may continue.
func (x *extractor) step() bool {
	if x.exceeded || x.siteOver {
		return false
	}
	x.steps++
	if x.siteLimit > 0 && x.steps > x.siteLimit {
		// One site may not spend the package's budget.
		x.siteOver = true
		return false
	}
	if x.steps > x.opts.MaxVisited {
		x.exceed("resolution steps passed the limit of " + strconv.Itoa(x.opts.MaxVisited))
		return false
	}
	if x.steps&1023 == 0 {
		x.checkBudget()
	}
	return !x.exceeded
}

// nameKey is one lookup of a module-level name across modules: a Python
// module's attribute, a JavaScript module's export, a class's attribute.
type nameKey struct {
	f    *file
	n    nid // the class, or none for a module
	name string
}

// enterName starts the lookup of name in f (or in f's class n), bounded like
// eval: a step of the budget, one level of depth, and the in-progress set, so
// a cycle of imports, re-exports or aliases ends at its first repetition with
// an unresolved value naming it. ok false means the lookup must not proceed;
// v is then the value to return. done must be called when ok is true.
func (x *extractor) enterName(f *file, n nid, name string) (v val, ok bool) {
	if !x.step() {
		return x.stepFailure(), false
	}
	key := nameKey{f, n, name}
	if x.resolving[key] {
		return unknown("import cycle: " + name + " in " + f.path + " refers back to itself"), false
	}
	if x.depth >= x.opts.MaxDepth {
		return unknown("resolution depth limit reached"), false
	}
	x.depth++
	x.resolving[key] = true
	return val{}, true
}

// valueKey is one reading of a value (a property, its elements, its
// entries) in progress: an object spread into itself, or a list that
// contains itself, meets its own key.
type valueKey struct {
	f       *file
	n       nid
	e       *env
	op, key string
}

// enterValue bounds the readers that recurse over values rather than
// syntax (getProp, elements, entries) the way enterName bounds lookups: a
// level of depth, and the in-progress set for values that stand for a node.
func (x *extractor) enterValue(v val, op, key string) (val, bool) {
	if x.depth >= x.opts.MaxDepth {
		return unknown("resolution depth limit reached"), false
	}
	if v.f != nil && v.n >= 0 {
		k := valueKey{v.f, v.n, v.env, op, key}
		if x.readingValue[k] {
			return unknown("value refers to itself"), false
		}
		x.readingValue[k] = true
	}
	x.depth++
	return val{}, true
}

func (x *extractor) leaveValue(v val, op, key string) {
	x.depth--
	if v.f != nil && v.n >= 0 {
		delete(x.readingValue, valueKey{v.f, v.n, v.env, op, key})
	}
}

func (x *extractor) leaveName(f *file, n nid, name string) {
	x.depth--
	delete(x.resolving, nameKey{f, n, name})
}

func (x *extractor) stepFailure() val {
	if x.exceeded {
		return unknown("extraction budget exceeded")
	}
	return unknown("resolution of this site passed its step limit")
}

// eval resolves an expression node to a value under env. The guards
// (steps, depth, cycles) are the same for both languages; the node is read
// by evalNode (JS/TS) or evalPyNode (Python).
func (x *extractor) eval(f *file, n nid, e *env) val {
	if n < 0 {
		return val{k: vUndefined}
	}
	if !x.step() {
		return x.stepFailure()
	}
	x.depth++
	defer func() { x.depth-- }()
	if x.depth > x.opts.MaxDepth {
		return unknown("resolution depth limit reached")
	}
	key := progKey{f, n, e}
	if x.inProgress[key] {
		return unknown("resolution cycle")
	}
	x.inProgress[key] = true
	defer delete(x.inProgress, key)
	var v val
	if f.lang == LangPython {
		v = x.evalPyNode(f, n, e)
	} else {
		v = x.evalNode(f, n, e)
	}
	if (v.k == vUnknown || v.k == vExternal) && v.f == nil {
		// Remember where resolution stopped: a schema that is not a JSON
		// literal is recorded as these source bytes.
		v.f, v.n = f, n
	}
	return v
}

func (x *extractor) evalNode(f *file, n nid, e *env) val {
	switch f.kind(n) {
	case "string":
		if f.end(n)-f.start(n) < 2 {
			return unknown("unterminated string")
		}
		return literalText(f, f.start(n)+1, f.end(n)-1, "js_string")
	case "template_string":
		return x.templateText(f, n, e)
	case "number":
		return val{k: vNumber, f: f, n: n}
	case "true", "false":
		return val{k: vBool, boolv: f.kind(n) == "true"}
	case "null":
		return val{k: vNull}
	case "undefined":
		return val{k: vUndefined}
	case "identifier", "shorthand_property_identifier":
		return x.evalIdent(f, n, f.text(n), e)
	case "this":
		return x.thisValue(f, n, e)
	case "parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression",
		"type_assertion", "await_expression":
		ch := f.named(n)
		for _, c := range ch {
			k := f.kind(c)
			if !strings.HasSuffix(k, "_type") && k != "type_identifier" && k != "type_arguments" && k != "predefined_type" &&
				k != "generic_type" && k != "nested_type_identifier" && k != "object_type" && k != "union_type" {
				return x.eval(f, c, e)
			}
		}
		return unknown("empty expression")
	case "sequence_expression":
		ch := f.named(n)
		if len(ch) == 0 {
			return unknown("empty expression")
		}
		return x.eval(f, ch[len(ch)-1], e)
	case "binary_expression":
		return x.evalBinary(f, n, e)
	case "ternary_expression":
		c := x.eval(f, f.field(n, "consequence"), e)
		a := x.eval(f, f.field(n, "alternative"), e)
		if v, ok := x.jsTernaryByDefault(f, n, c, a, e); ok {
			return v // the branch taken as installed, the other not read (jsfilter.go)
		}
		if v, ok := x.jbTextChoice(f, n, c, a, e); ok {
			return v // the arm of this reading; the other is read too (jsbranches.go)
		}
		if v, ok := x.ternaryAlternatives(f, n, c, a, e); ok {
			return v // the package's alternatives in a prompt's message (jsfallback.go)
		}
		return union(c, a)
	case "unary_expression":
		if isVoid0(f, n) {
			return val{k: vUndefined}
		}
		return unknown("result of an operator")
	case "member_expression", "subscript_expression":
		return x.evalMember(f, n, e)
	case "call_expression":
		return x.evalCall(f, n, e)
	case "new_expression":
		return x.evalNew(f, n, e)
	case "object":
		return val{k: vObject, f: f, n: n, env: e}
	case "array":
		return val{k: vArray, f: f, n: n, env: e}
	case "arrow_function", "function_expression", "function", "function_declaration", "generator_function",
		"generator_function_declaration", "method_definition":
		return val{k: vFunc, f: f, n: n, env: e}
	case "class", "class_declaration", "abstract_class_declaration":
		return val{k: vClass, f: f, n: n, env: e}
	case "assignment_expression":
		if ev, ok := x.tscEnumAssignment(f, n, e); ok {
			return ev // `exports.E = E = {}` of a tsc-compiled enum (jsenum.go)
		}
		return x.eval(f, f.field(n, "right"), e)
	case "spread_element":
		return unknown("spread outside an object or array")
	}
	return unknown("expression of kind " + f.kind(n) + " is not followed")
}

// union joins alternatives; identical or unknown alternatives collapse.
func union(vs ...val) val {
	var out []val
	for _, v := range vs {
		if v.k == vNeed {
			return v
		}
		if v.k == vUnion {
			out = append(out, v.elems...)
			continue
		}
		out = append(out, v)
	}
	if len(out) == 1 {
		return out[0]
	}
	return val{k: vUnion, elems: out}
}

func (x *extractor) templateText(f *file, n nid, e *env) val {
	return x.templateTextAs(f, n, e, "js_template")
}

// templateTextAs reads a template literal whose literal segments are in
// encoding enc: js_template for the cooked value, js_template_raw for the
// raw one a String.raw tag receives (jsrawtag.go).
func (x *extractor) templateTextAs(f *file, n nid, e *env, enc string) val {
	if f.end(n)-f.start(n) < 2 {
		return unknown("unterminated template")
	}
	start := f.start(n) + 1
	var parts []val
	for _, c := range f.named(n) {
		if f.kind(c) != "template_substitution" {
			continue
		}
		if f.start(c) > start {
			parts = append(parts, literalText(f, start, f.start(c), enc))
		}
		expr := none
		if ch := f.named(c); len(ch) == 1 {
			expr = ch[0]
		}
		if cv, ok := x.constSubstitution(f, expr, e); ok {
			// A constant of the package: its own literal segments (jsconst.go).
			parts = append(parts, cv)
			start = f.end(c)
			continue
		}
		if av, ok := x.alternativeSubstitution(f, c, expr, e); ok {
			// The client's argument and the package's alternatives (jsfallback.go).
			parts = append(parts, av)
			start = f.end(c)
			continue
		}
		parts = append(parts, x.runtimeHole(x.clientHole(holeText(f, c, expr, e), f, expr, e), f, expr, e)) // jsclientargs.go, jsunread_runtime.go
		start = f.end(c)
	}
	if end := f.end(n) - 1; end > start {
		parts = append(parts, literalText(f, start, end, enc))
	}
	if len(parts) == 0 {
		return val{k: vText, txt: &textv{}}
	}
	return x.templateAlternatives(concatText(parts...)) // jsfallback.go
}

func (x *extractor) evalBinary(f *file, n nid, e *env) val {
	op := f.text(f.field(n, "operator"))
	l := x.eval(f, f.field(n, "left"), e)
	if l.k == vNeed {
		return l
	}
	switch op {
	case "+":
		r := x.eval(f, f.field(n, "right"), e)
		if r.k == vNeed {
			return r
		}
		if l.k == vText || r.k == vText {
			return concatText(l, r)
		}
		return unknown("result of an arithmetic operator")
	case "||", "??":
		switch l.k {
		case vUndefined, vNull:
			return x.eval(f, f.field(n, "right"), e)
		case vText:
			if op == "??" {
				return l
			}
			if s, ok := plainText(l); ok && s != "" {
				return l
			}
		case vObject, vArray, vFunc:
			return l
		}
		if v, ok := x.clientFallback(l, f, n, op, e); ok {
			return v // args.ns || "all", args.topic || "" in a prompt's message (jsfallback.go)
		}
		if v, ok := x.clientEmptyAlternative(l, f, f.field(n, "right"), e); ok {
			return v // args.topic || "" (jsclientargs.go)
		}
		return unknown("value chosen at run time (" + op + ")")
	}
	return unknown("result of the operator " + op)
}

// evalIdent resolves a name at node n.
func (x *extractor) evalIdent(f *file, n nid, name string, e *env) val {
	switch name {
	case "undefined":
		return val{k: vUndefined}
	}
	b, ok := x.lookup(f, n, name)
	if !ok && f.facts != nil {
		// CommonJS: exports and module.exports are this file's module.
		switch name {
		case "exports":
			return val{k: vModule, f: f}
		case "module":
			return val{k: vObject, n: none, keys: []string{"exports"}, props: []val{{k: vModule, f: f}}}
		}
	}
	if !ok {
		switch name {
		case "process", "globalThis", "window", "global", "require", "module", "exports", "console", "JSON", "Object",
			"Array", "String", "Buffer", "Promise", "Math", "Date", "Map", "Set":
			return val{k: vExternal, spec: name}
		}
		return unknown("name " + name + " is not declared in the file")
	}
	return x.keepRuntimeName(x.keepClientName(x.bindingValue(f, b, e), f, name), f, b) // jsclientargs.go, jsunread_runtime.go
}

// binding is what a name at some node refers to.
type binding struct {
	kind bkind
	decl nid // declarator, function, class, import specifier, loop, function with params
	id   nid // the binding identifier
	// for a parameter: the function node and the parameter's index
	fn    nid
	index int
}

type bkind uint8

const (
	bDecl bkind = iota
	bParam
	bLoop
	bImport
	bCatch
	bForInit
)

// lookup finds the declaration a name at node n refers to, walking out
// through the enclosing scopes of the file.
func (x *extractor) lookup(f *file, n nid, name string) (binding, bool) {
	fa := f.facts
	prev := n
	for a := f.parent(n); a >= 0; prev, a = a, f.parent(a) {
		k := f.kind(a)
		switch {
		case k == "program" || k == "statement_block" || k == "switch_case" || k == "switch_default" ||
			k == "class_body" || k == "module" || k == "internal_module":
			if ds, ok := fa.scopeDecls(f, a)[name]; ok {
				d := ds[len(ds)-1]
				kind := bDecl
				switch f.kind(d.decl) {
				case "import_specifier", "namespace_import", "identifier":
					kind = bImport
				}
				return binding{kind: kind, decl: d.decl, id: d.id}, true
			}
		case functionKind(k):
			if params := f.field(a, "parameters"); params >= 0 {
				for i, p := range f.named(params) {
					for _, nm := range patternNames(f, p) {
						if nm.name == name {
							return binding{kind: bParam, decl: p, id: nm.id, fn: a, index: i}, true
						}
					}
				}
			}
			if p := f.field(a, "parameter"); p >= 0 && f.text(p) == name {
				return binding{kind: bParam, decl: p, id: p, fn: a, index: 0}, true
			}
			if k == "function_expression" || k == "function" {
				if nm := f.field(a, "name"); nm >= 0 && f.text(nm) == name {
					return binding{kind: bDecl, decl: a, id: nm}, true
				}
			}
		case k == "for_in_statement":
			left := f.field(a, "left")
			for _, nm := range patternNames(f, left) {
				if nm.name == name {
					return binding{kind: bLoop, decl: a, id: nm.id}, true
				}
			}
		case k == "for_statement":
			if init := f.field(a, "initializer"); init >= 0 {
				for _, d := range declaredNames(f, init) {
					if d.name == name {
						return binding{kind: bForInit, decl: a, id: d.id}, true
					}
				}
			}
		case k == "catch_clause":
			if p := f.field(a, "parameter"); p >= 0 {
				for _, nm := range patternNames(f, p) {
					if nm.name == name {
						return binding{kind: bCatch, decl: a, id: nm.id}, true
					}
				}
			}
		case k == "class" || k == "class_declaration":
			if nm := f.field(a, "name"); nm >= 0 && f.text(nm) == name && prev != nm {
				return binding{kind: bDecl, decl: a, id: nm}, true
			}
		}
	}
	return binding{}, false
}

// bindingValue returns the value a binding holds under env.
func (x *extractor) bindingValue(f *file, b binding, e *env) val {
	switch b.kind {
	case bImport:
		return x.importValue(f, b.decl)
	case bCatch:
		return unknown("caught exception")
	case bForInit:
		return unknown("loop counter")
	case bLoop:
		return x.loopBinding(f, b, e)
	case bParam:
		return x.paramBinding(f, b, e)
	}
	d := b.decl
	switch f.kind(d) {
	case "variable_declarator":
		pat := f.field(d, "name")
		valueNode := f.field(d, "value")
		decl := f.parent(d)
		isConst := f.kind(decl) == "lexical_declaration" && strings.HasPrefix(f.text(decl), "const")
		var base val
		if !isConst {
			// A let/var may be assigned later: one assignment and no
			// initialiser is followed; anything more is not guessed.
			if pv, ok := x.pinned[progKey{f, d, nil}]; ok {
				return pv
			}
			if pat == b.id {
				for _, a := range f.facts.augAssigns[f.text(b.id)] {
					if ob, ok := x.lookup(f, f.field(a, "left"), f.text(b.id)); ok && ob.decl == b.decl {
						if v, ok := x.compoundText(f, b, d, e); ok {
							return v // appends in a fixed order (jsunread2_compound.go)
						}
						// `text += more`, perhaps under a condition: the
						// value is not carried to one text.
						return unknown("variable " + f.text(b.id) + " is modified by a compound assignment")
					}
				}
			}
			if ev, ok := x.tscEnum(f, d, f.text(b.id)); ok && pat == b.id {
				return ev // a tsc-compiled enum (jsenum.go)
			}
			as := x.assignmentsTo(f, pat, b)
			switch {
			case len(as) == 1 && valueNode < 0:
				return x.eval(f, f.field(as[0], "right"), e)
			case len(as) > 0:
				// The value is one of the initialiser and the assignments.
				var alts []val
				if valueNode >= 0 {
					alts = append(alts, x.eval(f, valueNode, e))
				}
				// An assignment that reads the variable itself
				// (`list = list.filter(...)`) reads the value before it:
				// the initialiser.
				if len(alts) == 1 {
					x.pinned[progKey{f, d, nil}] = alts[0]
					defer delete(x.pinned, progKey{f, d, nil})
				}
				for _, a := range as {
					r := x.eval(f, f.field(a, "right"), e)
					if r.k == vUnknown && len(alts) > 0 && x.jsAssignedOffByDefault(f, a, r, e) {
						continue // not made as installed, and not read (jsfilter.go)
					}
					alts = append(alts, r)
				}
				return union(alts...)
			}
		}
		if valueNode < 0 {
			return val{k: vUndefined}
		}
		if pat == b.id {
			return x.eval(f, valueNode, e)
		}
		base = x.eval(f, valueNode, e)
		return x.destructure(f, pat, b.id, base, e)
	case "function_declaration", "generator_function_declaration", "function_expression", "function":
		return val{k: vFunc, f: f, n: d, env: e}
	case "class_declaration", "abstract_class_declaration", "class":
		return val{k: vClass, f: f, n: d, env: e}
	}
	return unknown("declaration of kind " + f.kind(d) + " is not followed")
}

// assignmentsTo lists `name = value` assignments to the same binding.
func (x *extractor) assignmentsTo(f *file, pat nid, b binding) []nid {
	if pat != b.id {
		return nil
	}
	name := f.text(b.id)
	var out []nid
	for _, a := range f.facts.assigns[name] {
		left := f.field(a, "left")
		if ob, ok := x.lookup(f, left, name); ok && ob.decl == b.decl {
			out = append(out, a)
		}
	}
	return out
}

// destructure applies the path from pattern root pat down to identifier id
// to the value v.
func (x *extractor) destructure(f *file, pat, id nid, v val, e *env) val {
	type stepT struct {
		prop  string
		index int
		def   nid
		kind  byte // 'p' prop, 'i' index, 'd' default, 'r' rest
		omit  []string
	}
	var steps []stepT
	cur := id
	for cur != pat && cur >= 0 {
		p := f.parent(cur)
		switch f.kind(p) {
		case "object_pattern":
			if f.kind(cur) == "shorthand_property_identifier_pattern" {
				steps = append(steps, stepT{kind: 'p', prop: f.text(cur)})
			}
		case "pair_pattern":
			if cur == f.field(p, "value") {
				key := f.field(p, "key")
				name := propKeyName(f, key)
				if name == "" {
					return unknown("computed property in a destructuring pattern")
				}
				steps = append(steps, stepT{kind: 'p', prop: name})
			}
		case "array_pattern":
			if i := arrayPatternIndex(f, p, cur); i >= 0 {
				steps = append(steps, stepT{kind: 'i', index: i})
			}
		case "assignment_pattern":
			if cur == f.field(p, "left") {
				steps = append(steps, stepT{kind: 'd', def: f.field(p, "right")})
			}
		case "object_assignment_pattern":
			if cur == f.field(p, "left") {
				steps = append(steps, stepT{kind: 'd', def: f.field(p, "right")})
				if f.kind(cur) == "shorthand_property_identifier_pattern" {
					steps = append(steps, stepT{kind: 'p', prop: f.text(cur)})
				}
			}
		case "rest_pattern":
			op := f.parent(p)
			if f.kind(op) != "object_pattern" {
				return unknown("rest element of a destructuring pattern")
			}
			// { a, b: c, ...rest }: rest is the object without a and b.
			var omit []string
			for _, c := range f.named(op) {
				switch f.kind(c) {
				case "shorthand_property_identifier_pattern":
					omit = append(omit, f.text(c))
				case "pair_pattern":
					omit = append(omit, propKeyName(f, f.field(c, "key")))
				case "object_assignment_pattern":
					omit = append(omit, f.text(f.field(c, "left")))
				}
			}
			steps = append(steps, stepT{kind: 'r', omit: omit})
		case "required_parameter", "optional_parameter":
			if cur == f.field(p, "pattern") {
				if dv := f.field(p, "value"); dv >= 0 {
					steps = append(steps, stepT{kind: 'd', def: dv})
				}
			}
		}
		cur = p
	}
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		switch s.kind {
		case 'p':
			v, _ = x.getProp(v, s.prop, e)
			v = x.keepClientProp(v, s.prop, "") // jsclientargs.go
			v = x.keepRuntimeProp(v, s.prop)    // jsunread_runtime.go
		case 'i':
			els, ok := x.elements(v, e)
			if !ok {
				if len(els) == 1 {
					return els[0]
				}
				return unknown("array destructuring of an unresolved value")
			}
			if s.index < len(els) {
				v = els[s.index]
			} else {
				v = val{k: vUndefined}
			}
		case 'd':
			if dv, ok := x.clientDefault(v, f, s.def, e); ok {
				v = dv // the client's argument or the package's default (jsfallback.go)
				break
			}
			if v.k == vUndefined {
				v = x.eval(f, s.def, e)
			}
			v = notRuntime(notClient(v)) // a default of the package may fill it (jsclientargs.go)
		case 'r':
			if v.k == vNeed {
				return v
			}
			v = val{k: vObject, n: none, parts: []val{v}, omit: s.omit}
		}
		if v.k == vNeed {
			return v
		}
	}
	return v
}

// paramBinding resolves a function parameter: through the call frame being
// evaluated, through a call site of the function chosen for this instance,
// or through the elements the function is called back with.
func (x *extractor) paramBinding(f *file, b binding, e *env) val {
	fr, stop, ok := e.liveFrame(scopeRef{f, b.fn})
	if !ok {
		return stop
	}
	var arg val
	switch {
	case fr.isLoop:
		// A callback of forEach / map / filter: (element, index, array).
		recv := x.callbackReceiver(f, b.fn, e)
		switch b.index {
		case 0, 1:
			els, ok := x.elements(recv, e)
			if !ok {
				if len(els) == 1 && els[0].k == vNeed {
					return els[0]
				}
				return unknown("callback over an unresolved array")
			}
			if fr.index >= len(els) {
				return unknown("callback element out of range")
			}
			if recv.k == vMap && recv.spec == "Map" {
				// Map.prototype.forEach passes (value, key).
				pair := els[fr.index].elems
				arg = pair[1-b.index]
				break
			}
			if b.index == 1 {
				return val{k: vNumber, reason: strconv.Itoa(fr.index)}
			}
			arg = els[fr.index]
		default:
			arg = recv
		}
	case fr.site != nil:
		cs := fr.site
		if b.index < len(cs.args) {
			a := cs.args[b.index]
			if cs.f.kind(a) == "spread_element" {
				return unknown("argument passed by spread")
			}
			arg = x.eval(cs.f, a, e)
		} else {
			arg = val{k: vUndefined}
		}
	default:
		if b.index < len(fr.args) {
			t := fr.args[b.index]
			if t.v != nil {
				arg = *t.v
			} else {
				arg = x.eval(t.f, t.n, t.env)
			}
		} else {
			arg = val{k: vUndefined}
		}
	}
	if b.decl == b.id {
		return arg
	}
	return x.destructure(f, b.decl, b.id, arg, e)
}

// loopBinding resolves the variable of a for...of / for...in loop to the
// element this instance chose.
func (x *extractor) loopBinding(f *file, b binding, e *env) val {
	el, ok := x.loopElement(f, b.decl, e, x.loopItems)
	if !ok {
		return el
	}
	left := f.field(b.decl, "left")
	if left == b.id {
		return el
	}
	return x.destructure(f, left, b.id, el, e)
}

// loopElement is the element of loop's items that this instance chose, or
// (ok false) the value that stops resolution: a binding still needed, a
// dead frame, items not resolved. items reads the loop in its language.
func (x *extractor) loopElement(f *file, loop nid, e *env, items func(*file, nid, *env) ([]val, bool)) (val, bool) {
	fr, stop, ok := e.liveFrame(scopeRef{f, loop})
	if !ok {
		return stop, false
	}
	if fr.isLoop && fr.items != nil && fr.index < len(fr.items) {
		return fr.items[fr.index], true // read when the frame was made
	}
	its, ok := items(f, loop, e)
	if !ok {
		if len(its) == 1 {
			return its[0], false
		}
		return unknown("loop over an unresolved value"), false
	}
	if fr.index >= len(its) {
		return unknown("loop element out of range"), false
	}
	return its[fr.index], true
}

// loopItems returns what a for...of iterates (elements) or a for...in
// enumerates (keys).
func (x *extractor) loopItems(f *file, loop nid, e *env) ([]val, bool) {
	right := x.eval(f, f.field(loop, "right"), e)
	op := f.field(loop, "operator")
	return x.iterate(right, op >= 0 && f.text(op) == "in", e)
}

// iterate lists what a loop over v visits: its keys (a for...in loop, a
// Python loop over a dict) or its elements. When they do not resolve, ok
// is false and the list is v alone (or the elements read, if any).
func (x *extractor) iterate(v val, keys bool, e *env) ([]val, bool) {
	if v.k == vNeed {
		return []val{v}, false
	}
	if keys {
		ks, _, ok := x.entries(v, e)
		if !ok {
			return []val{v}, false
		}
		return ks, true
	}
	els, ok := x.elements(v, e)
	if !ok && len(els) == 0 {
		return []val{v}, false
	}
	return els, ok
}

// externalCallReason classifies calls into other packages that read data
// at run time, so a site built from them is runtime_generated.
func externalCallReason(spec string) string {
	mod, member, _ := strings.Cut(spec, ".")
	mod = strings.TrimPrefix(mod, "node:")
	switch {
	case (mod == "fs" || mod == "fs/promises" || mod == "fs-extra" || mod == "process") &&
		(strings.HasPrefix(member, "read") || strings.HasPrefix(member, "promises.read")):
		return "read from a file at run time (" + spec + ")"
	case mod == "axios" || mod == "node-fetch" || mod == "got" || mod == "ky" || mod == "undici" || mod == "fetch":
		return "fetched at run time (" + spec + ")"
	case strings.Contains(strings.ToLower(spec), "openapi") || strings.Contains(strings.ToLower(spec), "swagger"):
		return "built from an OpenAPI document (" + spec + ")"
	case mod == "js-yaml" || mod == "yaml":
		return "parsed from YAML at run time (" + spec + ")"
	}
	return ""
}

// callbackReceiver returns the array a callback function is handed to
// (arr.forEach(fn), arr.map(fn), ...).
func (x *extractor) callbackReceiver(f *file, fn nid, e *env) val {
	args := f.parent(fn)
	call := f.parent(args)
	if f.kind(call) != "call_expression" {
		return unknown("callback not passed to a call")
	}
	callee := f.field(call, "function")
	if f.kind(callee) != "member_expression" {
		return unknown("callback not passed to an array method")
	}
	return x.eval(f, f.field(callee, "object"), e)
}

// thisValue resolves `this` at n: the instance of the enclosing class.
func (x *extractor) thisValue(f *file, n nid, e *env) val {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		k := f.kind(a)
		if k == "arrow_function" {
			continue
		}
		if functionKind(k) {
			if fr := e.lookup(scopeRef{f, a}); fr != nil {
				if fr.hasThis && fr.this != nil {
					return *fr.this
				}
				if fr.site != nil && fr.site.thisArg >= 0 {
					tv := x.eval(fr.site.f, fr.site.thisArg, e)
					if k != "method_definition" || tv.k == vNeed || tv.k == vInstance || tv.k == vObject {
						return tv
					}
					// A receiver not carried to an instance: the method's
					// own class is what `this` is known to be.
				}
			}
			if k != "method_definition" {
				return unknown("`this` of a plain function")
			}
			body := f.parent(a)
			class := f.parent(body)
			if !strings.Contains(f.kind(class), "class") {
				// A method of an object literal: `this` is that object.
				if f.kind(body) == "object" {
					return val{k: vObject, f: f, n: body, env: e}
				}
				return unknown("`this` outside a class")
			}
			return val{k: vInstance, f: f, n: class, env: e}
		}
	}
	return unknown("`this` at module level")
}

func (x *extractor) evalMember(f *file, n nid, e *env) val {
	obj := x.eval(f, f.field(n, "object"), e)
	if obj.k == vNeed {
		return obj
	}
	var key string
	if f.kind(n) == "member_expression" {
		p := f.field(n, "property")
		key = f.text(p)
	} else {
		idx := f.field(n, "index")
		kv := x.eval(f, idx, e)
		switch kv.k {
		case vNeed:
			return kv
		case vText:
			s, ok := plainText(kv)
			if !ok {
				return unknown("member name computed at run time")
			}
			key = s
		case vNumber:
			s, ok := numberKey(kv) // String(n): o[ONE] is o["1"] (jsidm_keys.go)
			if !ok {
				return unknown("member name computed at run time")
			}
			key = s
		default:
			return unknown("member name computed at run time")
		}
	}
	if obj.k == vExternal && obj.spec == "process" && key == "env" {
		return unknown("environment variable")
	}
	if why := x.jsLiteralWrite(obj, key); why != "" {
		return unknown(why) // a literal's member the package writes (jsoutwrite.go)
	}
	v, _ := x.getProp(obj, key, e)
	v = x.keepClientProp(v, key, lastName(f, f.field(n, "object"))) // jsclientargs.go
	v = x.keepRuntimeProp(v, key)                                   // jsunread_runtime.go
	if v.k == vUndefined && obj.k == vInstance && f.kind(f.field(n, "object")) == "this" {
		// A base class's method reading a member only its subclasses
		// define: `this` is bound through the method's call sites
		// (tool.installTo(server) on a subclass instance).
		if m := enclosingMethod(f, n); m >= 0 && e.lookup(scopeRef{f, m}) == nil {
			return val{k: vNeed, need: scopeRef{f, m}}
		}
	}
	return v
}

// enclosingMethod is the class method (not a constructor) whose `this` a
// node sees, or none.
func enclosingMethod(f *file, n nid) nid {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		k := f.kind(a)
		if k == "arrow_function" {
			continue
		}
		if functionKind(k) {
			if k == "method_definition" && f.text(f.field(a, "name")) != "constructor" {
				return a
			}
			return none
		}
	}
	return none
}

// getProp reads property key of v. found is false when the property is
// known to be missing (v is undefined then).
func (x *extractor) getProp(v val, key string, e *env) (val, bool) {
	if !x.step() {
		return x.stepFailure(), true
	}
	if r, ok := x.enterValue(v, ".", key); !ok {
		return r, true
	}
	defer x.leaveValue(v, ".", key)
	switch v.k {
	case vNeed, vUnknown:
		if r, ok := x.zodStaticMember(v, key); ok {
			return r, true // z.object(shape).shape, z.literal(v).value (jszod.go)
		}
		return v, true
	case vExternal:
		if v.spec == "process.env" || v.spec == "process" && key == "env" {
			return unknown("environment variable"), true
		}
		return val{k: vExternal, spec: v.spec + "." + key}, true
	case vUnion:
		var alts []val
		for _, a := range v.elems {
			p, _ := x.getProp(a, key, e)
			alts = append(alts, p)
		}
		return union(alts...), true
	case vModule:
		return x.exportValue(v.f, key, 0)
	case vInstance, vClass:
		if v.f.lang == LangPython {
			return x.pyMember(v, key, e)
		}
		return x.memberOf(v, key, e)
	case vArray:
		if why := x.pwWritten(v, key); why != "" {
			return unknown(why), true // jspw_writes.go
		}
		if v.f != nil && v.f.lang == LangPython {
			if why := x.pyListElementWritten(v, key); why != "" {
				return unknown(why), true // pypw_lists.go
			}
		}
		if i, err := strconv.Atoi(key); err == nil {
			els, ok := x.elements(v, e)
			if !ok {
				return unknown("array element of an unresolved array"), true
			}
			if i >= 0 && i < len(els) {
				return els[i], true
			}
			return val{k: vUndefined}, false
		}
		return unknown("array property " + key), true
	case vObject:
		if v.n < 0 {
			if slices.Contains(v.omit, key) {
				return val{k: vUndefined}, false
			}
			for i := len(v.parts) - 1; i >= 0; i-- {
				p, found := x.getProp(v.parts[i], key, e)
				if found {
					// A merged object's member may come from another part
					// at run time (jsclientargs.go).
					return notClient(p), true
				}
			}
			for i := len(v.keys) - 1; i >= 0; i-- {
				if v.keys[i] == key {
					return v.props[i], true
				}
			}
			return val{k: vUndefined}, false
		}
		if v.f.lang == LangPython {
			return x.pyDictGet(v, key, e)
		}
		if why := x.pwWritten(v, key); why != "" {
			return unknown(why), true // jspw_writes.go
		}
		return x.objectProp(v.f, v.n, key, v.env)
	case vText:
		return unknown("string property " + key), true
	case vFunc:
		return unknown("property " + key + " of a function"), true
	}
	return val{k: vUndefined}, false
}

// objectProp reads a property of an object literal node: the last
// definition wins, spreads included.
func (x *extractor) objectProp(f *file, obj nid, key string, e *env) (val, bool) {
	ch := f.named(obj)
	for i := len(ch) - 1; i >= 0; i-- {
		c := ch[i]
		switch f.kind(c) {
		case "pair":
			k := f.field(c, "key")
			name := propKeyName(f, k)
			if f.kind(k) == "computed_property_name" {
				kv := x.eval(f, f.named(k)[0], e)
				s, ok := plainText(kv)
				if !ok {
					return unknown("computed property name"), true
				}
				name = s
			}
			if name == key {
				return x.eval(f, f.field(c, "value"), e), true
			}
		case "shorthand_property_identifier":
			if f.text(c) == key {
				return x.evalIdent(f, c, key, e), true
			}
		case "method_definition":
			if f.text(f.field(c, "name")) == key {
				return val{k: vFunc, f: f, n: c, env: e}, true
			}
		case "spread_element":
			inner := f.named(c)
			if len(inner) == 0 {
				continue
			}
			if x.guardedSpreadLacks(f, inner[0], key, e) {
				continue // ...(c && { ... }) without key (jsunread_spread.go)
			}
			sv := x.eval(f, inner[0], e)
			p, found := x.getProp(sv, key, e)
			if found {
				if sv.isUnknown() {
					return unknown("spread of a value that is not resolved: " + reasonOf(sv)), true
				}
				return p, true
			}
		}
	}
	// esbuild's namespace objects: `var ns = {}; __export(ns, {k: () => v})`.
	for _, o := range x.exportedInto(f, obj) {
		if p, found := x.objectProp(f, o, key, e); found {
			if p.k == vFunc {
				return x.call(p, nil, nil, e), true
			}
			return p, true
		}
	}
	return val{k: vUndefined}, false
}

// memberOf reads a member of a class instance: field initialisers, `this.x =`
// assignments in the constructor chain, getters and methods.
func (x *extractor) memberOf(v val, key string, e *env) (val, bool) {
	if why := x.jsOutsideWrite(v, key); why != "" {
		return unknown(why), true
	}
	f, class := v.f, v.n
	for depth := 0; class >= 0 && depth < 8; depth++ {
		body := f.field(class, "body")
		var ctor, field nid = none, none
		for _, m := range f.named(body) {
			switch f.kind(m) {
			case "public_field_definition", "field_definition":
				nameNode := f.field(m, "name")
				if nameNode < 0 {
					nameNode = f.field(m, "property")
				}
				if propKeyName(f, nameNode) == key && field < 0 {
					if val := f.field(m, "value"); val >= 0 {
						field = val
					}
				}
			case "method_definition":
				name := f.text(f.field(m, "name"))
				if name == "constructor" {
					ctor = m
					continue
				}
				if name == key {
					fv := val{k: vFunc, f: f, n: m, env: e}
					if f.hasChildKind(m, "get") {
						return x.call(fv, nil, &v, e), true
					}
					return fv, true
				}
			}
		}
		if field >= 0 {
			// A field's initialiser is the instance's value only where no
			// this.key = … of the class replaces it (jsfields.go).
			return x.fieldOfInstance(v, f, class, ctor, field, key, e), true
		}
		// this.key = value in a method of the class (set up by one method,
		// read by another): each is one of the values the member holds.
		var inMethods []nid
		for _, a := range f.facts.propAssigns[key] {
			left := f.field(a, "left")
			if f.kind(f.field(left, "object")) == "this" && (ctor < 0 || !f.contains(ctor, a)) && thisClassOf(f, a) == class {
				inMethods = append(inMethods, a)
			}
		}
		if ctor >= 0 || len(inMethods) > 0 {
			// this.key = value inside the constructor body.
			var found []nid
			if ctor >= 0 {
				for _, a := range f.facts.propAssigns[key] {
					left := f.field(a, "left")
					if f.kind(f.field(left, "object")) == "this" && f.contains(ctor, a) {
						found = append(found, a)
					}
				}
			}
			// Parameter properties: constructor(private readonly key: T).
			if params := f.field(ctor, "parameters"); params >= 0 {
				for i, p := range f.named(params) {
					if f.kind(p) == "required_parameter" && f.childOfKind(p, "accessibility_modifier") >= 0 {
						if f.text(f.field(p, "pattern")) == key {
							ce := x.ctorEnv(v, f, ctor, e)
							return x.paramBinding(f, binding{kind: bParam, decl: p, id: f.field(p, "pattern"), fn: ctor, index: i}, ce), true
						}
					}
				}
			}
			if len(found) == 1 && len(inMethods) == 0 {
				ce := x.ctorEnv(v, f, ctor, e)
				return x.eval(f, f.field(found[0], "right"), ce), true
			}
			if len(found) > 1 {
				return unknown("this." + key + " is assigned more than once"), true
			}
			if len(inMethods) > 0 {
				var alts []val
				if len(found) == 1 {
					alts = append(alts, x.eval(f, f.field(found[0], "right"), x.ctorEnv(v, f, ctor, e)))
				}
				for _, a := range inMethods {
					av := x.eval(f, f.field(a, "right"), e)
					if av.k == vNeed {
						return av, true
					}
					alts = append(alts, av)
				}
				return union(alts...), true
			}
		}
		// Walk up to the superclass when it is declared in the package.
		heritage := f.childOfKind(class, "class_heritage")
		if heritage < 0 {
			break
		}
		sup := heritage
		if ex := f.childOfKind(heritage, "extends_clause"); ex >= 0 {
			sup = ex
		}
		ch := f.named(sup)
		if len(ch) == 0 {
			break
		}
		sv := x.eval(f, ch[0], e)
		if sv.k != vClass {
			if sv.k == vExternal {
				return unknown("member inherited from another package (" + sv.spec + ")"), true
			}
			break
		}
		// The superclass's constructor is reached through super(...): its
		// arguments are those the subclass constructor passes, evaluated
		// where that constructor runs. Without a constructor, the
		// arguments pass through unchanged.
		args := v.args
		if ctor >= 0 {
			args = nil
			ce := x.ctorEnv(v, f, ctor, e)
			f.walk(f.field(ctor, "body"), func(c nid) bool {
				if args != nil || (c != f.field(ctor, "body") && functionKind(f.kind(c)) && f.kind(c) != "arrow_function") {
					return false
				}
				if f.kind(c) == "call_expression" && f.kind(f.field(c, "function")) == "super" {
					args = x.thunks(f, f.args(c), ce)
					return false
				}
				return true
			})
			if args == nil {
				args = []thunk{}
			}
		}
		f, class = sv.f, sv.n
		v = val{k: vInstance, f: f, n: class, env: e, args: args, parts: v.parts}
	}
	return val{k: vUndefined}, false
}

// ctorEnv binds the constructor's parameters: to the arguments of the
// `new` expression the instance came from, or (when that is unknown) to the
// constructor's call sites, enumerated like any function's.
func (x *extractor) ctorEnv(v val, f *file, ctor nid, e *env) *env {
	s := scopeRef{f, ctor}
	if e.lookup(s) != nil {
		return e
	}
	if v.args != nil {
		this := v
		return e.push(env{scope: s, args: v.args, this: &this, hasThis: true})
	}
	return e
}

func (x *extractor) evalNew(f *file, n nid, e *env) val {
	c := x.eval(f, f.field(n, "constructor"), e)
	switch c.k {
	case vNeed:
		return c
	case vClass:
		args := x.thunks(f, f.args(n), e)
		if args == nil {
			args = []thunk{}
		}
		return val{k: vInstance, f: c.f, n: c.n, env: e, args: args}
	case vFunc:
		return unknown("object built by a constructor function")
	case vExternal:
		if c.spec == "Map" || c.spec == "Set" {
			return val{k: vMap, f: f, n: n, env: e, spec: c.spec}
		}
		return val{k: vExternal, spec: "new " + c.spec}
	}
	return unknown("object built by new " + f.text(f.field(n, "constructor")))
}

// mapEntries lists a Map's (or Set's) entries: those its constructor is
// given and those added by .set / .add calls on the name its declaration
// binds in the same file.
func (x *extractor) mapEntries(v val, e *env) (keys, vals []val, ok bool) {
	f := v.f
	if a := f.args(v.n); len(a) == 1 {
		init := x.eval(f, a[0], v.env)
		els, ok := x.elements(init, e)
		if !ok {
			return nil, nil, false
		}
		for _, el := range els {
			if v.spec == "Set" {
				keys, vals = append(keys, el), append(vals, el)
				continue
			}
			pair, ok := x.elements(el, e)
			if !ok || len(pair) < 2 {
				return nil, nil, false
			}
			keys, vals = append(keys, pair[0]), append(vals, pair[1])
		}
	}
	method := "set"
	if v.spec == "Set" {
		method = "add"
	}
	// add reads one s.add(el) or m.set(key, value) call.
	add := func(c nid) {
		a := f.args(c)
		if v.spec == "Set" && len(a) >= 1 {
			el := x.eval(f, a[0], e)
			if !neverRuns(el) {
				keys, vals = append(keys, el), append(vals, el)
			}
		} else if len(a) >= 2 {
			kv, vv := x.eval(f, a[0], e), x.eval(f, a[1], e)
			if !neverRuns(kv) && !neverRuns(vv) {
				keys, vals = append(keys, kv), append(vals, vv)
			}
		}
	}
	decl := f.parent(v.n)
	if f.kind(decl) != "variable_declarator" || f.field(decl, "value") != v.n {
		// A Map held by a member (this.m = new Map(), or a field): its
		// this.m.set(...) calls in the same class.
		for _, c := range memberMutations(f, v.n, method) {
			add(c)
		}
		return pwMapKeys(v, keys, vals) // a key set twice (jspw_writes.go)
	}
	id := f.field(decl, "name")
	if f.kind(id) != "identifier" {
		return pwMapKeys(v, keys, vals) // a key set twice (jspw_writes.go)
	}
	name := f.text(id)
	for _, c := range f.facts.calls[method] {
		callee := f.field(c, "function")
		obj := f.field(callee, "object")
		if f.kind(obj) != "identifier" || f.text(obj) != name {
			continue
		}
		if b, ok := x.lookup(f, obj, name); !ok || b.decl != decl {
			continue
		}
		add(c)
	}
	return pwMapKeys(v, keys, vals) // a key set twice (jspw_writes.go)
}

func (x *extractor) thunks(f *file, args []nid, e *env) []thunk {
	out := make([]thunk, 0, len(args))
	for _, a := range args {
		out = append(out, thunk{f: f, n: a, env: e})
	}
	return out
}

func (x *extractor) evalCall(f *file, n nid, e *env) val {
	callee := f.field(n, "function")
	args := f.args(n)
	// Tagged templates: dedent`...` and the like transform the text.
	if a := f.field(n, "arguments"); a >= 0 && f.kind(a) == "template_string" {
		if enc, ok := x.rawTag(f, callee); ok {
			return x.templateTextAs(f, a, e, enc) // String.raw (jsrawtag.go)
		}
		return unknown("text transformed by the tag " + f.text(callee))
	}
	switch f.kind(callee) {
	case "identifier":
		name := f.text(callee)
		switch name {
		case "__importDefault", "__importStar", "__toESM", "__toCommonJS", "_interopRequireDefault",
			"_interopRequireWildcard", "__importDefaultFn":
			// Module interop helpers, read by name whether the compiler
			// inlined their definition (tsc's `this && this.__importStar
			// || function ...`, esbuild's arrow functions) or imports them:
			// the definition is chosen at run time and never followed.
			if len(args) >= 1 {
				m := x.eval(f, args[0], e)
				if name == "__importDefault" || name == "_interopRequireDefault" {
					// {default: module} unless the module is an ES module.
					if m.k == vModule && m.f.facts != nil && (m.f.facts.esModule || m.f.facts.cjsExports < 0) {
						return m
					}
					return val{k: vObject, n: none, keys: []string{"default"}, props: []val{m}}
				}
				return m
			}
		}
		if _, declared := x.lookup(f, callee, name); !declared {
			switch name {
			case "require":
				if len(args) == 1 {
					if spec, ok := f.stringValue(args[0]); ok {
						return x.requireValue(f, spec, n)
					}
				}
				return unknown("require of a computed specifier")
			case "String":
				if len(args) == 1 {
					v := x.eval(f, args[0], e)
					if v.k == vText {
						return v
					}
				}
				return unknown("result of String()")
			case "structuredClone", "Object", "Array":
				if len(args) == 1 && name != "Array" {
					return x.eval(f, args[0], e)
				}
			case "JSON":
			}
			if name == "fetch" {
				return unknown("data fetched at run time")
			}
		}
	case "member_expression":
		if v, ok := x.evalMethodCall(f, n, callee, args, e); ok {
			return v
		}
	}
	if v, ok := x.asyncHelperCall(f, callee, args, e); ok {
		return v
	}
	fn := x.eval(f, callee, e)
	if fn.k == vNeed {
		return fn
	}
	var this *val
	if f.kind(callee) == "member_expression" {
		recv := x.eval(f, f.field(callee, "object"), e)
		this = &recv
	}
	return x.callValue(fn, x.thunks(f, args, e), this, e, f.text(callee))
}

func (x *extractor) callValue(fn val, args []thunk, this *val, e *env, what string) val {
	switch fn.k {
	case vFunc:
		return x.call(fn, args, this, e)
	case vExternal:
		if strings.HasPrefix(fn.spec, "JSON.parse") {
			return unknown("parsed from JSON at run time")
		}
		if r := externalCallReason(fn.spec); r != "" {
			return unknown(r)
		}
		return unknown("result of a call into another package (" + fn.spec + ")")
	case vUnknown:
		return unknown("result of a call to an unresolved function: " + fn.reason)
	case vClass:
		return unknown("class called without new")
	}
	if len(what) > 60 {
		what = what[:60] + "…"
	}
	return unknown("result of the call " + what)
}

// call evaluates what a function returns for the given arguments.
func (x *extractor) call(fn val, args []thunk, this *val, e *env) val {
	f, n := fn.f, fn.n
	if f.lang == LangPython {
		return x.callPy(fn, args, e)
	}
	if e != nil && e.depth > x.opts.MaxDepth {
		return unknown("call depth limit reached")
	}
	for c := e; c != nil; c = c.parent {
		if c.calling && c.scope == (scopeRef{f, n}) {
			// A function calling itself: its result is not carried to a
			// value, and following it would only spend the site's steps.
			return unknown("result of a recursive call")
		}
	}
	fr := env{scope: scopeRef{f, n}, args: args, calling: true}
	if this != nil {
		fr.this, fr.hasThis = this, true
	}
	// The body reads its free names where the function was written: a
	// function returned by another call (a factory's closure) still sees
	// the parameters of the call that made it.
	base := e
	if fn.env != nil {
		base = fn.env
	}
	ne := base.push(fr)
	body := f.field(n, "body")
	if body < 0 {
		return unknown("function without a body")
	}
	if f.kind(body) != "statement_block" {
		return x.eval(f, body, ne)
	}
	if p, ok := x.changedParam(f, n, body); ok {
		return unknown("a function that may change its parameter " + p + " and returns it is not read")
	}
	if x.decidedReturns > 0 {
		return x.returnValues(f, x.reachableReturns(f, body, ne), ne, val{k: vUndefined})
	}
	return x.returnValues(f, returnsOf(f, body), ne, val{k: vUndefined})
}

// changedParam is returnsChangedParam of the function fn, worked out once
// per function.
func (x *extractor) changedParam(f *file, fn, body nid) (string, bool) {
	k := progKey{f, fn, nil}
	if p, ok := x.changedParams[k]; ok {
		return p, p != ""
	}
	p, _ := returnsChangedParam(f, fn, body)
	if x.changedParams == nil {
		x.changedParams = map[progKey]string{}
	}
	x.changedParams[k] = p
	return p, p != ""
}

// returnsChangedParam reports a parameter of the function fn that a return
// statement of its body returns as it is (`return a`) while the body names
// it elsewhere too (since 2.3.14). Such a body may change the object it
// was handed before returning it (esbuild's `__spreadValues(a, b)` copies
// b's members into a with `__defNormalProp(a, k, b[k])`, then `return a`),
// and reading the return alone would give the object as the caller wrote it:
// `__spreadValues({}, schema)` read as `{}`, its members never examined. The
// call is not read instead. A parameter the body only returns is passed
// through unchanged and is read as before.
func returnsChangedParam(f *file, fn, body nid) (string, bool) {
	params := map[string]bool{}
	if p := f.field(fn, "parameter"); p >= 0 && f.kind(p) == "identifier" {
		params[f.text(p)] = true
	}
	if ps := f.field(fn, "parameters"); ps >= 0 {
		for _, p := range f.named(ps) {
			if f.kind(p) == "identifier" {
				params[f.text(p)] = true
			} else if f.kind(p) == "required_parameter" || f.kind(p) == "optional_parameter" {
				if q := f.field(p, "pattern"); q >= 0 && f.kind(q) == "identifier" {
					params[f.text(q)] = true
				}
			}
		}
	}
	if len(params) == 0 {
		return "", false
	}
	returned := map[string]bool{}
	for _, r := range returnsOf(f, body) {
		if ch := f.named(r); len(ch) > 0 && f.kind(ch[0]) == "identifier" && params[f.text(ch[0])] {
			returned[f.text(ch[0])] = true
		}
	}
	if len(returned) == 0 {
		return "", false
	}
	found := ""
	f.walk(body, func(n nid) bool {
		if found != "" {
			return false
		}
		if f.kind(n) == "return_statement" {
			if ch := f.named(n); len(ch) > 0 && f.kind(ch[0]) == "identifier" && returned[f.text(ch[0])] {
				return false // the return itself
			}
		}
		if (f.kind(n) == "identifier" || f.kind(n) == "shorthand_property_identifier") && returned[f.text(n)] {
			found = f.text(n)
			return false
		}
		return true
	})
	return found, found != ""
}

// returnValues is the union of what a function's return statements return
// under ne; nothing is the language's value of a bare return or of a body
// without one (undefined, None). A needed binding stops the union.
func (x *extractor) returnValues(f *file, rets []nid, ne *env, nothing val) val {
	if len(rets) == 0 {
		return nothing
	}
	var alts []val
	for _, r := range rets {
		ch := f.named(r)
		if len(ch) == 0 {
			alts = append(alts, nothing)
			continue
		}
		v := x.eval(f, ch[0], ne)
		if v.k == vNeed {
			return v
		}
		alts = append(alts, v)
	}
	return union(alts...)
}

// returnsOf lists the return statements of a function body, not those of
// functions nested in it.
func returnsOf(f *file, body nid) []nid {
	var out []nid
	f.walk(body, func(n nid) bool {
		k := f.kind(n)
		if n != body && (functionKind(k) || k == "class_declaration" || k == "class") {
			return false
		}
		if k == "return_statement" {
			out = append(out, n)
			return false
		}
		return true
	})
	return out
}

// asyncHelperCall reads the helpers compilers emit when they lower async
// functions: TypeScript's __awaiter(thisArg, args, P, function* () {...})
// (inline or from tslib) and esbuild's __async(thisArg, args, function* ()
// {...}). Each runs the generator and resolves to what it returns, so the
// call passes that value through unchanged, like await. The helper's own
// definition (`this && this.__awaiter || function ...`) is chosen at run
// time and is not what is followed.
func (x *extractor) asyncHelperCall(f *file, callee nid, args []nid, e *env) (val, bool) {
	name := calleeWord(f, callee)
	gen := -1
	switch {
	case name == "__awaiter" && len(args) == 4:
		gen = 3
	case name == "__async" && len(args) == 3:
		gen = 2
	default:
		return val{}, false
	}
	fn := x.eval(f, args[gen], e)
	if fn.k != vFunc {
		return val{}, false
	}
	this := x.eval(f, args[0], e)
	return x.call(fn, nil, &this, e), true
}

// returnedFunctionNames finds the names a function is called by when it is
// the value another function returns (a registration helper made by a
// factory: `const tool = createRegisterTool(server); tool(def)`): the
// variables the factory's results are bound to at its call sites. The
// caller checks each call by resolving its callee.
func (x *extractor) returnedFunctionNames(f *file, n nid, e *env) []string {
	p := f.parent(n)
	var factory nid = none
	switch {
	case f.kind(p) == "return_statement":
		for a := f.parent(p); a >= 0; a = f.parent(a) {
			if functionKind(f.kind(a)) {
				factory = a
				break
			}
		}
	case functionKind(f.kind(p)) && f.field(p, "body") == n:
		factory = p // an arrow whose body is the function
	}
	if factory < 0 {
		return nil
	}
	var names []string
	seen := map[string]bool{}
	for _, cs := range x.callSitesOf(f, factory, e) {
		d := cs.f.parent(cs.n)
		if cs.f.kind(d) != "variable_declarator" || cs.f.field(d, "value") != cs.n {
			continue
		}
		if id := cs.f.field(d, "name"); cs.f.kind(id) == "identifier" && !seen[cs.f.text(id)] {
			seen[cs.f.text(id)] = true
			names = append(names, cs.f.text(id))
		}
	}
	return names
}

// calleeMatchesSomeInstance reports whether a callee that depends on an
// enclosing binding (`tool.installTo` inside tools.forEach((tool) => ...))
// is the function (f, fn) under at least one of that binding's values. The
// call is then a call site of fn; which values reach it is enumerated when
// the site is read.
func (x *extractor) calleeMatchesSomeInstance(g *file, callee nid, need scopeRef, e *env, f *file, fn nid) bool {
	key := progKey{f, fn, nil}
	if need.f == f && need.n == fn || x.inProgress[key] {
		// Enumerating the binding would look for fn's call sites again.
		return false
	}
	x.inProgress[key] = true
	defer delete(x.inProgress, key)
	frames, _, need2 := x.instances(need, e)
	if need2 != nil {
		return false
	}
	for i, fr := range frames {
		if i >= 64 {
			break
		}
		v := x.eval(g, callee, e.push(fr))
		if v.k == vFunc && v.f == f && v.n == fn {
			return true
		}
	}
	return false
}

// exportedInto lists the object literals esbuild's __export helper defines
// as getters on the object literal obj (`var ns = {}; __export(ns, {k: () =>
// v})`, the namespace of a bundled module), found in obj's own file.
func (x *extractor) exportedInto(f *file, obj nid) []nid {
	if f.facts == nil {
		return nil
	}
	decl := f.parent(obj)
	if f.kind(decl) != "variable_declarator" || f.field(decl, "value") != obj {
		return nil
	}
	id := f.field(decl, "name")
	if f.kind(id) != "identifier" {
		return nil
	}
	var out []nid
	for _, c := range f.facts.calls["__export"] {
		a := f.args(c)
		if len(a) != 2 || f.kind(a[0]) != "identifier" || f.text(a[0]) != f.text(id) || f.kind(a[1]) != "object" {
			continue
		}
		if b, ok := x.lookup(f, a[0], f.text(id)); ok && b.decl == decl {
			out = append(out, a[1])
		}
	}
	return out
}

// thisClassOf is the class whose instance `this` is at node n: the class of
// the nearest enclosing method that is not an arrow function, or none.
func thisClassOf(f *file, n nid) nid {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		k := f.kind(a)
		if k == "arrow_function" {
			continue
		}
		if functionKind(k) {
			if k != "method_definition" {
				return none
			}
			if body := f.parent(a); f.kind(body) == "class_body" {
				return f.parent(body)
			}
			return none
		}
	}
	return none
}

// pushArgs lists the values one push call adds, spreads expanded.
func (x *extractor) pushArgs(f *file, c nid, e *env) []val {
	var out []val
	for _, a := range f.args(c) {
		if f.kind(a) == "spread_element" {
			inner := f.named(a)
			if len(inner) > 0 {
				els, ok := x.elements(x.eval(f, inner[0], e), e)
				if ok {
					out = append(out, els...)
				} else if len(els) == 1 && els[0].k == vNeed {
					out = append(out, els[0])
				} else {
					out = append(out, unknown("spread of an unresolved array into push"))
				}
			}
			continue
		}
		if av := x.eval(f, a, e); !neverRuns(av) {
			out = append(out, av)
		}
	}
	return out
}

// memberMutations finds the calls `this.name.method(...)` of the class that
// holds the container literal n in its member `name` (`this.name = n` in a
// method, or a field `name = n`): the entries added to it after it is made.
func memberMutations(f *file, n nid, method string) []nid {
	if f.facts == nil {
		return nil
	}
	decl := f.parent(n)
	var name string
	var class nid = none
	switch f.kind(decl) {
	case "assignment_expression":
		left := f.field(decl, "left")
		if f.field(decl, "right") != n || f.kind(left) != "member_expression" || f.kind(f.field(left, "object")) != "this" {
			return nil
		}
		name = f.text(f.field(left, "property"))
		class = thisClassOf(f, decl)
	case "public_field_definition", "field_definition":
		nm := f.field(decl, "name")
		if nm < 0 {
			nm = f.field(decl, "property")
		}
		name = propKeyName(f, nm)
		if body := f.parent(decl); f.kind(body) == "class_body" {
			class = f.parent(body)
		}
	}
	if name == "" || class < 0 {
		return nil
	}
	var out []nid
	for _, c := range f.facts.calls[method] {
		callee := f.field(c, "function")
		if f.kind(callee) != "member_expression" {
			continue
		}
		obj := f.field(callee, "object")
		if f.kind(obj) != "member_expression" || f.kind(f.field(obj, "object")) != "this" || f.text(f.field(obj, "property")) != name {
			continue
		}
		if thisClassOf(f, c) == class {
			out = append(out, c)
		}
	}
	return out
}

// reasonNoCallSite is why a parameter of a function nothing in the package
// calls has no value.
const reasonNoCallSite = "parameter of a function with no call site in the package"

// neverRuns reports whether a value added to a container was read from a
// function that nothing in the package calls: that addition does not happen
// when the package runs, so it adds nothing (a registration from another
// package is not followed, §5.2).
func neverRuns(v val) bool {
	return v.k == vUnknown && v.reason == reasonNoCallSite
}

// calleeWord is the name a call's callee is written with: the identifier,
// or a member's property (`tslib.__awaiter`); "" otherwise.
func calleeWord(f *file, callee nid) string {
	switch f.kind(callee) {
	case "identifier":
		return f.text(callee)
	case "member_expression":
		return f.text(f.field(callee, "property"))
	}
	return ""
}
