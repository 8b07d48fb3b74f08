// The JavaScript module system as the evaluator follows it: import and
// require bindings, exports (ESM, CommonJS, Object.defineProperty), and
// resolution of specifiers to files of the package.

package surface

import (
	"path"
	"strings"
)

// importValue resolves an import binding (specifier, default or namespace).
func (x *extractor) importValue(f *file, d nid) val {
	var stmt nid = d
	for stmt >= 0 && f.kind(stmt) != "import_statement" {
		stmt = f.parent(stmt)
	}
	if stmt < 0 {
		return unknown("import outside an import statement")
	}
	spec, ok := f.stringValue(f.field(stmt, "source"))
	if !ok {
		return unknown("import of a computed specifier")
	}
	target := x.resolveModule(f, spec)
	switch f.kind(d) {
	case "namespace_import":
		if target == nil {
			return x.externalModule(f, spec)
		}
		return val{k: vModule, f: target}
	case "identifier":
		if target == nil {
			return val{k: vExternal, spec: spec + ".default"}
		}
		v, _ := x.exportValue(target, "default", 0)
		return v
	case "import_specifier":
		name := exportSpecName(f, f.field(d, "name"))
		if target == nil {
			return val{k: vExternal, spec: spec + "." + name}
		}
		v, _ := x.exportValue(target, name, 0)
		return v
	}
	return unknown("import of kind " + f.kind(d))
}

func (x *extractor) externalModule(f *file, spec string) val {
	if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") {
		return unknown("import of " + spec + ", which is not in the artifact")
	}
	return val{k: vExternal, spec: spec}
}

func (x *extractor) requireValue(f *file, spec string, at nid) val {
	target := x.resolveModule(f, spec)
	if target == nil {
		return x.externalModule(f, spec)
	}
	if target.lang == "json" {
		return unknown("JSON file " + target.path)
	}
	if target.facts != nil && target.facts.cjsExports >= 0 && len(target.facts.exports) == 0 {
		return x.eval(target, target.facts.cjsExports, nil)
	}
	return val{k: vModule, f: target}
}

// exportValue resolves the exported name of a module file.
func (x *extractor) exportValue(f *file, name string, hops int) (val, bool) {
	if hops > 16 {
		return unknown("re-export chain too long"), true
	}
	fa := f.facts
	if fa == nil {
		if f.pyFacts != nil {
			return x.pyModuleAttr(f, name)
		}
		return unknown("module " + f.path + " was not parsed"), true
	}
	if v, ok := x.enterName(f, none, name); !ok {
		return v, true
	}
	defer x.leaveName(f, none, name)
	if r, ok := fa.exports[name]; ok {
		switch r.kind {
		case exLocal:
			b, ok := x.lookupModuleScope(f, r.local)
			if !ok {
				return unknown("exported name " + r.local + " is not declared"), true
			}
			return x.bindingValue(f, b, nil), true
		case exExpr:
			if f.kind(r.node) == "call_expression" && f.calleeName(f.field(r.node, "function")) == "defineProperty" {
				return x.definePropertyExport(f, r.node), true
			}
			return x.eval(f, r.node, nil), true
		case exReexport:
			t := x.resolveModule(f, r.spec)
			if t == nil {
				return val{k: vExternal, spec: r.spec + "." + r.name}, true
			}
			return x.exportValue(t, r.name, hops+1)
		case exNamespace:
			t := x.resolveModule(f, r.spec)
			if t == nil {
				return x.externalModule(f, r.spec), true
			}
			return val{k: vModule, f: t}, true
		}
	}
	if fa.cjsExports >= 0 {
		mv := x.eval(f, fa.cjsExports, nil)
		if name == "default" {
			if p, found := x.getProp(mv, "default", nil); found && p.k != vUndefined {
				return p, true
			}
			return mv, true
		}
		return x.getProp(mv, name, nil)
	}
	for _, s := range fa.stars {
		t := x.resolveModule(f, s)
		if t == nil {
			continue
		}
		if v, found := x.exportValue(t, name, hops+1); found && v.k != vUndefined {
			return v, true
		}
	}
	if name == "default" && !fa.esModule && len(fa.exports) == 0 {
		return unknown("module " + f.path + " has no default export"), false
	}
	return unknown("module " + f.path + " does not export " + name), false
}

// definePropertyExport reads TypeScript's re-export form:
// Object.defineProperty(exports, "x", { get: function () { return m.x; } }).
func (x *extractor) definePropertyExport(f *file, call nid) val {
	a := f.args(call)
	desc := x.eval(f, a[2], nil)
	if g, found := x.getProp(desc, "get", nil); found && g.k == vFunc {
		return x.call(g, nil, nil, nil)
	}
	if v, found := x.getProp(desc, "value", nil); found {
		return v
	}
	return unknown("Object.defineProperty export without a getter")
}

func (x *extractor) lookupModuleScope(f *file, name string) (binding, bool) {
	ds, ok := f.facts.scopeDecls(f, 0)[name]
	if !ok {
		return binding{}, false
	}
	d := ds[len(ds)-1]
	kind := bDecl
	switch f.kind(d.decl) {
	case "import_specifier", "namespace_import", "identifier":
		kind = bImport
	}
	return binding{kind: kind, decl: d.decl, id: d.id}, true
}

// resolveModule maps a relative specifier to a file of the artifact: exact
// path, a .js specifier naming a .ts source, added extensions, index files.
func (x *extractor) resolveModule(from *file, spec string) *file {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") && spec != "." && spec != ".." {
		return x.selfReference(spec)
	}
	base := path.Join(path.Dir(from.path), spec)
	return x.resolvePath(base, from.lang == LangPython)
}

func (x *extractor) resolvePath(base string, py bool) *file {
	try := func(p string) *file {
		if f, ok := x.byPath[p]; ok {
			return f
		}
		return nil
	}
	if py {
		if f := try(base + ".py"); f != nil {
			return f
		}
		return try(base + "/__init__.py")
	}
	if f := try(base); f != nil {
		return f
	}
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	switch ext {
	case ".js", ".jsx":
		for _, alt := range []string{".ts", ".tsx"} {
			if f := try(stem + alt); f != nil {
				return f
			}
		}
	case ".mjs":
		if f := try(stem + ".mts"); f != nil {
			return f
		}
	case ".cjs":
		if f := try(stem + ".cts"); f != nil {
			return f
		}
	}
	exts := []string{".js", ".ts", ".mjs", ".cjs", ".tsx", ".jsx", ".mts", ".cts", ".json"}
	for _, e := range exts {
		if f := try(base + e); f != nil {
			return f
		}
	}
	for _, e := range exts {
		if f := try(base + "/index" + e); f != nil {
			return f
		}
	}
	return nil
}

// selfReference resolves a specifier naming the package itself.
func (x *extractor) selfReference(spec string) *file {
	name := x.pkgName
	if name == "" || (spec != name && !strings.HasPrefix(spec, name+"/")) {
		return nil
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(spec, name), "/")
	if rest == "" {
		for _, e := range x.entryFiles {
			return e
		}
		return nil
	}
	return x.resolvePath(path.Join(x.root, rest), false)
}
