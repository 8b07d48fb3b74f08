package surface

import "strconv"

// TypeScript enums as tsc compiles them (methodology §5.2, 2.3.4):
//
//	export var ToolName;
//	(function (ToolName) {
//	    ToolName["ListNotes"] = "list_notes";
//	    ToolName[ToolName["Retries"] = 3] = "Retries";
//	})(ToolName || (ToolName = {}));
//
// The variable is the object those statements build, so `ToolName.
// ListNotes` is the literal "list_notes", with its span. Read only
// when every statement of every such function is one of those two member
// assignments of a literal, no key is assigned twice, and nothing else in
// the file assigns the variable or one of its members; any other shape is
// not an enum here and is followed as any variable is.

// tscEnum returns the object a tsc-compiled enum builds in the variable
// declared by d (a variable_declarator without initialiser).
func (x *extractor) tscEnum(f *file, d nid, name string) (val, bool) {
	if f.field(d, "value") >= 0 || f.kind(f.field(d, "name")) != "identifier" {
		return val{}, false
	}
	key := progKey{f, d, nil}
	if v, ok := x.tscEnums[key]; ok {
		if v == nil {
			return val{}, false
		}
		return *v, true
	}
	if x.tscEnums == nil {
		x.tscEnums = map[progKey]*val{}
	}
	x.tscEnums[key] = nil // in progress, and the answer unless an enum is found
	v, ok := x.readTscEnum(f, d, name)
	if ok {
		x.tscEnums[key] = &v
	}
	return v, ok
}

func (x *extractor) readTscEnum(f *file, d nid, name string) (val, bool) {
	scope := f.parent(f.parent(d))
	if f.kind(scope) == "export_statement" {
		scope = f.parent(scope)
	}
	var keys []string
	var props []val
	seen := map[string]bool{}
	add := func(k string, v val) bool {
		if seen[k] {
			return false
		}
		seen[k] = true
		keys, props = append(keys, k), append(props, v)
		return true
	}
	var iifes []nid
	for _, st := range f.named(scope) {
		if f.kind(st) != "expression_statement" {
			continue
		}
		ch := f.named(st)
		if len(ch) != 1 {
			continue
		}
		body, param, ok := tscEnumIIFE(f, ch[0], name)
		if !ok {
			continue
		}
		iifes = append(iifes, ch[0])
		for _, s := range f.named(body) {
			if f.kind(s) == "comment" {
				continue
			}
			k, v, rk, rv, ok := x.tscEnumMember(f, s, param)
			if !ok || !add(k, v) || (rk != "" && !add(rk, rv)) {
				return val{}, false
			}
		}
	}
	if len(iifes) == 0 {
		return val{}, false
	}
	// Nothing else assigns the variable or a member of it.
	inIIFE := func(n nid) bool {
		for _, c := range iifes {
			if f.start(n) >= f.start(c) && f.end(n) <= f.end(c) {
				return true
			}
		}
		return false
	}
	for _, a := range f.facts.assigns[name] {
		if !inIIFE(a) {
			return val{}, false
		}
	}
	for _, as := range f.facts.propAssigns {
		for _, a := range as {
			left := f.field(a, "left")
			if obj := f.field(left, "object"); f.kind(obj) == "identifier" && f.text(obj) == name && !inIIFE(a) {
				return val{}, false
			}
		}
	}
	return val{k: vObject, n: none, keys: keys, props: props}, true
}

// tscEnumIIFE matches `(function (P) { ... })(E || (E = {}))` (also
// `exports.E = E = {}` on the right) and returns the function's body and P.
func tscEnumIIFE(f *file, call nid, name string) (body nid, param string, ok bool) {
	if f.kind(call) != "call_expression" {
		return none, "", false
	}
	fn := f.field(call, "function")
	for f.kind(fn) == "parenthesized_expression" && len(f.named(fn)) == 1 {
		fn = f.named(fn)[0]
	}
	if k := f.kind(fn); k != "function_expression" && k != "function" && k != "arrow_function" {
		return none, "", false
	}
	ps := f.named(f.field(fn, "parameters"))
	if len(ps) != 1 || f.kind(ps[0]) != "identifier" {
		return none, "", false
	}
	args := f.args(call)
	if len(args) != 1 || f.kind(args[0]) != "binary_expression" || f.text(f.field(args[0], "operator")) != "||" {
		return none, "", false
	}
	if l := f.field(args[0], "left"); f.kind(l) != "identifier" || f.text(l) != name {
		return none, "", false
	}
	r := f.field(args[0], "right")
	for f.kind(r) == "parenthesized_expression" && len(f.named(r)) == 1 {
		r = f.named(r)[0]
	}
	for i := 0; i < 3 && f.kind(r) == "assignment_expression"; i++ {
		r = f.field(r, "right")
	}
	if f.kind(r) != "object" || len(f.named(r)) != 0 {
		return none, "", false
	}
	body = f.field(fn, "body")
	if f.kind(body) != "statement_block" {
		return none, "", false
	}
	return body, f.text(ps[0]), true
}

// tscEnumMember reads one statement of an enum's function: `P["K"] = "v"`
// (a string member), or `P[P["K"] = n] = "K"` (a numeric member and its
// reverse mapping n -> "K").
func (x *extractor) tscEnumMember(f *file, st nid, param string) (k string, v val, rk string, rv val, ok bool) {
	ch := f.named(st)
	if f.kind(st) != "expression_statement" || len(ch) != 1 || f.kind(ch[0]) != "assignment_expression" {
		return "", val{}, "", val{}, false
	}
	a := ch[0]
	left, right := f.field(a, "left"), f.field(a, "right")
	if f.kind(left) != "subscript_expression" {
		return "", val{}, "", val{}, false
	}
	if obj := f.field(left, "object"); f.kind(obj) != "identifier" || f.text(obj) != param {
		return "", val{}, "", val{}, false
	}
	idx := f.field(left, "index")
	if s, isStr := f.stringValue(idx); isStr {
		if _, lit := f.stringValue(right); !lit && f.kind(right) != "number" {
			return "", val{}, "", val{}, false
		}
		return s, x.eval(f, right, nil), "", val{}, true
	}
	// P[P["K"] = n] = "K"
	if f.kind(idx) != "assignment_expression" {
		return "", val{}, "", val{}, false
	}
	il, ir := f.field(idx, "left"), f.field(idx, "right")
	if f.kind(il) != "subscript_expression" || f.kind(ir) != "number" {
		return "", val{}, "", val{}, false
	}
	if obj := f.field(il, "object"); f.kind(obj) != "identifier" || f.text(obj) != param {
		return "", val{}, "", val{}, false
	}
	key, isStr := f.stringValue(f.field(il, "index"))
	back, isStr2 := f.stringValue(right)
	if !isStr || !isStr2 || back != key {
		return "", val{}, "", val{}, false
	}
	num, err := strconv.ParseFloat(f.text(ir), 64)
	if err != nil {
		return "", val{}, "", val{}, false
	}
	return key, x.eval(f, ir, nil), strconv.FormatFloat(num, 'f', -1, 64), x.eval(f, right, nil), true
}

// tscEnumAssignment reads `E = {}` inside a tsc enum's call argument (what
// CommonJS output exports: `exports.E = E = {}`) as the enum E.
func (x *extractor) tscEnumAssignment(f *file, n nid, e *env) (val, bool) {
	left, right := f.field(n, "left"), f.field(n, "right")
	if f.kind(left) != "identifier" || f.kind(right) != "object" || len(f.named(right)) != 0 || f.facts == nil {
		return val{}, false
	}
	b, ok := x.lookup(f, left, f.text(left))
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id {
		return val{}, false
	}
	// Only inside the enum's own call argument: E || (... E = {}).
	in := false
	for a := f.parent(n); a >= 0 && !in; a = f.parent(a) {
		if f.kind(a) == "call_expression" {
			_, _, in = tscEnumIIFE(f, a, f.text(left))
			break
		}
	}
	if !in {
		return val{}, false
	}
	return x.tscEnum(f, b.decl, f.text(left))
}
