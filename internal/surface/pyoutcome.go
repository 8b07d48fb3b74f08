package surface

import (
	"path"
	"strings"
)

// This file holds the Python half of methodology 2.3.4's fail-closed
// outcomes (issue 14, item 4): which sites build their tools from data the
// package does not contain (runtime_generated), which are registrations the
// rules do not read (declaration_not_parsed), the call forms of prompts and
// resources, the lists a module fills with append/extend, and the files a
// list is read from.

// Python site kinds of this file (numbered apart from pyeval.go's).
const (
	pySitePromptCallForm   siteKind = iota + 150 // x.prompt(...)(fn)
	pySiteResourceCallForm                       // x.resource(uri)(fn)
	pySiteGeneratedTools                         // X.from_openapi(...), OpenAPIProvider(...), X.from_fastapi(...)
	pySitePrivateTable                           // x._tool_manager._tools[k] = v, server._tools.append(t)
)

// outsidePackage ends every reason that says a value comes from data the
// package does not contain; isRuntimeReason matches it.
const outsidePackage = "data not contained in the package"

// pyGeneratedToolSources are the framework calls that make tools out of a
// document at run time: the tools exist only once the framework has read
// it, so the package declares none of them. from_fastapi makes them from a
// FastAPI application's routes, which the package does contain; the rules
// read no route, so that one is a site not read rather than run-time data.
var pyGeneratedToolSources = map[string]bool{
	"from_openapi": true, "OpenAPIProvider": true, "FastMCPOpenAPI": true, "from_fastapi": true,
}

// pyPrivateTables are the attributes in which the frameworks keep what they
// list; pyPrivateManagers the private managers that own them.
var (
	pyPrivateTables   = map[string]bool{"_tools": true, "_prompts": true, "_resources": true, "_templates": true, "_resource_templates": true}
	pyPrivateManagers = map[string]bool{"_tool_manager": true, "_prompt_manager": true, "_resource_manager": true}
)

// pyOutcomeSiteOf reports whether node n of a Python file is one of this
// file's sites (called by buildPyFacts for every call and assignment, the
// only kinds that can be one). For a call, fn is its callee and name the
// callee's last name (f.pyAttrName(fn)), which buildPyFacts has read.
func pyOutcomeSiteOf(f *file, n, fn nid, name string) (siteKind, bool) {
	switch f.pk(n) {
	case pkCall:
		if f.pk(fn) == pkCall {
			inner := f.field(fn, "function")
			if f.pk(inner) == pkAttribute {
				switch f.pyAttrName(inner) {
				case "prompt":
					return pySitePromptCallForm, true
				case "resource":
					return pySiteResourceCallForm, true
				}
			}
			return 0, false
		}
		if pyGeneratedToolSources[name] && (name != "from_openapi" && name != "from_fastapi" || f.pk(fn) == pkAttribute) {
			return pySiteGeneratedTools, true
		}
		switch name {
		case "append", "extend", "insert", "update", "setdefault", "__setitem__", "add":
			if f.pk(fn) == pkAttribute && pyPrivateTable(f, f.field(fn, "object")) {
				return pySitePrivateTable, true
			}
		}
	case pkAssignment:
		l := f.field(n, "left")
		if f.pk(l) == pkSubscript {
			l = f.field(l, "value")
		}
		if pyPrivateTable(f, l) {
			return pySitePrivateTable, true
		}
	}
	return 0, false
}

// pyPrivateTable reports whether n is a framework's private table of
// another object: an attribute _tools (…) of a receiver that is not the
// class's own self or cls, or any attribute reached through a private
// manager (mcp._tool_manager._tools). A class keeping its own _tools is the
// package's own structure, read where a list handler returns it.
func pyPrivateTable(f *file, n nid) bool {
	if f.pk(n) != pkAttribute || !pyPrivateTables[string(f.bytesOf(f.field(n, "attribute")))] {
		return false
	}
	obj := f.field(n, "object")
	if f.pk(obj) == pkAttribute && pyPrivateManagers[string(f.bytesOf(f.field(obj, "attribute")))] {
		return true
	}
	if f.pk(obj) == pkIdentifier {
		t := f.bytesOf(obj)
		return string(t) != "self" && string(t) != "cls"
	}
	return f.pk(obj) == pkAttribute || f.pk(obj) == pkCall
}

// pyOutcomeSite reads one site of this file.
func (x *extractor) pyOutcomeSite(f *file, s siteRef) {
	n := s.n
	if f.minified {
		x.minSites = append(x.minSites, f.site(n, x.bundleDetail(f)))
		x.bundleSites = append(x.bundleSites, bundleSite{f: f, py: n})
		return
	}
	x.readSites++
	x.enumerate(f, n, func(e *env, c *collector) {
		switch s.kind {
		case pySitePromptCallForm, pySiteResourceCallForm:
			// x.prompt("name")(fn) is the decorator applied by hand, as
			// x.tool(...)(fn) is.
			args := x.pyArgThunks(f, n, e)
			if len(args) == 0 {
				return
			}
			fn := x.force(args[0])
			if c.needs(fn) {
				return
			}
			kind := KindPrompt
			if s.kind == pySiteResourceCallForm {
				kind = KindResource
			}
			x.pyFunctionEntry(f, n, kind, fn, x.pyArgThunks(f, f.field(n, "function"), e), e, c)
		case pySiteGeneratedTools:
			callee := truncate(f.text(f.field(n, "function")), 60)
			if f.pyAttrName(f.field(n, "function")) == "from_fastapi" {
				c.failures = append(c.failures, "tools generated by the framework from the routes of a FastAPI application ("+callee+"): no rule reads a route as a tool")
				return
			}
			r := "tools generated by the framework from an OpenAPI document at run time (" + callee + "): " + outsidePackage
			c.failures = append(c.failures, r)
			c.runtime = append(c.runtime, r)
		case pySitePrivateTable:
			c.failures = append(c.failures, "writes into a framework's private table ("+truncate(f.text(n), 80)+
				"): not a registration site of methodology §5.2, so what it registers is not read")
		}
	})
}

// pyOutsideReason reports whether reason r says the value comes from data
// the package does not contain.
func pyOutsideReason(r string) bool {
	return strings.Contains(r, outsidePackage)
}

// pyRemoteModules are the roots of the network clients and cloud SDKs whose
// results are data of a remote service or a cloud account: a value built
// from one exists only at run time.
var pyRemoteModules = map[string]bool{
	"boto3": true, "botocore": true, "aioboto3": true, "aiobotocore": true, "requests": true, "httpx": true,
	"aiohttp": true, "urllib": true, "urllib3": true, "googleapiclient": true, "google": true, "azure": true,
	"kubernetes": true, "http": true,
}

// pyExternalRuntime is the reason a call into another package reads data
// the package does not contain, or "": a network client or cloud SDK, the
// command line (argparse), an environment variable read without a default
// (os.getenv("X"), os.environ.get("X")), or a parser (json.load, yaml.load,
// tomllib.load) over such data.
func (x *extractor) pyExternalRuntime(f *file, call nid, spec string, args []thunk) string {
	root, _, _ := strings.Cut(spec, ".")
	last := spec
	if i := strings.LastIndex(last, "."); i >= 0 {
		last = last[i+1:]
	}
	switch {
	case pyRemoteModules[root] && !strings.HasPrefix(spec, "urllib.parse") && !strings.HasPrefix(spec, "http.HTTPStatus"):
		return "fetched at run time (" + spec + "): " + outsidePackage
	case root == "argparse" || root == "click" || root == "typer":
		return "chosen on the command line at run time (" + spec + "): " + outsidePackage
	case last == "load" || last == "loads" || last == "safe_load" || last == "load_all" || last == "safe_load_all":
		if len(args) == 0 {
			return ""
		}
		in := x.force(args[0])
		if a := pyFirstArg(f, call); in.k == vExternal && f.kind(a) == "identifier" {
			// `with open(P) as fh: json.load(fh)`: fh is the file P.
			w := pyWithAlias(f, a)
			if w < 0 {
				return ""
			}
			in = x.pyWithValue(f, w, f.text(a), nil)
		}
		if in.isUnknown() {
			r := reasonOf(in)
			if pyOutsideReason(r) {
				return "parsed at run time (" + spec + ") from " + r
			}
			return "parsed at run time (" + spec + ") from a value not resolved: " + r
		}
	}
	return ""
}

// pyFirstArg is the first positional argument node of a call, or none.
func pyFirstArg(f *file, call nid) nid {
	for _, a := range f.named(f.field(call, "arguments")) {
		if f.kind(a) != "keyword_argument" && f.kind(a) != "comment" {
			return a
		}
	}
	return none
}

// pyFileRead evaluates a call that reads a file: open(P), io.open(P),
// P.open(), P.read_text(), P.read_bytes() over a path expression. What it
// decides (methodology §5.2) is whether the file is data the package
// contains. A path the source does not name (no string literal and no
// __file__ in its expression: a parameter, an option, a setting) is not;
// an absolute path is not; a path built from __file__ and literals names a
// member of the archive, which is the package's data when the archive has
// it and is not when it does not; a bare relative literal is relative to
// the working directory, not the module, so it is the package's only in
// doubt. The package's data is not read (the extractor reads source), so
// the value stays unresolved without the run-time mark, and the site is
// declaration_not_parsed; in doubt likewise.
func (x *extractor) pyFileRead(f *file, call nid, e *env) (val, bool) {
	fn := f.field(call, "function")
	name := f.pyAttrName(fn)
	var p nid = none
	switch name {
	case "open", "read_text", "read_bytes":
		switch {
		case name == "open" && f.kind(fn) == "identifier":
			if _, _, bound := x.pyLookup(f, fn, "open"); bound {
				return val{}, false // the package's own open()
			}
			p = pyFirstArg(f, call)
		case name == "open" && f.text(f.field(fn, "object")) == "io":
			p = pyFirstArg(f, call)
		case f.kind(fn) == "attribute":
			// P.open(), P.read_text(): only over a path expression, not
			// any object with such a method.
			p = f.field(fn, "object")
			if _, _, ok := x.pyPathValue(f, p, e, 0); !ok && !pyPathCall(f, p) {
				return val{}, false
			}
		}
	}
	if p < 0 {
		return val{}, false
	}
	rel, fromFile, ok := x.pyPathValue(f, p, e, 0)
	if !ok {
		if !x.pyNamesPath(f, p, 0) {
			return unknown("a file whose path the package does not name (" + truncate(f.text(p), 60) + ") read at run time: " + outsidePackage), true
		}
		return unknown("a file opened at a path the extractor could not resolve (" + truncate(f.text(p), 60) + ")"), true
	}
	if strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, "~") {
		return unknown("a file outside the package (" + rel + ") read at run time: " + outsidePackage), true
	}
	var member string
	if fromFile {
		member = path.Clean(rel)
	} else {
		for _, c := range []string{path.Clean(rel), path.Join(path.Dir(f.path), rel)} {
			if _, ok := x.byPath[c]; ok {
				member = c
			}
		}
		if member == "" {
			return unknown("a file relative to the working directory (" + rel + "), which the package does not contain, read at run time: " + outsidePackage), true
		}
		return unknown("a file relative to the working directory (" + rel + "), which may be the package's " + member + ": not read"), true
	}
	if strings.HasPrefix(member, "../") || member == ".." {
		return unknown("a file outside the package (" + rel + ") read at run time: " + outsidePackage), true
	}
	if _, ok := x.byPath[member]; !ok {
		return unknown("the file " + member + ", which the package does not contain, read at run time: " + outsidePackage), true
	}
	return unknown("the contents of " + member + ", a data file the package ships: the extractor reads source, not data files"), true
}

// pyNamesPath reports whether a path expression names its file in the
// source: it holds a string literal or __file__, here or in the one
// assignment of a name it uses. The name of an environment variable
// (os.environ["X"], os.getenv("X"), os.environ.get("X")) names a setting,
// not a file.
func (x *extractor) pyNamesPath(f *file, p nid, depth int) bool {
	if depth > 16 {
		return true // in doubt, the package may name it
	}
	named := false
	f.walk(p, func(n nid) bool {
		if !named && !x.step() {
			named = true // out of steps: in doubt, the package may name it
		}
		if named {
			return false
		}
		switch f.kind(n) {
		case "subscript":
			if v := f.text(f.field(n, "value")); v == "os.environ" {
				return false
			}
		case "call":
			switch strings.TrimSpace(f.text(f.field(n, "function"))) {
			case "os.getenv", "os.environ.get":
				// Only its default may name a file.
				args := f.named(f.field(n, "arguments"))
				for _, a := range args[min(1, len(args)):] {
					if x.pyNamesPath(f, a, depth+1) {
						named = true
					}
				}
				return false
			}
		case "string":
			named = true
		case "identifier":
			name := f.text(n)
			if name == "__file__" {
				named = true
				break
			}
			if par := f.parent(n); f.kind(par) == "attribute" && f.field(par, "object") != n {
				break // an attribute's name, not a variable
			}
			if loop, scope, bound := x.pyLookup(f, n, name); bound && loop < 0 {
				for _, d := range f.pyFacts.scopeDecls(f, scope)[name] {
					if f.kind(d) == "assignment" && x.pyNamesPath(f, f.field(d, "right"), depth+1) {
						named = true
					}
				}
			}
		}
		return !named
	})
	return named
}

// pyPathValue reads a path expression built from literals and __file__:
// the path of the archive member it names (fromFile, when it starts at the
// module's own file) or the literal. Names are followed to their one
// assignment; depth bounds the chain.
func (x *extractor) pyPathValue(f *file, n nid, e *env, depth int) (p string, fromFile, ok bool) {
	if depth > 16 || !x.step() {
		return "", false, false
	}
	switch f.kind(n) {
	case "string", "concatenated_string":
		s, ok := plainText(x.eval(f, n, e))
		return s, false, ok
	case "parenthesized_expression":
		ch := f.named(n)
		if len(ch) != 1 {
			return "", false, false
		}
		return x.pyPathValue(f, ch[0], e, depth+1)
	case "identifier":
		name := f.text(n)
		if name == "__file__" {
			return f.path, true, true
		}
		loop, scope, bound := x.pyLookup(f, n, name)
		if !bound || loop >= 0 {
			return "", false, false
		}
		ds := f.pyFacts.scopeDecls(f, scope)[name]
		if len(ds) != 1 || f.kind(ds[0]) != "assignment" || f.kind(f.field(ds[0], "left")) != "identifier" {
			return "", false, false
		}
		return x.pyPathValue(f, f.field(ds[0], "right"), e, depth+1)
	case "attribute":
		obj := f.field(n, "object")
		if f.pyAttrName(n) != "parent" {
			return "", false, false
		}
		b, ff, ok := x.pyPathValue(f, obj, e, depth+1)
		return path.Dir(b), ff, ok
	case "binary_operator":
		if f.text(f.field(n, "operator")) != "/" {
			return "", false, false
		}
		a, ff, ok1 := x.pyPathValue(f, f.field(n, "left"), e, depth+1)
		b, _, ok2 := x.pyPathValue(f, f.field(n, "right"), e, depth+1)
		return path.Join(a, b), ff, ok1 && ok2 && !strings.HasPrefix(b, "/")
	case "call":
		fn := f.field(n, "function")
		args := f.named(f.field(n, "arguments"))
		switch f.pyAttrName(fn) {
		case "Path", "PurePath", "PosixPath", "abspath", "realpath", "normpath", "fspath", "str":
			if len(args) != 1 {
				return "", false, false
			}
			return x.pyPathValue(f, args[0], e, depth+1)
		case "dirname":
			if len(args) != 1 {
				return "", false, false
			}
			b, ff, ok := x.pyPathValue(f, args[0], e, depth+1)
			return path.Dir(b), ff, ok
		case "resolve", "absolute":
			if f.kind(fn) != "attribute" || len(args) != 0 {
				return "", false, false
			}
			return x.pyPathValue(f, f.field(fn, "object"), e, depth+1)
		case "join", "joinpath":
			var parts []nid
			if f.pyAttrName(fn) == "joinpath" {
				parts = append(parts, f.field(fn, "object"))
			} else if f.text(f.field(fn, "object")) != "os.path" && f.text(f.field(fn, "object")) != "path" {
				return "", false, false
			}
			parts = append(parts, args...)
			if len(parts) == 0 {
				return "", false, false
			}
			out, ff, ok := x.pyPathValue(f, parts[0], e, depth+1)
			for _, a := range parts[1:] {
				s, _, ok2 := x.pyPathValue(f, a, e, depth+1)
				if !ok2 || strings.HasPrefix(s, "/") {
					return "", false, false
				}
				out = path.Join(out, s)
			}
			return out, ff, ok
		}
	}
	return "", false, false
}

// pyWithValue is what `with V as name` binds name to: V itself for a file
// opened there (the file object, read by what reads it), unresolved
// otherwise.
func (x *extractor) pyWithValue(f *file, d nid, name string, e *env) val {
	v := f.field(d, "value")
	if f.kind(d) == "as_pattern" {
		if ch := f.named(d); len(ch) > 0 {
			v = ch[0]
		}
	}
	if v >= 0 && f.kind(v) == "call" {
		if fv, ok := x.pyFileRead(f, v, e); ok {
			return fv
		}
	}
	return unknown("binding of " + name + " by a with statement is not followed")
}

// pyMemberElsewhere are the values self.key is given in the class's
// methods other than __init__: a member set again later is one of several
// values, never the constructor's alone (a list emptied in __init__ and
// filled from a configuration file in load() is not an empty list). A
// value bound by a caller of the method is not enumerated here.
func (x *extractor) pyMemberElsewhere(f *file, class, init nid, key string, e *env) []val {
	var out []val
	for _, st := range f.named(f.field(class, "body")) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		if f.kind(def) != "function_definition" || def == init {
			continue
		}
		f.walk(f.field(def, "body"), func(n nid) bool {
			if !x.step() {
				return false
			}
			switch f.kind(n) {
			case "assignment", "augmented_assignment":
				l := f.field(n, "left")
				if f.kind(l) == "attribute" && f.text(f.field(l, "object")) == "self" && f.pyAttrName(l) == key {
					if f.kind(n) == "augmented_assignment" {
						out = append(out, unknown("self."+key+" is modified in place"))
						break
					}
					v := x.eval(f, f.field(n, "right"), e)
					if v.k == vNeed {
						v = unknown("self." + key + " set in " + f.text(f.field(def, "name")) + "() from a value its caller binds")
					}
					out = append(out, v)
				}
			}
			return !pyFunctionKind(f.kind(n)) && f.kind(n) != "class_definition"
		})
	}
	return out
}

// pyPathCall reports whether n is a call that makes a path: Path(x),
// pathlib.Path(x), PurePath(x).
func pyPathCall(f *file, n nid) bool {
	if f.kind(n) != "call" {
		return false
	}
	switch f.pyAttrName(f.field(n, "function")) {
	case "Path", "PurePath", "PosixPath":
		return true
	}
	return false
}

// pyWithAlias finds the `with V as name` item that binds identifier id, or
// none.
func pyWithAlias(f *file, id nid) nid {
	name := f.text(id)
	for a := f.parent(id); a >= 0; a = f.parent(a) {
		if pyFunctionKind(f.kind(a)) || f.kind(a) == "module" {
			return none
		}
		if f.kind(a) != "with_statement" {
			continue
		}
		found := none
		f.walk(a, func(n nid) bool {
			if found >= 0 || f.kind(n) == "block" {
				return false
			}
			if f.kind(n) == "as_pattern" {
				if al := f.field(n, "alias"); al >= 0 && strings.TrimSpace(f.text(al)) == name {
					found = n
				}
			}
			return true
		})
		if found >= 0 {
			return found
		}
	}
	return none
}

// pyEnvRead reads an environment variable with no literal default:
// os.environ["X"], os.environ.get("X"), os.getenv("X"). Its value is the environment's, data the package does
// not contain. A read with a default is left to the configuration rules.
func pyEnvRead(f *file, n nid) (val, bool) {
	var callee, name string
	switch f.kind(n) {
	case "subscript":
		if f.pyAttrName(f.field(n, "value")) != "environ" {
			return val{}, false
		}
		callee = strings.TrimSpace(f.text(f.field(n, "value")))
		if callee != "os.environ" {
			return val{}, false
		}
		name = f.text(f.field(n, "subscript"))
	case "call":
		fn := f.field(n, "function")
		if a := f.pyAttrName(fn); a != "getenv" && a != "get" {
			return val{}, false
		}
		callee = strings.TrimSpace(f.text(fn))
		switch callee {
		case "os.getenv", "os.environ.get":
		default:
			return val{}, false
		}
		args := f.named(f.field(n, "arguments"))
		if len(args) != 1 || f.kind(args[0]) == "keyword_argument" {
			return val{}, false
		}
		name = f.text(args[0])
	default:
		return val{}, false
	}
	return unknown("the environment variable " + truncate(name, 60) + " read at run time (" + callee + "): " + outsidePackage), true
}
