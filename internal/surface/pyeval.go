package surface

import (
	"path"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/literal"
	"github.com/attestari/attestari/internal/rundir"
)

// pyFacts is what the extractor keeps about one Python file.
type pyFacts struct {
	calls     map[string][]nid // calls by the callee's last name
	scopes    map[nid]map[string][]nid
	sites     []siteRef
	notServer []rundir.Site
	module    string // dotted module name of the file
}

// Python site kinds reuse siteKind values with their own meaning.
const (
	pySiteDecorator   siteKind = iota + 100 // @x.tool / @x.prompt / @x.resource / @x.list_*
	pySiteCallForm                          // x.tool(...)(fn)
	pySiteAddTool                           // x.add_tool(...)
	pySiteAddPrompt                         // x.add_prompt(...)
	pySiteAddResource                       // x.add_resource(...)
	pySiteServer                            // FastMCP(...) / Server(...): instructions
	pySiteTypedList                         // TOOLS: list[Tool] = [...]
	pySiteToolFn                            // x.tool(fn, name=..., description=...)
)

func pyFunctionKind(k string) bool { return k == "function_definition" || k == "lambda" }

// pyComprehensionPK is strings.HasSuffix(kind, "comprehension") of a pyKind.
func pyComprehensionPK(k pyKind) bool {
	return k == pkListComprehension || k == pkSetComprehension || k == pkDictionaryComprehension
}

// pyScopePK is pyScopeKind of a pyKind.
func pyScopePK(k pyKind) bool {
	switch k {
	case pkModule, pkFunctionDefinition, pkLambda, pkListComprehension, pkSetComprehension,
		pkDictionaryComprehension, pkGeneratorExpression:
		return true
	}
	return false
}

func pyScopeKind(k string) bool {
	switch k {
	case "module", "function_definition", "lambda", "list_comprehension", "set_comprehension",
		"dictionary_comprehension", "generator_expression":
		return true
	}
	return false
}

// pyAttrName returns the last name of a callee: f, x.f.
func (f *file) pyAttrName(n nid) string {
	switch f.pk(n) {
	case pkIdentifier:
		return f.text(n)
	case pkAttribute:
		return f.text(f.field(n, "attribute"))
	}
	return ""
}

func buildPyFacts(f *file) *pyFacts {
	fa := &pyFacts{calls: map[string][]nid{}, scopes: map[nid]map[string][]nid{}}
	fa.module = strings.TrimSuffix(strings.TrimSuffix(f.path, ".py"), "/__init__")
	// Only the kinds below are read, in preorder (sites keep the order of
	// the file): the kind index gives them without a walk of every node.
	f.eachOfKinds(func(n nid) {
		k := f.pk(n)
		var fn nid
		var name string
		if k == pkCall {
			fn = f.field(n, "function")
			name = f.pyAttrName(fn)
		}
		if sk, ok := pyOutcomeSiteOf(f, n, fn, name); ok {
			fa.sites = append(fa.sites, siteRef{sk, n})
		}
		switch k {
		case pkDecoratedDefinition:
			fa.sites = append(fa.sites, siteRef{pySiteDecorator, n})
		case pkCall:
			if name != "" && !f.minified {
				fa.calls[name] = append(fa.calls[name], n)
			}
			inDecorator := f.pk(f.parent(n)) == pkDecorator
			fnAttr := f.pk(fn) == pkAttribute
			switch {
			case f.pk(fn) == pkCall && pyCallFormKind(f.pyAttrName(f.field(fn, "function"))) != "" && f.pk(f.field(fn, "function")) == pkAttribute:
				fa.sites = append(fa.sites, siteRef{pySiteCallForm, n})
			case name == "tool" && fnAttr && pyToolFnCandidate(f, n):
				fa.sites = append(fa.sites, siteRef{pySiteToolFn, n})
			case name == "add_tool" && fnAttr:
				fa.sites = append(fa.sites, siteRef{pySiteAddTool, n})
			case name == "add_prompt" && fnAttr:
				fa.sites = append(fa.sites, siteRef{pySiteAddPrompt, n})
			case name == "add_resource" && fnAttr:
				fa.sites = append(fa.sites, siteRef{pySiteAddResource, n})
			case name == "FastMCP" || name == "Server" || name == "MCPServer" || name == "McpServer" || name == "LowLevelServer":
				fa.sites = append(fa.sites, siteRef{pySiteServer, n})
			case name == "create_message" && fnAttr:
				fa.sites = append(fa.sites, siteRef{siteSampling, n})
			case (name == "elicit" || name == "elicit_input") && fnAttr:
				fa.sites = append(fa.sites, siteRef{siteElicitation, n})
			case (name == "list_tools" || name == "call_tool") && fnAttr && !inDecorator:
				fa.notServer = append(fa.notServer, f.site(n, "consumes another server's tools: "+truncate(f.text(n), 80)))
			case name == "ClientSession" || name == "stdio_client" || name == "sse_client" || name == "streamablehttp_client":
				fa.notServer = append(fa.notServer, f.site(n, "uses an MCP client: "+name))
			}
		case pkExpressionStatement:
			// TOOLS: list[Tool] = [...]
			if a := f.named(n); len(a) == 1 && f.pk(a[0]) == pkAssignment {
				if t := f.field(a[0], "type"); t >= 0 && pyToolListType(f, t) {
					fa.sites = append(fa.sites, siteRef{pySiteTypedList, a[0]})
				}
			}
		case pkImportFromStatement:
			mod := f.text(f.field(n, "module_name"))
			if strings.HasPrefix(mod, "mcp.client") || mod == "fastmcp.client" {
				fa.notServer = append(fa.notServer, f.site(n, "imports an MCP client: "+mod))
			}
		case pkClassDefinition:
			for _, def := range pyAPIMethods(f, n) {
				fa.notServer = append(fa.notServer, f.site(def, "defines the tool API: method "+f.text(f.field(def, "name"))))
			}
		}
	}, pkCall, pkAssignment, pkDecoratedDefinition, pkExpressionStatement, pkImportFromStatement, pkClassDefinition)
	return fa
}

func pyToolListType(f *file, t nid) bool {
	txt := strings.ReplaceAll(f.text(t), " ", "")
	for _, w := range []string{"list[Tool]", "List[Tool]", "list[types.Tool]", "List[types.Tool]", "Sequence[Tool]"} {
		if txt == w {
			return true
		}
	}
	return false
}

// pyScopeDecls lists the bindings made directly in a Python scope: params,
// assignments, defs, classes, imports and loop variables (not those of
// nested functions or comprehensions).
func (fa *pyFacts) scopeDecls(f *file, s nid) map[string][]nid {
	if m, ok := fa.scopes[s]; ok {
		return m
	}
	m := map[string][]nid{}
	add := func(name string, d nid) { m[name] = append(m[name], d) }
	// bindTarget walks a target with its own stack: a target nested a
	// million brackets deep is valid Python, and no Go stack holds that.
	bindTarget := func(t, d nid) {
		stack := []nid{t}
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch f.pk(t) {
			case pkIdentifier:
				add(f.text(t), d)
			case pkPatternList, pkTuplePattern, pkListPattern, pkTuple, pkList:
				ch := f.named(t)
				for i := len(ch) - 1; i >= 0; i-- {
					stack = append(stack, ch[i])
				}
			}
		}
	}
	root := s
	if k := f.pk(s); k == pkFunctionDefinition || k == pkLambda {
		params := f.field(s, "parameters")
		for _, p := range f.named(params) {
			name := pyParamName(f, p)
			if name != "" {
				add(name, p)
			}
		}
		root = f.field(s, "body")
	}
	if k := f.pk(s); pyComprehensionPK(k) || k == pkGeneratorExpression {
		for _, c := range f.named(s) {
			if f.pk(c) == pkForInClause {
				bindTarget(f.field(c, "left"), c)
			}
		}
		fa.scopes[s] = m
		return m
	}
	f.walk(root, func(n nid) bool {
		k := f.pk(n)
		if n != root && (k == pkFunctionDefinition || k == pkLambda || k == pkClassDefinition || pyComprehensionPK(k) || k == pkGeneratorExpression) {
			if k == pkFunctionDefinition || k == pkClassDefinition {
				add(f.text(f.field(n, "name")), n)
			}
			return false
		}
		switch k {
		case pkAssignment:
			bindTarget(f.field(n, "left"), n)
		case pkAugmentedAssignment:
			bindTarget(f.field(n, "left"), n)
		case pkForStatement:
			bindTarget(f.field(n, "left"), n)
		case pkImportStatement, pkImportFromStatement:
			for _, c := range f.fieldAll(n, "name") {
				switch f.pk(c) {
				case pkDottedName:
					ids := f.named(c)
					if len(ids) == 0 {
						continue // a name the parser could only recover as empty
					}
					if k == pkImportStatement {
						add(f.text(ids[0]), c)
					} else {
						add(f.text(ids[len(ids)-1]), c)
					}
				case pkAliasedImport:
					add(f.text(f.field(c, "alias")), c)
				}
			}
		case pkWithItem, pkAsPattern:
			if a := f.field(n, "alias"); a >= 0 {
				bindTarget(a, n)
			}
		case pkNamedExpression:
			bindTarget(f.field(n, "name"), n)
		}
		return true
	})
	fa.scopes[s] = m
	return m
}

func pyParamName(f *file, p nid) string {
	switch f.pk(p) {
	case pkIdentifier:
		return f.text(p)
	case pkTypedParameter:
		for _, c := range f.named(p) {
			if f.pk(c) == pkIdentifier {
				return f.text(c)
			}
		}
	case pkDefaultParameter, pkTypedDefaultParameter:
		return f.text(f.field(p, "name"))
	}
	return ""
}

// pyLookup finds the declaration a name at n refers to.
func (x *extractor) pyLookup(f *file, n nid, name string) (nid, nid, bool) {
	fa := f.pyFacts
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if !pyScopePK(f.pk(a)) {
			continue
		}
		ds, ok := fa.scopeDecls(f, a)[name]
		if !ok {
			continue
		}
		// A loop variable used inside its loop is that loop's element.
		for i := len(ds) - 1; i >= 0; i-- {
			if f.pk(ds[i]) == pkForStatement && f.contains(f.field(ds[i], "body"), n) {
				return ds[i], a, true
			}
		}
		return none, a, true
	}
	return none, none, false
}

func (x *extractor) evalPyIdent(f *file, n nid, name string, e *env) val {
	loop, scope, ok := x.pyLookup(f, n, name)
	if !ok {
		switch name {
		case "__doc__":
			return unknown("module docstring")
		}
		return val{k: vExternal, spec: name}
	}
	if loop >= 0 {
		return x.pyLoopBinding(f, loop, name, e)
	}
	ds := f.pyFacts.scopeDecls(f, scope)[name]
	if own, applies, why := x.pySelfRefDecls(f, n, scope, name, ds); applies {
		// x = g(x): the x before this assignment (pyselfref.go).
		if why != "" {
			return unknown("name " + name + " read in its own assignment: " + why)
		}
		ds = own
	}
	var alts []val
	for _, d := range ds {
		v := x.pyDeclValue(f, d, scope, name, e)
		if v.k == vNeed {
			return v
		}
		alts = append(alts, v)
	}
	if len(alts) == 0 {
		return unknown("name " + name + " is not bound")
	}
	return union(alts...)
}

func (x *extractor) pyDeclValue(f *file, d, scope nid, name string, e *env) val {
	switch f.kind(d) {
	case "assignment":
		left := f.field(d, "left")
		right := f.field(d, "right")
		if right < 0 {
			return val{k: vUndefined}
		}
		if f.kind(left) == "identifier" {
			return x.eval(f, right, e)
		}
		return x.pyUnpack(f, left, name, x.eval(f, right, e), e)
	case "augmented_assignment":
		return unknown("variable " + name + " is modified in place")
	case "for_statement":
		return unknown("loop variable " + name + " used after its loop")
	case "function_definition", "lambda":
		return val{k: vFunc, f: f, n: d, env: e}
	case "class_definition":
		return val{k: vClass, f: f, n: d, env: e}
	case "dotted_name", "aliased_import":
		return x.pyImportValue(f, d, name)
	case "for_in_clause":
		return x.pyLoopBinding(f, f.parent(d), name, e)
	case "identifier", "typed_parameter", "default_parameter", "typed_default_parameter":
		return x.pyParamBinding(f, d, scope, name, e)
	case "with_item", "as_pattern":
		return x.pyWithValue(f, d, name, e)
	}
	return unknown("binding of kind " + f.kind(d) + " is not followed")
}

// pyUnpack reads name out of a tuple/list target bound to v.
func (x *extractor) pyUnpack(f *file, target nid, name string, v val, e *env) val {
	if f.kind(target) == "identifier" {
		return v
	}
	if r, ok := x.enterValue(v, "unpack", ""); !ok {
		return r
	}
	defer x.leaveValue(v, "unpack", "")
	els, ok := x.elements(v, e)
	if !ok {
		if len(els) == 1 && els[0].k == vNeed {
			return els[0]
		}
		return unknown("unpacking of an unresolved value")
	}
	for i, c := range f.named(target) {
		if i < len(els) {
			if f.kind(c) == "identifier" && f.text(c) == name {
				return els[i]
			}
			if k := f.kind(c); k == "tuple_pattern" || k == "pattern_list" || k == "list_pattern" {
				for _, nm := range f.named(c) {
					if f.text(nm) == name {
						return x.pyUnpack(f, c, name, els[i], e)
					}
				}
			}
		}
	}
	return unknown("unpacking of " + name + " not followed")
}

// pyLoopBinding resolves a for-loop or comprehension variable to the element
// this instance chose.
func (x *extractor) pyLoopBinding(f *file, loop nid, name string, e *env) val {
	el, ok := x.loopElement(f, loop, e, x.pyLoopItems)
	if !ok {
		return el
	}
	left := f.field(loop, "left")
	if f.kind(loop) == "list_comprehension" || strings.HasSuffix(f.kind(loop), "comprehension") || f.kind(loop) == "generator_expression" {
		clause := f.childOfKind(loop, "for_in_clause")
		left = f.field(clause, "left")
	}
	return x.pyUnpack(f, left, name, el, e)
}

func (x *extractor) pyLoopItems(f *file, loop nid, e *env) ([]val, bool) {
	right := f.field(loop, "right")
	if k := f.kind(loop); strings.HasSuffix(k, "comprehension") || k == "generator_expression" {
		clause := f.childOfKind(loop, "for_in_clause")
		right = f.field(clause, "right")
	}
	rv := x.eval(f, right, e)
	// Iterating a dict yields its keys.
	return x.iterate(rv, rv.k == vObject, e)
}

// pyParamBinding resolves a function parameter through the call frame or
// the call site chosen for this instance, or its default.
func (x *extractor) pyParamBinding(f *file, p, fn nid, name string, e *env) val {
	fr, stop, ok := e.liveFrame(scopeRef{f, fn})
	if !ok {
		return stop
	}
	def := f.field(p, "value")
	idx := -1
	params := f.named(f.field(fn, "parameters"))
	for i, q := range params {
		if q == p {
			idx = i
		}
	}
	// Methods: self is bound to the receiver, not to an argument.
	if len(params) > 0 && pyIsMethod(f, fn) {
		if idx == 0 {
			if fr.this != nil {
				return *fr.this
			}
			return val{k: vInstance, f: f, n: pyEnclosingClass(f, fn), env: e}
		}
		idx--
	}
	var args []thunk
	switch {
	case fr.site != nil:
		args = x.pyArgThunks(fr.site.f, fr.site.n, e)
	default:
		args = fr.args
	}
	for _, a := range args {
		if a.name == name {
			return x.force(a)
		}
	}
	pos := 0
	for _, a := range args {
		if a.name == "*" {
			return x.force(a) // a list unpacked here binds this position or later ones
		}
		if a.name != "" {
			continue
		}
		if pos == idx {
			return x.force(a)
		}
		pos++
	}
	if v, ok := x.pyKwUnpacked(args, name, e); ok {
		return v // f(**d) may bind it (pyconfig.go)
	}
	if def >= 0 {
		return x.eval(f, def, e)
	}
	return val{k: vUndefined}
}

// pyIsMethod reports whether a def sits directly in a class body.
func pyIsMethod(f *file, fn nid) bool {
	p := f.parent(fn)
	if f.kind(p) == "decorated_definition" {
		p = f.parent(p)
	}
	return f.kind(p) == "block" && f.kind(f.parent(p)) == "class_definition"
}

func pyEnclosingClass(f *file, n nid) nid {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if f.kind(a) == "class_definition" {
			return a
		}
	}
	return none
}

func (x *extractor) force(t thunk) val {
	if t.v != nil {
		return *t.v
	}
	if t.read != nil {
		return t.read()
	}
	if t.f == nil {
		// The zero thunk (an argument that was not given): nothing to read.
		return unknown("an argument that is not given")
	}
	return x.eval(t.f, t.n, t.env)
}

// pyArgThunks turns a call's argument list into positional and keyword thunks.
func (x *extractor) pyArgThunks(f *file, call nid, e *env) []thunk {
	var out []thunk
	for _, a := range f.named(f.field(call, "arguments")) {
		switch f.kind(a) {
		case "keyword_argument":
			out = append(out, thunk{f: f, n: f.field(a, "value"), env: e, name: f.text(f.field(a, "name"))})
		case "list_splat":
			u := unknown("arguments passed by unpacking")
			out = append(out, thunk{v: &u, name: "*"})
		case "dictionary_splat":
			// **d: the dict is read when a parameter asks (pyKwUnpacked).
			inner := f.named(a)
			if len(inner) == 0 {
				u := unknown("arguments passed by unpacking")
				out = append(out, thunk{v: &u, name: "*"})
				continue
			}
			out = append(out, thunk{f: f, n: inner[0], env: e, name: "**"})
		default:
			out = append(out, thunk{f: f, n: a, env: e})
		}
	}
	return out
}

// evalPyNode reads a Python expression node; eval guards it.
func (x *extractor) evalPyNode(f *file, n nid, e *env) val {
	switch f.kind(n) {
	case "string":
		return pyStringText(f, n)
	case "concatenated_string":
		var parts []val
		for _, c := range f.named(n) {
			parts = append(parts, pyStringText(f, c))
		}
		return concatText(parts...)
	case "integer", "float":
		return val{k: vNumber, f: f, n: n}
	case "true", "false":
		return val{k: vBool, boolv: f.kind(n) == "true"}
	case "none":
		return val{k: vNull}
	case "identifier":
		return x.evalPyIdent(f, n, f.text(n), e)
	case "parenthesized_expression", "await", "expression_statement":
		ch := f.named(n)
		if len(ch) == 0 {
			return unknown("empty expression")
		}
		return x.eval(f, ch[len(ch)-1], e)
	case "conditional_expression":
		ch := f.named(n)
		if len(ch) != 3 {
			return unknown("conditional expression")
		}
		if v, ok := x.pyChoose(f, ch, e); ok {
			return v // the condition is known (pyconfig.go)
		}
		return union(x.eval(f, ch[0], e), x.eval(f, ch[2], e))
	case "boolean_operator":
		op := f.text(f.field(n, "operator"))
		l := x.eval(f, f.field(n, "left"), e)
		if l.k == vNeed {
			return l
		}
		if op == "or" {
			switch l.k {
			case vNull, vUndefined:
				return x.eval(f, f.field(n, "right"), e)
			case vText:
				if s, ok := plainText(l); ok && s != "" {
					return l
				}
			}
		}
		if v, ok := x.pyCondValue(f, n, e); ok {
			return v // over known values (pyconfig.go)
		}
		return unknown("value chosen at run time (" + op + ")")
	case "binary_operator":
		op := f.text(f.field(n, "operator"))
		if op != "+" {
			return unknown("result of the operator " + op)
		}
		l := x.eval(f, f.field(n, "left"), e)
		r := x.eval(f, f.field(n, "right"), e)
		if l.k == vNeed {
			return l
		}
		if r.k == vNeed {
			return r
		}
		if l.k == vText || r.k == vText {
			return concatText(l, r)
		}
		if l.k == vArray && r.k == vArray {
			a, ok1 := x.elements(l, e)
			b, ok2 := x.elements(r, e)
			if ok1 && ok2 {
				return val{k: vArray, n: none, elems: append(append([]val(nil), a...), b...)}
			}
		}
		return unknown("result of the operator +")
	case "attribute":
		attr := f.text(f.field(n, "attribute"))
		obj, done := x.pyEnumValueAttr(f, n, attr, e)
		if done {
			return obj
		}
		if obj.k == vNeed {
			return obj
		}
		return x.pyAttrOf(obj, attr, e)
	case "subscript":
		if v, ok := pyEnvRead(f, n); ok {
			return v
		}
		obj := x.eval(f, f.field(n, "value"), e)
		if obj.k == vNeed {
			return obj
		}
		idx := f.field(n, "subscript")
		kv := x.eval(f, idx, e)
		if kv.k == vNeed {
			return kv
		}
		var key string
		switch kv.k {
		case vText:
			s, ok := plainText(kv)
			if !ok {
				return unknown("key computed at run time")
			}
			key = s
		case vNumber:
			key = f.text(idx)
		default:
			return unknown("key computed at run time")
		}
		v, _ := x.getProp(obj, key, e)
		return v
	case "call":
		return x.evalPyCall(f, n, e)
	case "dictionary":
		return val{k: vObject, f: f, n: n, env: e}
	case "list", "tuple", "set":
		return val{k: vArray, f: f, n: n, env: e}
	case "list_comprehension", "generator_expression", "set_comprehension":
		return x.pyComprehension(f, n, e)
	case "lambda", "function_definition":
		return val{k: vFunc, f: f, n: n, env: e}
	case "class_definition":
		return val{k: vClass, f: f, n: n, env: e}
	case "keyword_argument":
		return x.eval(f, f.field(n, "value"), e)
	case "not_operator", "comparison_operator":
		if v, ok := x.pyCondValue(f, n, e); ok {
			return v // over known values (pyconfig.go)
		}
	}
	return unknown("expression of kind " + f.kind(n) + " is not followed")
}

// pyStringText reads a Python string literal: its literal segments, and a
// hole for each f-string interpolation. Bytes literals are not text.
func pyStringText(f *file, n nid) val {
	if f.kind(n) != "string" {
		return unknown("not a string literal")
	}
	startTok := f.childOfKind(n, "string_start")
	endTok := f.childOfKind(n, "string_end")
	if startTok < 0 || endTok < 0 {
		return unknown("unterminated string")
	}
	prefix := strings.ToLower(strings.TrimRight(f.text(startTok), `"'`))
	if strings.Contains(prefix, "b") {
		return unknown("bytes literal")
	}
	raw := strings.Contains(prefix, "r")
	fstr := strings.Contains(prefix, "f") || strings.Contains(prefix, "t")
	enc := literal.PyString
	switch {
	case raw && fstr:
		enc = literal.PyRawFString
	case raw:
		enc = literal.PyRaw
	case fstr:
		enc = literal.PyFString
	}
	start := f.end(startTok)
	var parts []val
	var interps []nid
	f.walk(n, func(c nid) bool {
		if f.kind(c) == "interpolation" {
			interps = append(interps, c)
			return false
		}
		return true
	})
	for _, c := range interps {
		if f.start(c) > start {
			parts = append(parts, literalText(f, start, f.start(c), enc))
		}
		parts = append(parts, holeText(f, c, none, nil))
		start = f.end(c)
	}
	if end := f.start(endTok); end > start {
		parts = append(parts, literalText(f, start, end, enc))
	}
	if len(parts) == 0 {
		return val{k: vText, txt: &textv{}}
	}
	return concatText(parts...)
}

// pyComprehension evaluates [expr for x in items] element by element.
func (x *extractor) pyComprehension(f *file, n nid, e *env) val {
	clauses := 0
	for _, c := range f.named(n) {
		if k := f.kind(c); k == "for_in_clause" {
			clauses++
		} else if k == "if_clause" {
			// A filter keeps a subset chosen at run time; every element is
			// a candidate, as with filter() in JavaScript.
		}
	}
	if clauses != 1 {
		return unknown("comprehension with nested loops")
	}
	items, ok := x.pyLoopItems(f, n, e)
	if !ok {
		if len(items) == 1 && items[0].k == vNeed {
			return items[0]
		}
		if len(items) == 1 {
			// The reason says where the items come from (run-time data or not).
			return unknown("comprehension over a value not resolved: " + reasonOf(items[0]))
		}
		return unknown("comprehension over an unresolved value")
	}
	body := f.field(n, "body")
	if body < 0 {
		ch := f.named(n)
		if len(ch) == 0 {
			return unknown("comprehension without a body")
		}
		body = ch[0]
	}
	out := make([]val, 0, len(items))
	s := scopeRef{f, n}
	for i := range items {
		ne := e.push(env{scope: s, index: i, isLoop: true, items: items})
		out = append(out, x.eval(f, body, ne))
	}
	return val{k: vArray, n: none, elems: out}
}

// kwConstructors build MCP objects from keyword arguments: Tool(name=...),
// types.Prompt(...), UserMessage("..."), Field(description=...).
var kwConstructors = map[string][]string{
	"Tool": {"name", "description", "inputSchema"}, "Prompt": {"name", "description", "arguments"},
	"Resource": {"uri", "name", "description"}, "ResourceTemplate": {"uriTemplate", "name", "description"},
	"ToolAnnotations": nil, "PromptArgument": {"name", "description"}, "TextContent": {"type", "text"},
	"PromptMessage": {"role", "content"}, "UserMessage": {"content"}, "AssistantMessage": {"content"},
	"Message": {"content", "role"}, "GetPromptResult": {"messages", "description"}, "Field": {"default"},
	"dict": nil, "InitializationOptions": nil,
	// A list handler may wrap its list in the result type; the SDK's models take keywords only.
	"ListToolsResult": nil, "ListPromptsResult": nil, "ListResourcesResult": nil, "ListResourceTemplatesResult": nil,
}

func (x *extractor) evalPyCall(f *file, n nid, e *env) val {
	if v, ok := x.pyConfigCall(f, n, e); ok {
		return v // the environment or the command line, read as its default (pyconfig.go)
	}
	fnNode := f.field(n, "function")
	name := f.pyAttrName(fnNode)
	if v, ok := x.pyFileRead(f, n, e); ok {
		return v
	}
	if v, ok := pyEnvRead(f, n); ok {
		return v
	}
	args := x.pyArgThunks(f, n, e)
	var recv val // the receiver of a method call x.m(...)
	if f.kind(fnNode) == "attribute" {
		recv = x.eval(f, f.field(fnNode, "object"), e)
		if recv.k == vNeed {
			return recv
		}
		switch name {
		case "join":
			if recv.k == vText && len(args) == 1 {
				els, ok := x.elements(x.force(args[0]), e)
				if !ok {
					return unknown("join over an unresolved list")
				}
				var parts []val
				for i, el := range els {
					if i > 0 {
						parts = append(parts, recv)
					}
					parts = append(parts, el)
				}
				if len(parts) == 0 {
					return val{k: vText, txt: &textv{}}
				}
				return concatText(parts...)
			}
		case "strip", "lstrip", "rstrip":
			if recv.k == vText && len(args) == 0 {
				return trimText(recv, name != "rstrip", name != "lstrip", pySpace)
			}
		case "format", "format_map", "replace", "upper", "lower", "title", "capitalize", "encode":
			if recv.k == vText {
				return unknown("text transformed by str." + name + "()")
			}
		case "get":
			if recv.k == vObject && len(args) >= 1 {
				k, ok := plainText(x.force(args[0]))
				if !ok {
					return unknown("key computed at run time")
				}
				v, found := x.getProp(recv, k, e)
				if !found || v.k == vUndefined {
					if len(args) >= 2 {
						return x.force(args[1])
					}
					return val{k: vNull}
				}
				return v
			}
		case "items", "values", "keys":
			if recv.k == vObject {
				keys, vals, ok := x.entries(recv, e)
				if !ok {
					if len(vals) == 1 && vals[0].isUnknown() {
						return vals[0] // an addition to the dict needs a binding, or says why it is unread
					}
					return unknown("dict." + name + "() of an unresolved dict")
				}
				return entriesView(name, keys, vals)
			}
		case "dedent", "cleandoc":
			if recv.k == vExternal && (recv.spec == "textwrap" || recv.spec == "inspect") && len(args) == 1 {
				return pyDedent(x.force(args[0]), name == "cleandoc")
			}
		case "from_function":
			// Tool.from_function(fn, name=..., description=...)
			return val{k: vObject, n: none, keys: []string{"__from_function__"}, props: []val{{k: vArray, n: none, args: args}}}
		}
	}
	fn := x.eval(f, fnNode, e)
	if fn.k == vNeed {
		return fn
	}
	switch fn.k {
	case vUnknown:
		return unknown("result of a call to an unresolved function: " + reasonOf(fn))
	case vFunc:
		if v, bound := x.pyMethodCall(fn, recv, args, e); bound {
			return v
		}
		return x.callPy(fn, args, e)
	case vClass:
		if enum, _ := x.pyEnumClass(fn, nil); enum {
			return x.pyEnumLookup(fn, args) // E(v): a member by its value (pyenum.go)
		}
		return pyNewInstance(fn, args, e)
	case vExternal:
		last := fn.spec
		if i := strings.LastIndex(last, "."); i >= 0 {
			last = last[i+1:]
		}
		if (last == "dedent" || last == "cleandoc") && len(args) == 1 {
			return pyDedent(x.force(args[0]), last == "cleandoc")
		}
		if last == "str" && len(args) == 1 {
			if v := x.force(args[0]); v.k == vText {
				return v
			}
		}
		if last == "list" || last == "tuple" || last == "sorted" || last == "set" || last == "frozenset" {
			if len(args) == 1 {
				return x.force(args[0])
			}
		}
		if pos, ok := kwConstructors[last]; ok {
			return kwObject(x, last, pos, args)
		}
		if r := x.pyExternalRuntime(f, n, fn.spec, args); r != "" {
			return unknown(r)
		}
		if r := externalCallReason(fn.spec); r != "" {
			return unknown(r)
		}
		if last == "load" || last == "loads" || last == "safe_load" {
			return unknown("parsed at run time (" + fn.spec + ")")
		}
		if last == "open" || last == "read_text" || last == "read" {
			return unknown("read from a file at run time (" + fn.spec + ")")
		}
		return unknown("result of a call into another package (" + fn.spec + ")")
	}
	return unknown("result of the call " + truncate(f.text(fnNode), 60))
}

// kwObject is the object an MCP type constructor builds: its keyword
// arguments, and its positional ones in the constructor's order.
func kwObject(x *extractor, ctor string, positional []string, args []thunk) val {
	o := val{k: vObject, n: none, keys: []string{"__type__"}, props: []val{{k: vText, txt: &textv{segs: []seg{{text: ctor}}}}}}
	pos := 0
	for _, a := range args {
		if a.name == "*" || a.name == "**" {
			o.keys = append(o.keys, "__unpacked__")
			o.props = append(o.props, unknown("arguments passed by unpacking"))
			continue
		}
		k := a.name
		if k == "" {
			if pos >= len(positional) {
				continue
			}
			k = positional[pos]
			pos++
		}
		o.keys = append(o.keys, k)
		o.props = append(o.props, x.force(a))
	}
	return o
}

// callPy evaluates what a Python function returns for the given arguments.
func (x *extractor) callPy(fn val, args []thunk, e *env) val {
	f, n := fn.f, fn.n
	if e != nil && e.depth > x.opts.MaxDepth {
		return unknown("call depth limit reached")
	}
	ne := e.push(env{scope: scopeRef{f, n}, args: args})
	body := f.field(n, "body")
	if body < 0 {
		return unknown("function without a body")
	}
	if f.kind(n) == "lambda" {
		return x.eval(f, body, ne)
	}
	if v, ok := x.pyPureCall(f, n, ne); ok {
		return v // only the return its known tests reach (pyconfig.go)
	}
	var rets []nid
	f.walk(body, func(c nid) bool {
		k := f.kind(c)
		if c != body && (pyFunctionKind(k) || k == "class_definition") {
			return false
		}
		if k == "return_statement" {
			rets = append(rets, c)
			return false
		}
		return true
	})
	return x.returnValues(f, rets, ne, val{k: vNull})
}

// pyDictGet reads a string key of a dict literal.
func (x *extractor) pyDictGet(v val, key string, e *env) (val, bool) {
	f := v.f
	ch := f.named(v.n)
	for i := len(ch) - 1; i >= 0; i-- {
		c := ch[i]
		switch f.kind(c) {
		case "pair":
			kv := x.eval(f, f.field(c, "key"), v.env)
			s, ok := plainText(kv)
			if !ok {
				return unknown("dict key computed at run time"), true
			}
			if s == key {
				return x.pyOverwritten(v, key, x.eval(f, f.field(c, "value"), v.env)), true
			}
		case "dictionary_splat":
			inner := f.named(c)
			if len(inner) == 0 {
				continue
			}
			sv := x.eval(f, inner[0], v.env)
			p, found := x.getProp(sv, key, e)
			if found {
				if sv.isUnknown() {
					return unknown("dict unpacking of an unresolved value"), true
				}
				return p, true
			}
		}
	}
	return x.pyAddedEntry(v, key)
}

func (x *extractor) pyElements(v val, e *env) ([]val, bool) {
	f := v.f
	var out []val
	for _, c := range f.named(v.n) {
		if f.kind(c) == "list_splat" {
			els, ok := x.spreadElements(f, c, v.env, e)
			if !ok {
				return els, false
			}
			out = append(out, els...)
			continue
		}
		out = append(out, x.eval(f, c, v.env))
	}
	out = x.pyListElements(v, out) // elements replaced (pypw_lists.go)
	_, added, ok := x.pyContainerAdditions(v, false)
	if !ok {
		return added, false
	}
	return append(out, added...), true
}

func (x *extractor) pyDictEntries(v val, e *env) (keys, vals []val, ok bool) {
	f := v.f
	for _, c := range f.named(v.n) {
		switch f.kind(c) {
		case "pair":
			keys = append(keys, x.eval(f, f.field(c, "key"), v.env))
			vals = append(vals, x.eval(f, f.field(c, "value"), v.env))
		case "dictionary_splat":
			k, vs, ok := x.spreadEntries(f, c, v.env, e)
			if !ok {
				return nil, nil, false
			}
			keys, vals = append(keys, k...), append(vals, vs...)
		default:
			return nil, nil, false
		}
	}
	k, vs, ok := x.pyContainerAdditions(v, true)
	if !ok {
		return nil, vs, false
	}
	return append(keys, k...), append(vals, vs...), true
}

// pyImportValue resolves `import a.b as c` / `from .m import name`.
func (x *extractor) pyImportValue(f *file, d nid, name string) val {
	stmt := f.parent(d)
	if f.kind(stmt) == "import_from_statement" {
		modNode := f.field(stmt, "module_name")
		mod := f.text(modNode)
		var imported string
		if f.kind(d) == "aliased_import" {
			imported = f.text(f.field(d, "name"))
		} else if ids := f.named(d); len(ids) > 0 {
			imported = f.text(ids[len(ids)-1])
		}
		target := x.pyResolveModule(f, mod)
		if target == f {
			// `from . import server` in the package's own __init__.py: the
			// name this statement binds is the submodule, not an attribute
			// the statement itself defines.
			if sub := x.pyResolveModule(f, joinModule(mod, imported)); sub != nil && sub != f {
				return val{k: vModule, f: sub}
			}
		}
		if target == nil {
			// from pkg import submodule
			if sub := x.pyResolveModule(f, joinModule(mod, imported)); sub != nil {
				return val{k: vModule, f: sub}
			}
			return val{k: vExternal, spec: mod + "." + imported}
		}
		v, _ := x.pyModuleAttr(target, imported)
		return v
	}
	var full string
	if f.kind(d) == "aliased_import" {
		full = f.text(f.field(d, "name"))
	} else if ids := f.named(d); len(ids) > 0 {
		full = f.text(ids[0])
	}
	if t := x.pyResolveModule(f, full); t != nil {
		return val{k: vModule, f: t}
	}
	return val{k: vExternal, spec: full}
}

func joinModule(mod, name string) string {
	if strings.HasSuffix(mod, ".") {
		return mod + name
	}
	return mod + "." + name
}

// pyResolveModule maps a (possibly relative) dotted module name to a file of
// the artifact.
func (x *extractor) pyResolveModule(from *file, mod string) *file {
	// The answer depends on from only through its directory, and only for
	// a relative name; the package's files do not change once loaded.
	key := pyModuleKey{mod: mod}
	if strings.HasPrefix(mod, ".") {
		key.dir = path.Dir(from.path)
	}
	ix := x.pyPackage()
	if f, ok := ix.modules[key]; ok {
		return f
	}
	f := x.pyResolveModuleOnce(from, mod)
	ix.modules[key] = f
	return f
}

// pyResolveModuleOnce is pyResolveModule without its memo.
func (x *extractor) pyResolveModuleOnce(from *file, mod string) *file {
	dots := len(mod) - len(strings.TrimLeft(mod, "."))
	rest := strings.ReplaceAll(strings.TrimLeft(mod, "."), ".", "/")
	if dots > 0 {
		dir := path.Dir(from.path)
		for i := 1; i < dots; i++ {
			dir = path.Dir(dir)
		}
		base := dir
		if rest != "" {
			base = path.Join(dir, rest)
		}
		return x.resolvePath(base, true)
	}
	// Absolute: try from each top-level directory that holds Python files.
	for _, root := range x.pyRoots() {
		if f := x.resolvePath(path.Join(root, rest), true); f != nil {
			return f
		}
	}
	return nil
}

// pyRoots lists the directories an absolute import may start from: every
// directory holding a top-level package or module of the artifact (the
// archive root, src/, an sdist's name-version/ directory), shortest first.
func (x *extractor) pyRoots() []string {
	if x.pyRootList != nil {
		return x.pyRootList
	}
	seen := map[string]bool{}
	for _, f := range x.files {
		if f.lang != LangPython {
			continue
		}
		// The directory above the topmost package (a directory with
		// __init__.py) that holds this file.
		dir := path.Dir(f.path)
		root := dir
		for d := dir; d != "." && d != "/"; d = path.Dir(d) {
			if _, ok := x.byPath[d+"/__init__.py"]; ok {
				root = path.Dir(d)
			} else {
				break
			}
		}
		seen[root] = true
	}
	seen["."] = true
	roots := make([]string, 0, len(seen))
	for r := range seen {
		roots = append(roots, r)
	}
	sort.Slice(roots, func(i, j int) bool {
		if len(roots[i]) != len(roots[j]) {
			return len(roots[i]) < len(roots[j])
		}
		return roots[i] < roots[j]
	})
	x.pyRootList = roots
	return roots
}

// pyModuleAttr reads a module-level name of a Python file.
func (x *extractor) pyModuleAttr(f *file, name string) (val, bool) {
	if f.pyFacts == nil {
		return unknown("module " + f.path + " was not parsed"), true
	}
	if v, ok := x.enterName(f, none, name); !ok {
		return v, true
	}
	defer x.leaveName(f, none, name)
	if _, ok := f.pyFacts.scopeDecls(f, 0)[name]; !ok {
		if sub := x.resolvePath(path.Join(path.Dir(f.path), name), true); sub != nil && path.Base(f.path) == "__init__.py" {
			return val{k: vModule, f: sub}, true
		}
		return unknown("module " + f.path + " does not define " + name), false
	}
	var alts []val
	for _, d := range f.pyFacts.scopeDecls(f, 0)[name] {
		alts = append(alts, x.pyDeclValue(f, d, 0, name, nil))
	}
	return union(alts...), true
}

// pyMember reads an attribute of a Python class instance: class-level
// assignments, self.x assignments in __init__, methods.
func (x *extractor) pyMember(v val, key string, e *env) (val, bool) {
	f, class := v.f, v.n
	if v.k == vClass {
		if enum, str := x.pyEnumClass(v, nil); enum {
			if !pyEnumMemberName(key) {
				return unknown("attribute " + key + " of an Enum"), true
			}
			if !str {
				// A member of an Enum without str is not a str: a client sees
				// its value only through .value.
				return unknown("member " + key + " of an Enum that is not a str Enum"), true
			}
			return x.pyEnumMember(v, key), true
		}
	}
	if why := x.pyOutsideWrite(v, key); why != "" {
		return unknown(why), true
	}
	body := f.field(class, "body")
	var init, clsAt nid = none, none
	for _, st := range f.named(body) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		switch f.kind(def) {
		case "function_definition":
			nm := f.text(f.field(def, "name"))
			if nm == "__init__" {
				init = def
			}
			if nm == key {
				return x.pyMethodValue(v, val{k: vFunc, f: f, n: def, env: e}, e), true
			}
		case "expression_statement":
			for _, a := range f.named(def) {
				if f.kind(a) == "assignment" && f.text(f.field(a, "left")) == key && clsAt < 0 {
					if v.k != vInstance {
						return x.eval(f, f.field(a, "right"), e), true
					}
					clsAt = a
				}
			}
		}
	}
	if clsAt >= 0 {
		// An instance's own attribute hides the class's (pyinstattr.go).
		return x.pyClassAttrOfInstance(v, v, init, v.args, v.args != nil, true, pyInitEnv(v, f, init, v.args, v.args != nil, e), clsAt, e, key, e), true
	}
	if init >= 0 && len(pySelfWrites(f, init, key)) > 0 {
		ie := pyInitEnv(v, f, init, v.args, v.args != nil, e)
		alts, every := x.pySelfWriteValues(f, init, key, ie)
		alts = append(alts, x.pyMemberElsewhere(f, class, init, key, ie)...)
		if !every {
			// On a path where __init__ does not set it, the instance shows
			// what a base defines (pyinstattr.go).
			if inh, found := x.pyInheritedMember(v, key, e); found && inh.k != vUndefined {
				alts = append(alts, inh)
			}
		}
		return union(alts...), true
	}
	alts := x.pyMemberElsewhere(f, class, init, key, e)
	inh, found := x.pyInheritedMember(v, key, e)
	if len(alts) > 0 {
		// An attribute another method assigns, and perhaps a base defines:
		// the value is any of them.
		if found && inh.k != vUndefined {
			alts = append(alts, inh)
		}
		return union(alts...), true
	}
	return inh, found
}

// pyInstances enumerates a Python scope: loop elements, or a function's call
// sites in the package.
func (x *extractor) pyInstances(s scopeRef, e *env) ([]env, string, *scopeRef) {
	f, n := s.f, s.n
	k := f.kind(n)
	if k == "for_statement" || strings.HasSuffix(k, "comprehension") || k == "generator_expression" {
		return x.loopInstances(s, e, x.pyLoopItems, "loop over an empty list")
	}
	if k != "function_definition" {
		return nil, "parameter of a " + k, nil
	}
	if f.kind(f.parent(n)) == "decorated_definition" {
		if fr, ok := x.pyClickFrame(s); ok {
			return []env{fr}, "", nil // a click command's options (pyconfig.go)
		}
		if fr, ok := x.pyTyperFrame(s); ok {
			return []env{fr}, "", nil // a Typer command's defaults (pyflags.go)
		}
		return nil, "parameter supplied by the framework that calls the decorated function", nil
	}
	if frames, reason, ok := x.pyMethodInstances(s, e); ok {
		return frames, reason, nil
	}
	name := f.text(f.field(n, "name"))
	var frames []env
	for _, g := range x.files {
		if g.pyFacts == nil || !g.runnable() {
			continue
		}
		for _, c := range g.pyFacts.calls[name] {
			cv := x.eval(g, g.field(c, "function"), e)
			if cv.k == vFunc && cv.f == f && cv.n == n {
				cs := callSite{f: g, n: c, thisArg: none}
				frames = append(frames, env{scope: s, site: &cs})
			}
		}
	}
	if len(frames) == 0 {
		return nil, reasonNoCallSite, nil
	}
	return frames, "", nil
}

// pyDedent applies textwrap.dedent (or inspect.cleandoc) to a readable text
// by keeping, line by line, the characters after the common margin.
func pyDedent(v val, clean bool) val {
	if v.k != vText {
		return v
	}
	if v.txt.partial() {
		return unknown("dedent of a text with substitutions")
	}
	raw := v.txt.raw()
	lines := strings.SplitAfter(raw, "\n")
	margin := -1
	for i, l := range lines {
		if clean && i == 0 {
			continue
		}
		body := strings.TrimRight(l, "\n")
		if strings.TrimSpace(body) == "" {
			continue
		}
		ind := len(body) - len(strings.TrimLeft(body, " \t"))
		if margin < 0 || ind < margin {
			margin = ind
		}
	}
	if margin < 0 {
		margin = 0
	}
	// Keep ranges of the raw text.
	type rng struct{ a, b int }
	var keep []rng
	off := 0
	for i, l := range lines {
		body := strings.TrimRight(l, "\n")
		nl := len(l) - len(body)
		switch {
		case clean && i == 0:
			lead := len(body) - len(strings.TrimLeft(body, " \t"))
			keep = append(keep, rng{off + lead, off + len(l)})
		case strings.TrimSpace(body) == "":
			// Whitespace-only lines become empty.
			keep = append(keep, rng{off + len(body), off + len(body) + nl})
		default:
			keep = append(keep, rng{off + margin, off + len(l)})
		}
		off += len(l)
	}
	out := keepRanges(v.txt, func(yield func(a, b int)) {
		for _, r := range keep {
			yield(r.a, r.b)
		}
	})
	if clean {
		// cleandoc also drops leading and trailing blank lines.
		out = trimBlankLines(out)
	}
	return out
}

// keepRanges builds a text from the raw ranges given, slicing segments so
// every kept byte keeps its source span.
func keepRanges(t *textv, ranges func(yield func(a, b int))) val {
	out := &textv{}
	ranges(func(a, b int) {
		if a >= b {
			return
		}
		pos := 0
		for _, s := range t.segs {
			if s.hole {
				continue
			}
			sa, sb := pos, pos+len(s.text)
			pos = sb
			lo, hi := max(a, sa), min(b, sb)
			if lo >= hi {
				continue
			}
			out.segs = append(out.segs, s.slice(lo-sa, hi-sa))
		}
	})
	return val{k: vText, txt: out}
}

func trimBlankLines(v val) val {
	raw := v.txt.raw()
	lines := strings.SplitAfter(raw, "\n")
	a, b := 0, len(raw)
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			break
		}
		a += len(l)
	}
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.TrimSpace(lines[i]) != "" {
			break
		}
		b -= len(lines[i])
	}
	if a >= b {
		return val{k: vText, txt: &textv{}}
	}
	// The last kept line loses its trailing newline.
	v2 := keepRanges(v.txt, func(yield func(a, b int)) { yield(a, b) })
	return trimText(v2, false, true, func(r rune) bool { return r == '\n' })
}

// pyEnumBases are the enum module's base classes; StrEnum's members are str.
var pyEnumBases = map[string]bool{"enum.Enum": false, "enum.StrEnum": true, "enum.IntEnum": false, "enum.Flag": false, "enum.IntFlag": false}

// pyEnumClass reports whether class value cls is an Enum, and whether its
// members are str (a str mixin or StrEnum), following bases defined in the
// package. seen holds every class already walked: each is walked once, so a
// cycle of bases (which Python rejects, but a source can spell) ends and a
// lattice of shared bases is not walked once per path; the answer is an "or"
// over all bases reached, which a second visit could not change. A base that cannot be followed makes the class not an Enum, so its
// attributes are read as plain class attributes.
func (x *extractor) pyEnumClass(cls val, seen map[scopeRef]bool) (enum, str bool) {
	if cls.f == nil || cls.f.lang != LangPython {
		return false, false
	}
	if seen == nil {
		seen = map[scopeRef]bool{}
	}
	at := scopeRef{cls.f, cls.n}
	if seen[at] || len(seen) > 64 {
		return false, false
	}
	seen[at] = true
	f := cls.f
	supers := f.field(cls.n, "superclasses")
	if supers < 0 {
		return false, false
	}
	for _, b := range f.named(supers) {
		if f.kind(b) == "keyword_argument" {
			continue
		}
		bv := x.eval(f, b, cls.env)
		switch bv.k {
		case vExternal:
			if bv.spec == "str" {
				str = true
			} else if s, ok := pyEnumBases[bv.spec]; ok {
				enum = true
				str = str || s
			}
		case vClass:
			be, bs := x.pyEnumClass(bv, seen)
			enum = enum || be
			str = str || bs
		}
	}
	return enum, enum && str
}

// pyEnumMemberName reports whether a class attribute of an Enum is a
// member: names with a leading underscore are not.
func pyEnumMemberName(key string) bool { return key != "" && key[0] != '_' }

// pyEnumMember is the value of member key of Enum class cls, read only from
// a string literal assigned in the class body: any other value (auto(), a
// computation, a name) is left unresolved.
func (x *extractor) pyEnumMember(cls val, key string) val {
	f := cls.f
	for _, st := range f.named(f.field(cls.n, "body")) {
		if f.kind(st) != "expression_statement" {
			continue
		}
		for _, a := range f.named(st) {
			if f.kind(a) != "assignment" || f.text(f.field(a, "left")) != key {
				continue
			}
			r := f.field(a, "right")
			if k := f.kind(r); k != "string" && k != "concatenated_string" {
				return unknown("Enum member " + key + " has a value that is not a string literal")
			}
			v := x.eval(f, r, cls.env)
			if _, ok := plainText(v); !ok {
				return unknown("Enum member " + key + " has a value that is not a string literal")
			}
			return v
		}
	}
	return unknown("Enum member " + key + " is not defined in its class")
}

// pyAttrOf is attribute attr of the value obj.
func (x *extractor) pyAttrOf(obj val, attr string, e *env) val {
	if obj.k == vExternal && (obj.spec == "os" && attr == "environ") {
		return unknown("environment variable")
	}
	if v, ok := x.pyArgparseAttr(obj, attr); ok {
		return v // a command-line option, read as its default (pyconfig.go)
	}
	if obj.pyEnum != nil {
		switch attr {
		case "value":
			return obj.pyEnum.value
		case "name":
			return val{k: vText, txt: &textv{segs: []seg{{text: obj.pyEnum.name}}}}
		}
	}
	v, _ := x.getProp(obj, attr, e)
	return v
}

// pyEnumValueAttr reads C.M.value where C is an Enum class of the package:
// the literal value of member M, with done set. Otherwise it returns the
// object of attribute node n, evaluated once: C.M is built from the C it
// already evaluated, so a chain of .value attributes is not evaluated again
// at every level.
func (x *extractor) pyEnumValueAttr(f *file, n nid, attr string, e *env) (obj val, done bool) {
	on := f.field(n, "object")
	if attr != "value" || f.kind(on) != "attribute" {
		return x.eval(f, on, e), false
	}
	cls := x.eval(f, f.field(on, "object"), e)
	if cls.k == vNeed {
		return cls, true
	}
	key := f.text(f.field(on, "attribute"))
	if cls.k == vClass {
		if enum, _ := x.pyEnumClass(cls, nil); enum {
			if !pyEnumMemberName(key) {
				return unknown("attribute " + key + " of an Enum"), true
			}
			return x.pyEnumMember(cls, key), true
		}
	}
	return x.pyAttrOf(cls, key, e), false
}
