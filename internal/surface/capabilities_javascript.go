package surface

import (
	"bytes"
	"strings"
)

// jsCapScan reads the capability facts of one JavaScript or TypeScript file
// from its flat syntax tree.
//
// A callee is resolved to a canonical API name ("fs.readFileSync",
// "child_process.spawn", "fetch") only through what is written: an import,
// a require (also inside TypeScript's and esbuild's interop helpers), a
// destructuring of either, or a well-known global that no declaration in
// scope shadows. Nothing bound under another name is followed.
type jsCapScan struct {
	// capBinds maps a local name to the scopes that declare it and what
	// each declaration binds: a canonical module reference, or "" for any
	// other declaration (which shadows a global or an outer import). Its
	// envNames are the local names bound to process.env
	// (import { env } from "process").
	capBinds
	acc *capAcc
	// moduleDecls are the declarators already bound to a module.
	moduleDecls map[nid]bool
}

// jsGlobals are the globals the inventory reads by name, with their
// canonical reference. globalThis and its aliases are a namespace.
var jsGlobals = map[string]string{
	"fetch": "fetch", "WebSocket": "WebSocket", "EventSource": "EventSource",
	"process": "process", "Deno": "Deno", "Bun": "Bun",
	"require": "require", "eval": "eval", "Function": "Function",
	"globalThis": "globalThis", "window": "globalThis", "global": "globalThis", "self": "globalThis",
}

// jsInteropWrappers are the helpers compilers wrap a require in; the
// module they return is the required one.
var jsInteropWrappers = map[string]bool{
	"__importDefault": true, "__importStar": true, "__toESM": true, "__toCommonJS": true,
	"_interopRequireDefault": true, "_interopRequireWildcard": true, "__importWildcard": true,
}

func scanJSCapabilities(f *file, acc *capAcc) {
	s := &jsCapScan{capBinds: newCapBinds(f, jsGlobals, "process.env"), acc: acc, moduleDecls: map[nid]bool{}}
	s.collectModuleBindings()
	s.collectShadows()
	s.scan()
}

// canonModule names a module specifier the way references are written:
// without the node: prefix, and fs/promises as fs.promises.
func canonModule(spec string) string {
	spec = strings.TrimPrefix(spec, "node:")
	switch spec {
	case "fs/promises":
		return "fs.promises"
	case "graceful-fs":
		return "fs"
	}
	return spec
}

// joinRef appends a member to a reference. A default export is the module
// itself (CommonJS interop), and a member of globalThis is the global.
func joinRef(base, prop string) string {
	if prop == "default" {
		return base
	}
	if base == "globalThis" {
		if g, ok := jsGlobals[prop]; ok {
			return g
		}
		return prop
	}
	return base + "." + prop
}

// blockScope is the node a let, const, class or function declaration at n
// is scoped to; functionScope the one a var or a parameter is.
func (s *jsCapScan) blockScope(n nid) nid {
	f := s.f
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		switch k := f.kind(a); {
		case k == "program" || k == "statement_block" || k == "class_static_block" || k == "for_statement" ||
			k == "for_in_statement" || k == "switch_body" || functionKind(k):
			return a
		}
	}
	return 0
}

func (s *jsCapScan) functionScope(n nid) nid {
	f := s.f
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		if k := f.kind(a); k == "program" || functionKind(k) || k == "class_static_block" {
			return a
		}
	}
	return 0
}

func (s *jsCapScan) declScope(decl nid) nid {
	if s.f.kind(s.f.parent(decl)) == "variable_declaration" {
		return s.functionScope(decl)
	}
	return s.blockScope(decl)
}

// collectModuleBindings records every name bound to a module.
func (s *jsCapScan) collectModuleBindings() {
	f := s.f
	for i := range f.nodes {
		n := nid(i)
		switch f.kind(n) {
		case "import_statement":
			spec, ok := f.stringValue(f.field(n, "source"))
			if rc := f.childOfKind(n, "import_require_clause"); rc >= 0 {
				// TypeScript: import fs = require("fs")
				spec, ok = f.stringValue(f.field(rc, "source"))
				if id := f.childOfKind(rc, "identifier"); id >= 0 && ok {
					s.bind(f.text(id), 0, canonModule(spec))
				}
				continue
			}
			if !ok {
				continue
			}
			mod := canonModule(spec)
			cl := f.childOfKind(n, "import_clause")
			for _, c := range capNamed(f, cl) {
				switch f.kind(c) {
				case "identifier":
					s.bind(f.text(c), 0, mod)
				case "namespace_import":
					if ids := capNamed(f, c); len(ids) > 0 {
						s.bind(f.text(ids[len(ids)-1]), 0, mod)
					}
				case "named_imports":
					for _, sp := range capNamed(f, c) {
						name := exportSpecName(f, f.field(sp, "name"))
						local := name
						if a := f.field(sp, "alias"); a >= 0 {
							local = f.text(a)
						}
						s.bind(local, 0, joinRef(mod, name))
					}
				}
			}
		case "variable_declarator":
			v := f.field(n, "value")
			if v < 0 {
				continue
			}
			ref, ok := s.moduleExpr(v)
			if !ok {
				continue
			}
			s.moduleDecls[n] = true
			s.bindPattern(f.field(n, "name"), s.declScope(n), ref)
		}
	}
}

// bindPattern binds the names of a declarator's pattern to members of ref.
func (s *jsCapScan) bindPattern(p nid, scope nid, ref string) {
	f := s.f
	switch f.kind(p) {
	case "identifier":
		s.bind(f.text(p), scope, ref)
	case "object_pattern":
		for _, c := range capNamed(f, p) {
			switch f.kind(c) {
			case "shorthand_property_identifier_pattern":
				s.bind(f.text(c), scope, joinRef(ref, f.text(c)))
			case "object_assignment_pattern":
				if l := f.field(c, "left"); f.kind(l) == "shorthand_property_identifier_pattern" {
					s.bind(f.text(l), scope, joinRef(ref, f.text(l)))
				}
			case "pair_pattern":
				key := propKeyName(f, f.field(c, "key"))
				v := f.field(c, "value")
				if f.kind(v) == "assignment_pattern" {
					v = f.field(v, "left")
				}
				if key != "" && f.kind(v) == "identifier" {
					s.bind(f.text(v), scope, joinRef(ref, key))
				} else {
					for _, d := range patternNames(f, v) {
						s.bind(d.name, scope, "")
					}
				}
			default:
				for _, d := range patternNames(f, c) {
					s.bind(d.name, scope, "")
				}
			}
		}
	default:
		for _, d := range patternNames(f, p) {
			s.bind(d.name, scope, "")
		}
	}
}

// moduleExpr reads an expression that yields a module: require("m"),
// await import("m"), an interop helper around either, createRequire(...),
// and members of those.
func (s *jsCapScan) moduleExpr(n nid) (string, bool) {
	f := s.f
	for depth := 0; depth < 16 && n >= 0; depth++ {
		switch f.kind(n) {
		case "call_expression":
			callee := f.field(n, "function")
			args := f.args(n)
			switch {
			case f.kind(callee) == "import" || f.kind(callee) == "identifier" && (f.text(callee) == "require" || f.text(callee) == "__require"):
				if len(args) >= 1 {
					if spec, ok := f.stringValue(args[0]); ok {
						return canonModule(spec), true
					}
				}
				return "", false
			case jsInteropWrappers[f.calleeName(callee)]:
				if len(args) == 0 {
					return "", false
				}
				n = args[0]
				continue
			case f.calleeName(callee) == "createRequire":
				return "require", true
			}
			return "", false
		case "member_expression":
			base, ok := s.moduleExpr(f.field(n, "object"))
			if !ok {
				return "", false
			}
			return joinRef(base, f.text(f.field(n, "property"))), true
		case "await_expression", "non_null_expression", "as_expression", "satisfies_expression":
			ch := capNamed(f, n)
			if len(ch) == 0 {
				return "", false
			}
			n = ch[0]
		case "parenthesized_expression", "sequence_expression":
			ch := capNamed(f, n)
			if len(ch) == 0 {
				return "", false
			}
			n = ch[len(ch)-1]
		default:
			return "", false
		}
	}
	return "", false
}

// collectShadows records the other declarations of the names the inventory
// reads (globals and module-bound names), so a parameter named fetch or a
// local function named require is not taken for the API.
func (s *jsCapScan) collectShadows() {
	f := s.f
	shadow := func(p nid, scope nid) {
		for _, d := range patternNames(f, p) {
			if s.interesting(d.name) {
				s.bind(d.name, scope, "")
			}
		}
	}
	for i := range f.nodes {
		n := nid(i)
		k := f.kind(n)
		switch {
		case k == "variable_declarator":
			if !s.moduleDecls[n] {
				shadow(f.field(n, "name"), s.declScope(n))
			}
		case k == "class_declaration" || k == "abstract_class_declaration":
			if nm := f.field(n, "name"); nm >= 0 && s.interesting(f.text(nm)) {
				s.bind(f.text(nm), s.blockScope(n), "")
			}
		case k == "catch_clause":
			if p := f.field(n, "parameter"); p >= 0 {
				shadow(p, n)
			}
		case functionKind(k):
			if k == "function_declaration" || k == "generator_function_declaration" {
				if nm := f.field(n, "name"); nm >= 0 && s.interesting(f.text(nm)) {
					s.bind(f.text(nm), s.blockScope(n), "")
				}
			}
			if p := f.field(n, "parameter"); p >= 0 {
				shadow(p, n)
			}
			if ps := f.field(n, "parameters"); ps >= 0 {
				for _, p := range capNamed(f, ps) {
					shadow(p, n)
				}
			}
			if k == "function_expression" || k == "function" || k == "generator_function" {
				if nm := f.field(n, "name"); nm >= 0 && s.interesting(f.text(nm)) {
					s.bind(f.text(nm), n, "")
				}
			}
		}
	}
}

// resolve returns the canonical reference an expression names, if it names
// one through what is written.
func (s *jsCapScan) resolve(n nid) (string, bool) {
	f := s.f
	for depth := 0; depth < 32 && n >= 0; depth++ {
		switch f.kind(n) {
		case "identifier":
			return s.identRef(n)
		case "member_expression":
			prop := f.field(n, "property")
			if f.kind(prop) != "property_identifier" {
				return "", false
			}
			base, ok := s.resolve(f.field(n, "object"))
			if !ok {
				return "", false
			}
			return joinRef(base, f.text(prop)), true
		case "parenthesized_expression", "sequence_expression":
			ch := capNamed(f, n)
			if len(ch) == 0 {
				return "", false
			}
			n = ch[len(ch)-1]
		case "non_null_expression", "as_expression", "satisfies_expression":
			ch := capNamed(f, n)
			if len(ch) == 0 {
				return "", false
			}
			n = ch[0]
		case "call_expression", "await_expression":
			return s.moduleExpr(n)
		default:
			return "", false
		}
	}
	return "", false
}

// scan walks the file once and records each fact.
func (s *jsCapScan) scan() {
	f := s.f
	for i := range f.nodes {
		n := nid(i)
		switch f.kind(n) {
		case "call_expression":
			callee := f.field(n, "function")
			if f.kind(callee) == "import" {
				s.importCall(n, f.args(n))
				continue
			}
			if ref, ok := s.resolve(callee); ok {
				s.classify(n, ref, false)
			}
		case "new_expression":
			if ref, ok := s.resolve(f.field(n, "constructor")); ok {
				s.classify(n, ref, true)
			}
		case "member_expression":
			prop := f.field(n, "property")
			if f.end(prop)-f.start(prop) != len("env") || f.text(prop) != "env" {
				continue
			}
			if ref, ok := s.resolve(f.field(n, "object")); ok && (ref == "process" || ref == "Bun") {
				s.envObject(n)
			}
		case "identifier":
			if s.namesEnv(n) && s.expressionPosition(n) {
				s.envObject(n)
			}
		case "string":
			s.credentialString(n)
		case "template_string":
			s.credentialTemplate(n)
		}
	}
}

// expressionPosition reports whether an identifier is read rather than
// declared or imported.
func (s *jsCapScan) expressionPosition(n nid) bool {
	f := s.f
	p := f.parent(n)
	switch f.kind(p) {
	case "import_specifier", "namespace_import", "import_clause", "pair_pattern", "import_require_clause":
		return false
	case "variable_declarator":
		return f.field(p, "name") != n
	}
	return true
}

// ---- literals ----

// jsLiteral returns the text of a plain string or a template without
// substitutions.
func (s *jsCapScan) jsLiteral(n nid) (string, bool) {
	switch s.f.kind(n) {
	case "string", "template_string":
		return s.f.stringValue(n)
	case "parenthesized_expression":
		if ch := capNamed(s.f, n); len(ch) == 1 {
			return s.jsLiteral(ch[0])
		}
	}
	return "", false
}

// jsPrefix returns the literal text that starts a template, a string
// concatenation or a literal: whole is true when the text is all there is.
func (s *jsCapScan) jsPrefix(n nid) (text string, whole, ok bool) {
	f := s.f
	for depth := 0; depth < 64 && n >= 0; depth++ {
		switch f.kind(n) {
		case "string":
			t, ok := f.stringValue(n)
			return t, true, ok
		case "template_string":
			if t, ok := f.stringValue(n); ok {
				return t, true, true
			}
			end := f.end(n) - 1
			for _, c := range capNamed(f, n) {
				if f.kind(c) == "template_substitution" {
					end = f.start(c)
					break
				}
			}
			t, ok := plainText(literalText(f, f.start(n)+1, end, "js_template"))
			return t, false, ok
		case "binary_expression":
			if f.text(f.field(n, "operator")) != "+" {
				return "", false, false
			}
			t, _, ok := s.jsPrefix(f.field(n, "left"))
			return t, false, ok
		case "parenthesized_expression":
			ch := capNamed(f, n)
			if len(ch) != 1 {
				return "", false, false
			}
			n = ch[0]
		default:
			return "", false, false
		}
	}
	return "", false, false
}

// urlValue is the network target of a URL argument.
func (s *jsCapScan) urlValue(n nid) string {
	f := s.f
	switch f.kind(n) {
	case "new_expression":
		c := f.field(n, "constructor")
		if f.kind(c) != "identifier" || (f.text(c) != "URL" && f.text(c) != "Request") {
			return TargetDynamic
		}
		a := f.args(n)
		if len(a) == 0 {
			return TargetDynamic
		}
		if len(a) >= 2 && f.text(c) == "URL" {
			if t, whole, ok := s.jsPrefix(a[0]); !ok || !whole || !strings.Contains(t, "://") {
				return s.urlValue(a[1])
			}
		}
		return s.urlValue(a[0])
	case "object":
		for _, key := range []string{"url", "baseURL", "prefixUrl", "origin", "hostname", "host", "path"} {
			if v := objectValue(f, n, key); v >= 0 {
				return s.urlValue(v)
			}
		}
		return TargetDynamic
	case "non_null_expression", "as_expression", "satisfies_expression":
		if ch := capNamed(f, n); len(ch) > 0 {
			return s.urlValue(ch[0])
		}
	}
	return prefixURL(s.jsPrefix(n))
}

// objectValue returns the value of key in an object literal, or none.
func objectValue(f *file, obj nid, key string) nid {
	if f.kind(obj) != "object" {
		return none
	}
	for _, c := range capNamed(f, obj) {
		if f.kind(c) == "pair" && propKeyName(f, f.field(c, "key")) == key {
			return f.field(c, "value")
		}
	}
	return none
}

// pathValue is a filesystem target: a literal, or path.join / path.resolve
// of literals only.
func (s *jsCapScan) pathValue(n nid) string {
	return orDynamic(s.literalPath(n, 0))
}

func (s *jsCapScan) literalPath(n nid, depth int) (string, bool) {
	f := s.f
	if depth > 16 || n < 0 {
		return "", false
	}
	if t, ok := s.jsLiteral(n); ok {
		return t, true
	}
	if f.kind(n) != "call_expression" {
		return "", false
	}
	ref, ok := s.resolve(f.field(n, "function"))
	if !ok {
		return "", false
	}
	switch ref {
	case "path.join", "path.resolve", "path.posix.join", "path.posix.resolve":
	default:
		return "", false
	}
	var parts []string
	for _, a := range f.args(n) {
		p, ok := s.literalPath(a, depth+1)
		if !ok {
			return "", false
		}
		parts = append(parts, p)
	}
	return joinPathParts(parts, true), len(parts) > 0
}

// commandValue is a process target: the literal, or dynamic.
func (s *jsCapScan) commandValue(n nid) string {
	return orDynamic(s.jsLiteral(n))
}

// literalWords lists a command's literal words (for pip install from a
// URL): the command and the literal elements of an argument array.
func (s *jsCapScan) literalWords(cmd nid, argv nid) []string {
	var words []string
	if t, ok := s.jsLiteral(cmd); ok {
		words = append(words, strings.Fields(t)...)
	}
	if s.f.kind(argv) == "array" {
		for _, e := range capNamed(s.f, argv) {
			t, _ := s.jsLiteral(e)
			words = append(words, t)
		}
	}
	return words
}

// ---- classification ----

type jsNetSpec struct {
	tag  string
	base bool // the target is the client's base URL option
	sock bool // net.connect-style: host option, or (port, host)
}

var jsNetwork = func() map[string]jsNetSpec {
	m := map[string]jsNetSpec{
		"fetch": {tag: "fetch"}, "node-fetch": {tag: "fetch"}, "cross-fetch": {tag: "fetch"}, "cross-fetch.fetch": {tag: "fetch"},
		"isomorphic-fetch": {tag: "fetch"}, "node-fetch.fetch": {tag: "fetch"},
		"http.request": {tag: "http"}, "http.get": {tag: "http"},
		"https.request": {tag: "https"}, "https.get": {tag: "https"},
		"http2.connect": {tag: "http2"},
		"axios":         {tag: "axios"}, "axios.create": {tag: "axios", base: true},
		"got": {tag: "got"}, "got.extend": {tag: "got", base: true},
		"ky": {tag: "ky"}, "ky.create": {tag: "ky", base: true}, "ky.extend": {tag: "ky", base: true},
		"WebSocket": {tag: "websocket"}, "ws": {tag: "websocket"}, "ws.WebSocket": {tag: "websocket"}, "isomorphic-ws": {tag: "websocket"},
		"EventSource": {tag: "eventsource"}, "eventsource": {tag: "eventsource"}, "eventsource.EventSource": {tag: "eventsource"},
		"net.connect": {tag: "net", sock: true}, "net.createConnection": {tag: "net", sock: true},
		"tls.connect": {tag: "tls", sock: true},
	}
	for _, v := range []string{"request", "get", "delete", "head", "options", "post", "put", "patch", "postForm", "putForm", "patchForm"} {
		m["axios."+v] = jsNetSpec{tag: "axios"}
	}
	for _, v := range []string{"get", "post", "put", "patch", "delete", "head", "stream", "paginate"} {
		m["got."+v] = jsNetSpec{tag: "got"}
	}
	for _, v := range []string{"get", "post", "put", "patch", "delete", "head"} {
		m["ky."+v] = jsNetSpec{tag: "ky"}
	}
	for _, v := range []string{"fetch", "request", "stream", "pipeline", "connect", "upgrade", "Client", "Pool", "BalancedPool", "WebSocket", "EventSource"} {
		m["undici."+v] = jsNetSpec{tag: "undici"}
	}
	return m
}()

type fsArg struct {
	tag string
	idx int
}

var (
	fsRead  = []fsArg{{TagRead, 0}}
	fsWrite = []fsArg{{TagWrite, 0}}
)

// jsFSOps maps a node:fs (and fs-extra) function, without its Sync suffix,
// to the paths it reads or writes. open is decided by its flags.
var jsFSOps = func() map[string][]fsArg {
	m := map[string][]fsArg{
		"rename": {{TagWrite, 0}, {TagWrite, 1}}, "move": {{TagWrite, 0}, {TagWrite, 1}},
		"copyFile": {{TagRead, 0}, {TagWrite, 1}}, "cp": {{TagRead, 0}, {TagWrite, 1}}, "copy": {{TagRead, 0}, {TagWrite, 1}},
		"symlink": {{TagWrite, 1}}, "link": {{TagWrite, 1}}, "ensureLink": {{TagWrite, 1}}, "ensureSymlink": {{TagWrite, 1}},
	}
	for _, k := range []string{"readFile", "readdir", "readlink", "realpath", "stat", "lstat", "access", "exists", "opendir",
		"createReadStream", "watch", "watchFile", "statfs", "readJson", "readJSON", "pathExists"} {
		m[k] = fsRead
	}
	for _, k := range []string{"writeFile", "appendFile", "mkdir", "mkdtemp", "rm", "rmdir", "unlink", "createWriteStream",
		"chmod", "chown", "lchown", "lchmod", "truncate", "utimes", "lutimes", "outputFile", "outputJson", "outputJSON",
		"writeJson", "writeJSON", "ensureDir", "ensureFile", "mkdirp", "mkdirs", "remove", "emptyDir", "emptydir"} {
		m[k] = fsWrite
	}
	return m
}()

var jsFSModules = map[string]bool{"fs": true, "fs.promises": true, "fs-extra": true, "fs-extra.promises": true}

// jsDenoFS maps Deno's file functions (without Sync) to their paths.
var jsDenoFS = func() map[string][]fsArg {
	m := map[string][]fsArg{
		"rename": {{TagWrite, 0}, {TagWrite, 1}}, "copyFile": {{TagRead, 0}, {TagWrite, 1}},
		"symlink": {{TagWrite, 1}}, "link": {{TagWrite, 1}},
		"makeTempDir": {{TagWrite, -1}}, "makeTempFile": {{TagWrite, -1}},
	}
	for _, k := range []string{"readTextFile", "readFile", "readDir", "stat", "lstat", "realPath", "readLink"} {
		m[k] = fsRead
	}
	for _, k := range []string{"writeTextFile", "writeFile", "mkdir", "remove", "create", "chmod", "chown", "truncate", "utime"} {
		m[k] = fsWrite
	}
	return m
}()

// splitRef splits "a.b.c" into "a.b" and "c".
func splitRef(ref string) (string, string) {
	i := strings.LastIndexByte(ref, '.')
	if i < 0 {
		return "", ref
	}
	return ref[:i], ref[i+1:]
}

func (s *jsCapScan) classify(c nid, ref string, isNew bool) {
	f := s.f
	args := f.args(c)
	arg := func(i int) nid {
		if i >= 0 && i < len(args) {
			return args[i]
		}
		return none
	}
	if spec, ok := jsNetwork[ref]; ok {
		target := TargetDynamic
		switch {
		case spec.base:
			if a := arg(0); f.kind(a) == "object" {
				for _, key := range []string{"baseURL", "prefixUrl", "prefixURL"} {
					if v := objectValue(f, a, key); v >= 0 {
						target = s.urlValue(v)
						break
					}
				}
			}
		case spec.sock:
			a := arg(0)
			switch {
			case f.kind(a) == "object":
				for _, key := range []string{"host", "hostname", "path"} {
					if v := objectValue(f, a, key); v >= 0 {
						target = s.commandValue(v)
						break
					}
				}
			case f.kind(a) == "string" || f.kind(a) == "template_string":
				target = s.urlValue(a)
			default:
				// connect(port, host[, options]): the host is the second argument.
				if h := arg(1); h >= 0 && f.kind(h) != "object" && !functionKind(f.kind(h)) {
					target = s.commandValue(h)
				}
			}
		default:
			if a := arg(0); a >= 0 {
				target = s.urlValue(a)
			}
		}
		s.acc.add(CapNetwork, spec.tag, target, c)
		return
	}
	base, name := splitRef(ref)
	switch {
	case jsFSModules[base]:
		op := strings.TrimSuffix(name, "Sync")
		if op == "open" {
			s.openCall(c, arg(0), arg(1))
			return
		}
		if ops, ok := jsFSOps[op]; ok {
			s.fsOps(c, ops, arg)
		}
		return
	case base == "Deno":
		op := strings.TrimSuffix(name, "Sync")
		if op == "open" {
			tag := TagRead
			if o := arg(1); f.kind(o) == "object" {
				for _, k := range []string{"write", "append", "create", "createNew", "truncate"} {
					if v := objectValue(f, o, k); v >= 0 && f.text(v) == "true" {
						tag = TagWrite
					}
				}
			}
			s.acc.add(CapFilesystem, tag, s.pathValue(arg(0)), c)
			return
		}
		if ops, ok := jsDenoFS[op]; ok {
			s.fsOps(c, ops, arg)
			return
		}
	case ref == "Deno.env.get":
		s.acc.envRead(s.commandValue(arg(0)), c)
		return
	case ref == "Deno.env.toObject":
		s.acc.envRead(TargetDynamic, c)
		return
	}
	switch ref {
	case "Bun.file":
		s.acc.add(CapFilesystem, TagRead, s.pathValue(arg(0)), c)
	case "Bun.write":
		s.acc.add(CapFilesystem, TagWrite, s.pathValue(arg(0)), c)
	case "child_process.spawn", "child_process.spawnSync", "child_process.execFile", "child_process.execFileSync",
		"cross-spawn", "cross-spawn.sync", "cross-spawn.spawn",
		"execa", "execa.execa", "execa.execaSync", "execa.sync", "execa.execaNode", "execa.node":
		tag := TagSpawn
		if s.shellOption(args[min(1, len(args)):]) {
			tag = TagExec
		}
		s.acc.process(c, tag, s.commandValue(arg(0)), s.literalWords(arg(0), arg(1)))
	case "child_process.fork":
		s.acc.process(c, TagSpawn, s.commandValue(arg(0)), nil)
	case "child_process.exec", "child_process.execSync", "shelljs.exec":
		s.acc.process(c, TagExec, s.commandValue(arg(0)), s.literalWords(arg(0), none))
	case "execa.execaCommand", "execa.execaCommandSync", "execa.command", "execa.commandSync":
		line, ok := s.jsLiteral(arg(0))
		switch {
		case s.shellOption(args[min(1, len(args)):]):
			s.acc.process(c, TagExec, s.commandValue(arg(0)), strings.Fields(line))
		case ok:
			s.acc.process(c, TagSpawn, firstWord(line), strings.Fields(line))
		default:
			s.acc.process(c, TagSpawn, TargetDynamic, nil)
		}
	case "execa.$", "Bun.$":
		a := arg(0)
		if f.kind(f.field(c, "arguments")) != "template_string" {
			return
		}
		text, whole, ok := s.jsPrefix(a)
		if ref == "Bun.$" {
			// Bun's shell runs the line through its own shell.
			t := TargetDynamic
			if ok && whole {
				t = text
			}
			s.acc.process(c, TagExec, t, strings.Fields(text))
			return
		}
		t := TargetDynamic
		if ok && (whole || strings.IndexAny(strings.TrimLeft(text, " \t"), " \t\n") > 0) {
			t = firstWord(text)
		}
		s.acc.process(c, TagSpawn, t, strings.Fields(text))
	case "Bun.spawn", "Bun.spawnSync":
		argv := arg(0)
		if f.kind(argv) == "object" {
			argv = objectValue(f, argv, "cmd")
		}
		s.argvProcess(c, argv)
	case "Deno.Command":
		s.acc.process(c, TagSpawn, s.commandValue(arg(0)), s.literalWords(arg(0), objectValue(f, arg(1), "args")))
	case "Deno.run":
		s.argvProcess(c, objectValue(f, arg(0), "cmd"))
	case "eval":
		if !isNew {
			s.acc.add(CapRemoteCode, TagDynamicEvaluation, s.codeValue(arg(0)), c)
		}
	case "Function":
		s.acc.add(CapRemoteCode, TagDynamicEvaluation, s.codeValue(arg(len(args)-1)), c)
	case "vm.runInThisContext", "vm.runInNewContext", "vm.runInContext", "vm.compileFunction", "vm.Script",
		"vm.SourceTextModule":
		s.acc.add(CapRemoteCode, TagDynamicEvaluation, s.codeValue(arg(0)), c)
	case "require":
		if !isNew {
			s.importCall(c, args)
		}
	}
}

func (s *jsCapScan) fsOps(c nid, ops []fsArg, arg func(int) nid) {
	for _, o := range ops {
		t := TargetDynamic
		if o.idx >= 0 {
			t = s.pathValue(arg(o.idx))
		}
		s.acc.add(CapFilesystem, o.tag, t, c)
	}
}

// openCall decides fs.open by its flags: w, a or + writes; none or r
// reads; flags that are not a literal may do either, so both are recorded.
func (s *jsCapScan) openCall(c, p, flags nid) {
	s.acc.openByMode(c, s.pathValue(p), flags, s.jsLiteral, "wa+")
}

// shellOption reports an options object with shell: true or a shell path.
func (s *jsCapScan) shellOption(args []nid) bool {
	f := s.f
	for _, a := range args {
		if v := objectValue(f, a, "shell"); v >= 0 {
			if f.kind(v) == "true" {
				return true
			}
			if t, ok := s.jsLiteral(v); ok && t != "" {
				return true
			}
		}
	}
	return false
}

func (s *jsCapScan) argvProcess(c, argv nid) {
	f := s.f
	target := TargetDynamic
	var words []string
	if f.kind(argv) == "array" {
		els := capNamed(f, argv)
		if len(els) > 0 {
			target = s.commandValue(els[0])
		}
		for _, e := range els {
			t, _ := s.jsLiteral(e)
			words = append(words, t)
		}
	}
	s.acc.process(c, TagSpawn, target, words)
}

// codeValue is the target of an evaluation: the code literal, or dynamic.
func (s *jsCapScan) codeValue(n nid) string {
	return orDynamic(s.jsLiteral(n))
}

// importCall records import(x) or require(x): an http(s) URL literal is a
// remote import; a specifier that is not a literal is a dynamic import; a
// plain literal specifier is an ordinary import and no fact.
func (s *jsCapScan) importCall(c nid, args []nid) {
	if len(args) == 0 {
		return
	}
	if t, ok := s.jsLiteral(args[0]); ok {
		if h, ok := urlHost(t, true); ok && (strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://")) {
			s.acc.add(CapRemoteCode, TagRemoteImport, h, c)
		}
		return
	}
	if t, _, ok := s.jsPrefix(args[0]); ok && (strings.HasPrefix(t, "http://") || strings.HasPrefix(t, "https://")) {
		s.acc.add(CapRemoteCode, TagRemoteImport, prefixTarget(t), c)
		return
	}
	s.acc.add(CapRemoteCode, TagDynamicImport, TargetDynamic, c)
}

// ---- environment ----

// envObject records what is read from process.env (or Bun.env) at n.
func (s *jsCapScan) envObject(n nid) {
	f := s.f
	p := f.parent(n)
	switch f.kind(p) {
	case "member_expression":
		if f.field(p, "object") != n {
			break
		}
		if s.written(p) {
			return
		}
		s.acc.envRead(f.text(f.field(p, "property")), p)
		return
	case "subscript_expression":
		if f.field(p, "object") != n {
			break
		}
		if s.written(p) {
			return
		}
		name := TargetDynamic
		if t, ok := s.jsLiteral(f.field(p, "index")); ok {
			name = t
		}
		s.acc.envRead(name, p)
		return
	case "variable_declarator":
		pat := f.field(p, "name")
		if f.field(p, "value") != n || f.kind(pat) != "object_pattern" {
			break
		}
		for _, c := range capNamed(f, pat) {
			switch f.kind(c) {
			case "shorthand_property_identifier_pattern":
				s.acc.envRead(f.text(c), p)
			case "object_assignment_pattern":
				s.acc.envRead(f.text(f.field(c, "left")), p)
			case "pair_pattern":
				if k := propKeyName(f, f.field(c, "key")); k != "" {
					s.acc.envRead(k, p)
				} else {
					s.acc.envRead(TargetDynamic, p)
				}
			default:
				s.acc.envRead(TargetDynamic, p)
			}
		}
		return
	case "binary_expression":
		if f.text(f.field(p, "operator")) == "in" && f.field(p, "right") == n {
			if t, ok := s.jsLiteral(f.field(p, "left")); ok {
				s.acc.envRead(t, p)
				return
			}
		}
	case "parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression":
		if len(capNamed(f, p)) == 1 || f.kind(p) != "parenthesized_expression" {
			s.envObject(p)
			return
		}
	}
	// The whole environment is read (spread, passed on, copied).
	s.acc.envRead(TargetDynamic, n)
}

// written reports whether a member is assigned or deleted rather than read.
func (s *jsCapScan) written(m nid) bool {
	f := s.f
	p := f.parent(m)
	switch f.kind(p) {
	case "assignment_expression":
		return f.field(p, "left") == m
	case "unary_expression":
		return f.text(f.field(p, "operator")) == "delete"
	}
	return false
}

// ---- credential files ----

// credentialHints are byte strings one of which every credential path
// contains; a literal without any is not decoded.
var credentialHints = [][]byte{[]byte(".ssh"), []byte("id_"), []byte(".aws"), []byte(".azure"), []byte(".gnupg"),
	[]byte(".kube"), []byte(".docker"), []byte("netrc"), []byte(".npmrc"), []byte(".yarnrc"), []byte(".pypirc"),
	[]byte(".git-credentials"), []byte(".pgpass"), []byte(".vault-token"), []byte(".boto"), []byte(".s3cfg"),
	[]byte(".env"), []byte("credentials.json")}

func mayNameCredential(b []byte) bool {
	if len(b) > 520 {
		return false
	}
	for _, h := range credentialHints {
		if bytes.Contains(b, h) {
			return true
		}
	}
	return false
}

func (s *jsCapScan) credentialString(n nid) {
	f := s.f
	if !mayNameCredential(f.bytesOf(n)) {
		return
	}
	if k := f.kind(f.parent(n)); k == "import_statement" || k == "export_statement" {
		return
	}
	if t, ok := f.stringValue(n); ok && credentialPath(t) {
		s.acc.add(CapCredentials, TagFile, t, n)
	}
}

func (s *jsCapScan) credentialTemplate(n nid) {
	f := s.f
	if !mayNameCredential(f.bytesOf(n)) {
		return
	}
	if t, ok := f.stringValue(n); ok {
		if credentialPath(t) {
			s.acc.add(CapCredentials, TagFile, t, n)
		}
		return
	}
	s.acc.credentialParts(f, n, "string_fragment")
}
