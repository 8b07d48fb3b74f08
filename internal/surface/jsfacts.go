package surface

import (
	"strings"
)

// exportRef says where one exported name of a JS module gets its value.
type exportRef struct {
	kind  exportKind
	local string // exLocal: the module-scope name
	node  nid    // exExpr: the expression; exLocal: the node that named it
	spec  string // exReexport / exNamespace: the module specifier
	name  string // exReexport: the name imported from spec
}

type exportKind uint8

const (
	exLocal exportKind = iota
	exExpr
	exReexport
	exNamespace
)

type declRef struct {
	decl nid // variable_declarator, function/class declaration, import_specifier...
	id   nid // the identifier node that binds the name
}

// facts is what the extractor keeps about one JS/TS file besides its nodes:
// computed in one pass over the flat copy, consulted across files.
type facts struct {
	exports     map[string]exportRef
	exportOrder []string
	stars       []string // export * from spec
	cjsExports  nid      // right side of the last `module.exports = ...`
	esModule    bool
	// calls indexes call and new expressions by the callee's last name
	// (`f(...)`, `x.f(...)`, `new F(...)`). Minified bundles are not indexed.
	calls map[string][]nid
	// assigns indexes `name = value` assignments by the assigned name.
	assigns map[string][]nid
	// propAssigns indexes `x.name = value` assignments by the property name.
	propAssigns map[string][]nid
	// augAssigns indexes `name += value` (any compound assignment) by name.
	augAssigns map[string][]nid
	scopes     map[nid]map[string][]declRef
	imports    []importFact
	sites      []siteRef
}

type importFact struct {
	spec  string
	node  nid
	names []string // imported names ("default", "*", or the name)
	req   bool     // require() rather than import
}

// siteRef is a candidate registration site or other fact the surface records.
type siteRef struct {
	kind siteKind
	n    nid
}

type siteKind uint8

const (
	siteTool siteKind = iota + 1 // .tool(...)
	siteRegisterTool
	siteAddTool
	siteDefineTool
	siteRequestHandler // setRequestHandler(...)
	siteMethodCase     // case "tools/list":
	siteMethodIf       // if (method === "tools/list")
	siteTypedTool      // const x: Tool / Tool[]
	siteToolClass      // class with getName() and getConfig()
	siteToolsTable     // tools: handed to a factory named *Server* / *mcp*
	sitePrompt
	siteRegisterPrompt
	siteResource
	siteRegisterResource
	siteNewServer    // new McpServer(...) / new Server(...): instructions
	siteSampling     // createMessage
	siteElicitation  // elicitInput
	siteReassign     // x.description = ..., Object.defineProperty(x, "description")
	siteConsumeCall  // listTools / callTool
	siteDefineMethod // a class method named registerTool / tool / addTool with a body
)

func functionKind(k string) bool {
	switch k {
	case "function_declaration", "function_expression", "function", "arrow_function", "method_definition",
		"generator_function_declaration", "generator_function":
		return true
	}
	return false
}

// calleeName returns the last name of a call's callee: f, x.f, (0, x.f).
func (f *file) calleeName(callee nid) string {
	for callee >= 0 {
		switch f.kind(callee) {
		case "identifier", "property_identifier", "private_property_identifier", "import":
			return f.text(callee)
		case "member_expression":
			return f.text(f.field(callee, "property"))
		case "parenthesized_expression":
			ch := f.named(callee)
			if len(ch) == 0 {
				return ""
			}
			callee = ch[len(ch)-1]
		case "sequence_expression":
			ch := f.named(callee)
			if len(ch) == 0 {
				return ""
			}
			callee = ch[len(ch)-1]
		case "non_null_expression", "as_expression", "satisfies_expression", "await_expression":
			ch := f.named(callee)
			if len(ch) == 0 {
				return ""
			}
			callee = ch[0]
		default:
			return ""
		}
	}
	return ""
}

// args returns the argument expressions of a call or new expression.
func (f *file) args(call nid) []nid {
	a := f.field(call, "arguments")
	if a < 0 {
		return nil
	}
	if f.kind(a) == "template_string" {
		return []nid{a}
	}
	return f.named(a)
}

// stringValue returns the decoded value of a plain string literal node.
func (f *file) stringValue(n nid) (string, bool) {
	switch f.kind(n) {
	case "string":
		v := literalText(f, f.start(n)+1, f.end(n)-1, "js_string")
		if f.end(n)-f.start(n) < 2 {
			return "", false
		}
		return plainText(v)
	case "template_string":
		for _, c := range f.named(n) {
			if f.kind(c) == "template_substitution" {
				return "", false
			}
		}
		if f.end(n)-f.start(n) < 2 {
			return "", false
		}
		return plainText(literalText(f, f.start(n)+1, f.end(n)-1, "js_template"))
	}
	return "", false
}

// buildJSFacts computes the facts of one JS/TS file in one pass.
func buildJSFacts(f *file) *facts {
	fa := &facts{
		exports:     map[string]exportRef{},
		cjsExports:  none,
		calls:       map[string][]nid{},
		assigns:     map[string][]nid{},
		propAssigns: map[string][]nid{},
		augAssigns:  map[string][]nid{},
		scopes:      map[nid]map[string][]declRef{},
	}
	// Imported names by local alias, so a call through an alias
	// (import { createMcpServer as Jn }) is classified by the imported name.
	aliases := map[string]string{}
	// Registration methods taken off their server into a variable
	// (`const reg = server.registerTool.bind(server)`): a call of the
	// variable is a call of the method.
	methodAliases := map[string]string{}
	for i := range f.nodes {
		n := nid(i)
		switch f.kind(n) {
		case "import_specifier":
			if a := f.field(n, "alias"); a >= 0 {
				aliases[f.text(a)] = f.text(f.field(n, "name"))
			}
		case "variable_declarator":
			if id := f.field(n, "name"); f.kind(id) == "identifier" {
				if m := boundMethodName(f, f.field(n, "value")); m != "" {
					methodAliases[f.text(id)] = m
				}
			}
		}
	}
	addExport := func(name string, r exportRef) {
		if _, ok := fa.exports[name]; !ok {
			fa.exportOrder = append(fa.exportOrder, name)
		}
		fa.exports[name] = r
	}
	for i := range f.nodes {
		n := nid(i)
		switch f.kind(n) {
		case "import_statement":
			src := f.field(n, "source")
			spec, _ := f.stringValue(src)
			imf := importFact{spec: spec, node: n}
			if cl := f.childOfKind(n, "import_clause"); cl >= 0 {
				for _, c := range f.named(cl) {
					switch f.kind(c) {
					case "identifier":
						imf.names = append(imf.names, "default")
					case "namespace_import":
						imf.names = append(imf.names, "*")
					case "named_imports":
						for _, s := range f.named(c) {
							imf.names = append(imf.names, f.text(f.field(s, "name")))
						}
					}
				}
			}
			fa.imports = append(fa.imports, imf)
		case "export_statement":
			fa.esModule = true
			src := f.field(n, "source")
			spec, hasSrc := f.stringValue(src)
			if decl := f.field(n, "declaration"); decl >= 0 {
				for _, d := range declaredNames(f, decl) {
					addExport(d.name, exportRef{kind: exLocal, local: d.name, node: d.id})
				}
				if f.hasChildKind(n, "default") {
					if nm := f.field(decl, "name"); nm >= 0 {
						addExport("default", exportRef{kind: exLocal, local: f.text(nm), node: nm})
					} else {
						addExport("default", exportRef{kind: exExpr, node: decl})
					}
				}
				continue
			}
			if v := f.field(n, "value"); v >= 0 {
				addExport("default", exportRef{kind: exExpr, node: v})
				continue
			}
			clause := f.childOfKind(n, "export_clause")
			if clause < 0 {
				if hasSrc {
					if ns := f.childOfKind(n, "namespace_export"); ns >= 0 {
						nm := f.named(ns)
						if len(nm) > 0 {
							addExport(f.text(nm[len(nm)-1]), exportRef{kind: exNamespace, spec: spec, node: n})
						}
					} else {
						fa.stars = append(fa.stars, spec)
					}
					fa.imports = append(fa.imports, importFact{spec: spec, node: n, names: []string{"*"}})
				}
				continue
			}
			var names []string
			for _, s := range f.named(clause) {
				name := exportSpecName(f, f.field(s, "name"))
				alias := name
				if a := f.field(s, "alias"); a >= 0 {
					alias = exportSpecName(f, a)
				}
				names = append(names, name)
				if hasSrc {
					addExport(alias, exportRef{kind: exReexport, spec: spec, name: name, node: s})
				} else {
					addExport(alias, exportRef{kind: exLocal, local: name, node: f.field(s, "name")})
				}
			}
			if hasSrc {
				fa.imports = append(fa.imports, importFact{spec: spec, node: n, names: names})
			}
		case "call_expression", "new_expression":
			callee := f.field(n, "function")
			if f.kind(n) == "new_expression" {
				callee = f.field(n, "constructor")
			}
			name := f.calleeName(callee)
			if name == "" {
				continue
			}
			if !f.minified {
				fa.calls[name] = append(fa.calls[name], n)
				// f.call(thisArg, ...) is also a call site of f.
				if name == "call" && f.kind(callee) == "member_expression" {
					if obj := f.field(callee, "object"); f.kind(obj) == "identifier" {
						fa.calls[f.text(obj)] = append(fa.calls[f.text(obj)], n)
					}
				}
			}
			if f.kind(callee) == "import" {
				if a := f.args(n); len(a) >= 1 {
					if spec, ok := f.stringValue(a[0]); ok {
						fa.imports = append(fa.imports, importFact{spec: spec, node: n, req: true, names: []string{"*"}})
					}
				}
			}
			if name == "require" && f.kind(callee) == "identifier" {
				a := f.args(n)
				if len(a) == 1 {
					if spec, ok := f.stringValue(a[0]); ok {
						fa.imports = append(fa.imports, importFact{spec: spec, node: n, req: true, names: []string{"*"}})
					}
				}
			}
			if name == "__exportStar" || name == "__reExport" {
				// TypeScript's and esbuild's `export * from` in CommonJS output.
				a := f.args(n)
				if len(a) >= 1 {
					if spec, ok := requireSpec(f, a[0]); ok {
						fa.stars = append(fa.stars, spec)
					}
				}
			}
			if name == "defineProperty" && f.kind(n) == "call_expression" {
				a := f.args(n)
				if len(a) == 3 && f.kind(a[0]) == "identifier" && f.text(a[0]) == "exports" {
					if key, ok := f.stringValue(a[1]); ok {
						if key == "__esModule" {
							// The interop marker is not an export.
							fa.esModule = true
						} else {
							addExport(key, exportRef{kind: exExpr, node: n})
						}
					}
				}
			}
			if orig, ok := aliases[name]; ok && f.kind(callee) == "identifier" {
				name = orig
			}
			if m, ok := methodAliases[name]; ok && f.kind(callee) == "identifier" {
				classifyMethodCall(f, fa, n, m)
				continue
			}
			if m, _ := protoCallMethod(f, n); m != "" {
				classifyProtoCall(f, fa, n, m) // Base.prototype.m.call(this, ...)
				continue
			}
			classifyCallSite(f, fa, n, name)
		case "augmented_assignment_expression":
			left := f.field(n, "left")
			switch f.kind(left) {
			case "identifier":
				fa.augAssigns[f.text(left)] = append(fa.augAssigns[f.text(left)], n)
			case "member_expression":
				if f.text(f.field(left, "property")) == "description" && !f.minified {
					// x.description += "...": the text is changed at run time.
					fa.sites = append(fa.sites, siteRef{siteReassign, n})
				}
			}
		case "assignment_expression":
			left := f.field(n, "left")
			switch f.kind(left) {
			case "identifier":
				fa.assigns[f.text(left)] = append(fa.assigns[f.text(left)], n)
			case "member_expression":
				obj := f.field(left, "object")
				prop := f.text(f.field(left, "property"))
				fa.propAssigns[prop] = append(fa.propAssigns[prop], n)
				switch {
				case f.kind(obj) == "identifier" && f.text(obj) == "module" && prop == "exports":
					fa.cjsExports = f.field(n, "right")
				case f.kind(obj) == "identifier" && f.text(obj) == "exports",
					f.kind(obj) == "member_expression" && f.text(obj) == "module.exports":
					right := f.field(n, "right")
					if isVoid0(f, right) {
						continue
					}
					if prop == "__esModule" {
						fa.esModule = true
						continue
					}
					addExport(prop, exportRef{kind: exExpr, node: right})
				}
				if prop == "description" && !f.minified {
					fa.sites = append(fa.sites, siteRef{siteReassign, n})
				}
			}
		case "pair":
			// A request asking the client to sample or elicit, written as
			// {method: "sampling/createMessage"}.
			if propKeyName(f, f.field(n, "key")) == "method" {
				if m, ok := f.stringValue(f.field(n, "value")); ok {
					switch m {
					case "sampling/createMessage":
						fa.sites = append(fa.sites, siteRef{siteSampling, n})
					case "elicitation/create":
						fa.sites = append(fa.sites, siteRef{siteElicitation, n})
					}
				}
			}
		case "switch_case":
			if v := f.field(n, "value"); v >= 0 {
				if s, ok := f.stringValue(v); ok && isListMethod(s) {
					fa.sites = append(fa.sites, siteRef{siteMethodCase, n})
				}
			}
		case "if_statement":
			if c := f.field(n, "condition"); c >= 0 && conditionNamesListMethod(f, c) != "" {
				fa.sites = append(fa.sites, siteRef{siteMethodIf, n})
			}
		case "variable_declarator", "public_field_definition", "field_definition":
			if t := f.field(n, "type"); t >= 0 && isToolType(f, t) {
				fa.sites = append(fa.sites, siteRef{siteTypedTool, n})
			}
		case "satisfies_expression", "as_expression":
			ch := f.named(n)
			if len(ch) == 2 && isToolTypeNode(f, ch[1]) {
				fa.sites = append(fa.sites, siteRef{siteTypedTool, n})
			}
		case "class_declaration", "class", "abstract_class_declaration":
			body := f.field(n, "body")
			methods := map[string]nid{}
			for _, m := range f.named(body) {
				if k := f.kind(m); k == "method_definition" || k == "method_signature" || k == "abstract_method_signature" {
					methods[f.text(f.field(m, "name"))] = m
				}
			}
			if _, ok := methods["getName"]; ok {
				if _, ok := methods["getConfig"]; ok {
					fa.sites = append(fa.sites, siteRef{siteToolClass, n})
				}
			}
			for _, name := range []string{"registerTool", "tool", "addTool", "registerPrompt", "setRequestHandler"} {
				if m, ok := methods[name]; ok && f.field(m, "body") >= 0 {
					fa.sites = append(fa.sites, siteRef{siteDefineMethod, m})
				}
			}
		}
	}
	return fa
}

func isVoid0(f *file, n nid) bool {
	return f.kind(n) == "unary_expression" && strings.HasPrefix(f.text(n), "void")
}

// requireSpec reads require("spec") (possibly wrapped in an interop helper).
func requireSpec(f *file, n nid) (string, bool) {
	for i := 0; i < 4 && n >= 0; i++ {
		if f.kind(n) != "call_expression" {
			return "", false
		}
		a := f.args(n)
		name := f.calleeName(f.field(n, "function"))
		if name == "require" && len(a) == 1 {
			return f.stringValue(a[0])
		}
		if len(a) == 0 {
			return "", false
		}
		n = a[0]
	}
	return "", false
}

func exportSpecName(f *file, n nid) string {
	if f.kind(n) == "string" {
		s, _ := f.stringValue(n)
		return s
	}
	return f.text(n)
}

func isListMethod(s string) bool {
	switch s {
	case "tools/list", "prompts/list", "resources/list", "resources/templates/list":
		return true
	}
	return false
}

// conditionNamesListMethod returns the list method a condition compares
// against (x === "tools/list"), or "".
func conditionNamesListMethod(f *file, c nid) string {
	for f.kind(c) == "parenthesized_expression" {
		ch := f.named(c)
		if len(ch) != 1 {
			return ""
		}
		c = ch[0]
	}
	if f.kind(c) != "binary_expression" {
		return ""
	}
	op := f.text(f.field(c, "operator"))
	if op != "===" && op != "==" {
		return ""
	}
	for _, side := range []nid{f.field(c, "left"), f.field(c, "right")} {
		if s, ok := f.stringValue(side); ok && isListMethod(s) {
			return s
		}
	}
	return ""
}

// isToolType reports whether a type annotation names Tool or Tool[]
// (also Array<Tool>, ReadonlyArray<Tool>, types.Tool).
func isToolType(f *file, t nid) bool {
	ch := f.named(t)
	if len(ch) != 1 {
		return false
	}
	return isToolTypeNode(f, ch[0])
}

func isToolTypeNode(f *file, n nid) bool {
	switch f.kind(n) {
	case "type_identifier":
		return f.text(n) == "Tool"
	case "nested_type_identifier":
		t := f.text(n)
		return strings.HasSuffix(t, ".Tool")
	case "array_type", "readonly_type", "parenthesized_type":
		ch := f.named(n)
		return len(ch) == 1 && isToolTypeNode(f, ch[0])
	case "generic_type":
		name := f.text(f.field(n, "name"))
		if name != "Array" && name != "ReadonlyArray" {
			return false
		}
		ta := f.childOfKind(n, "type_arguments")
		ch := f.named(ta)
		return len(ch) == 1 && isToolTypeNode(f, ch[0])
	}
	return false
}

// classifyCallSite records the registration-shaped calls of §5.
func classifyCallSite(f *file, fa *facts, n nid, name string) {
	isNew := f.kind(n) == "new_expression"
	callee := f.field(n, "function")
	classifyCall(f, fa, n, name, !isNew && f.kind(callee) == "member_expression")
}

// classifyMethodCall classifies a call of a variable holding a method taken
// off its receiver as a call of that method.
func classifyMethodCall(f *file, fa *facts, n nid, method string) {
	classifyCall(f, fa, n, method, true)
}

// boundMethodName returns the registration method a value takes off its
// receiver: `x.registerTool` or `x.registerTool.bind(x)`.
func boundMethodName(f *file, v nid) string {
	if f.kind(v) == "call_expression" {
		callee := f.field(v, "function")
		if f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "bind" {
			return ""
		}
		v = f.field(callee, "object")
	}
	if f.kind(v) != "member_expression" {
		return ""
	}
	switch m := f.text(f.field(v, "property")); m {
	case "tool", "registerTool", "registerToolTask", "addTool", "prompt", "registerPrompt", "resource", "registerResource":
		return m
	}
	return ""
}

func classifyCall(f *file, fa *facts, n nid, name string, member bool) {
	isNew := f.kind(n) == "new_expression"
	args := f.args(n)
	add := func(k siteKind) { fa.sites = append(fa.sites, siteRef{k, n}) }
	switch name {
	case "tool":
		if member && len(args) >= 2 {
			add(siteTool)
		}
	case "registerTool", "registerToolTask":
		// registerToolTask is the SDK's task-augmented form of registerTool
		// (server.experimental.tasks.registerToolTask(name, config, handler)):
		// the same registration, listed by tools/list like any tool.
		if member && len(args) >= 2 {
			add(siteRegisterTool)
		}
	case "addTool":
		if member && len(args) >= 1 {
			add(siteAddTool)
		}
	case "defineTool":
		if len(args) >= 1 && !isNew {
			add(siteDefineTool)
		}
	case "setRequestHandler":
		if member && len(args) >= 2 {
			add(siteRequestHandler)
		}
	case "prompt":
		if member && len(args) >= 2 {
			add(sitePrompt)
		}
	case "registerPrompt":
		if member && len(args) >= 2 {
			add(siteRegisterPrompt)
		}
	case "resource":
		if member && len(args) >= 3 {
			add(siteResource)
		}
	case "registerResource":
		if member && len(args) >= 3 {
			add(siteRegisterResource)
		}
	case "createMessage":
		if member {
			add(siteSampling)
		}
	case "elicitInput":
		if member {
			add(siteElicitation)
		}
	case "listTools", "callTool":
		if member {
			add(siteConsumeCall)
		}
	case "defineProperty":
		if len(args) >= 2 {
			if k, ok := f.stringValue(args[1]); ok && k == "description" {
				add(siteReassign)
			}
		}
	}
	if isNew && (name == "McpServer" || name == "Server" || name == "FastMCP") {
		add(siteNewServer)
	}
	classifyPromptCall(f, fa, n, name, member)
	if (strings.Contains(name, "Server") || strings.Contains(strings.ToLower(name), "mcp")) && name != "setRequestHandler" {
		for _, a := range args {
			if f.kind(a) == "object" && objectHasKey(f, a, "tools") {
				add(siteToolsTable)
				break
			}
		}
	}
}

func objectHasKey(f *file, obj nid, key string) bool {
	for _, c := range f.named(obj) {
		switch f.kind(c) {
		case "pair":
			if propKeyName(f, f.field(c, "key")) == key {
				return true
			}
		case "shorthand_property_identifier":
			if f.text(c) == key {
				return true
			}
		}
	}
	return false
}

// propKeyName returns the static name of a property key node, or "".
func propKeyName(f *file, k nid) string {
	switch f.kind(k) {
	case "property_identifier", "private_property_identifier", "identifier":
		return f.text(k)
	case "number":
		return numberPropKey(f, k) // { 1.0: x } is the property "1" (jsidm_keys.go)
	case "string":
		s, _ := f.stringValue(k)
		return s
	}
	return ""
}

type declName struct {
	name string
	id   nid
}

// declaredNames lists the names a declaration statement binds.
func declaredNames(f *file, decl nid) []declName {
	var out []declName
	switch f.kind(decl) {
	case "lexical_declaration", "variable_declaration":
		for _, d := range f.named(decl) {
			if f.kind(d) == "variable_declarator" {
				out = append(out, patternNames(f, f.field(d, "name"))...)
			}
		}
	case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration",
		"function_signature", "enum_declaration":
		if nm := f.field(decl, "name"); nm >= 0 {
			out = append(out, declName{f.text(nm), nm})
		}
	}
	return out
}

// patternNames lists the identifiers a binding pattern binds.
func patternNames(f *file, p nid) []declName {
	var out []declName
	var rec func(n nid)
	rec = func(n nid) {
		switch f.kind(n) {
		case "identifier", "shorthand_property_identifier_pattern":
			out = append(out, declName{f.text(n), n})
		case "object_pattern", "array_pattern", "rest_pattern":
			for _, c := range f.named(n) {
				rec(c)
			}
		case "pair_pattern":
			rec(f.field(n, "value"))
		case "assignment_pattern", "object_assignment_pattern":
			rec(f.field(n, "left"))
		case "required_parameter", "optional_parameter":
			rec(f.field(n, "pattern"))
		}
	}
	rec(p)
	return out
}

// scopeDecls returns the names declared directly in a block-like scope node.
func (fa *facts) scopeDecls(f *file, s nid) map[string][]declRef {
	if m, ok := fa.scopes[s]; ok {
		return m
	}
	m := map[string][]declRef{}
	add := func(name string, d, id nid) { m[name] = append(m[name], declRef{d, id}) }
	var scan func(c nid)
	scan = func(c nid) {
		switch f.kind(c) {
		case "lexical_declaration", "variable_declaration":
			for _, d := range f.named(c) {
				if f.kind(d) == "variable_declarator" {
					for _, nm := range patternNames(f, f.field(d, "name")) {
						add(nm.name, d, nm.id)
					}
				}
			}
		case "function_declaration", "generator_function_declaration", "class_declaration", "abstract_class_declaration":
			if nm := f.field(c, "name"); nm >= 0 {
				add(f.text(nm), c, nm)
			}
		case "import_statement":
			if cl := f.childOfKind(c, "import_clause"); cl >= 0 {
				for _, x := range f.named(cl) {
					switch f.kind(x) {
					case "identifier":
						add(f.text(x), x, x)
					case "namespace_import":
						if ids := f.named(x); len(ids) > 0 {
							add(f.text(ids[len(ids)-1]), x, ids[len(ids)-1])
						}
					case "named_imports":
						for _, s := range f.named(x) {
							id := f.field(s, "alias")
							if id < 0 {
								id = f.field(s, "name")
							}
							add(f.text(id), s, id)
						}
					}
				}
			}
		case "export_statement":
			if d := f.field(c, "declaration"); d >= 0 {
				scan(d)
			}
		case "expression_statement":
			// TypeScript `import x = require("y")` is an import_alias; rare.
		}
	}
	for _, c := range f.named(s) {
		scan(c)
	}
	fa.scopes[s] = m
	return m
}
