package surface

import "strings"

// Zod's namespace copied into a bundle (methodology §5.4, holes filled by
// the client; 2.3.13, part PD).
//
// A bundler (esbuild) that inlines zod does not leave an import behind: the
// namespace a server writes as `z` becomes a variable of the bundle built
// in the region zod's own `external.js` module was copied to,
//
//	// node_modules/zod/v3/external.js
//	var external_exports = {};
//	__export(external_exports, { ..., string: () => stringType, ... });
//
// and the server's `z.string()` becomes `external_exports.string()`. The
// client's mark (jsclientargs.go) asks that a prompt's argument shape be
// plain zod strings, which zodPlainString recognised only through an
// import, so a bundled server's `.prompt()` arguments were ordinary holes.
//
// bundledZodNamespace recognises the copy exactly, or not at all: the name
// must be declared as an empty object literal, in a vendored region whose
// bundler comment names zod's `external.js` module (the module whose
// exports are zod's namespace), with the statement right after it the
// bundler's `__export(name, { ... })` whose `string` member is a getter
// arrow returning a name, and the name must be written nowhere in its file
// (no assignment, pattern, or loop target). Anything else (a namespace the
// package builds itself, one declared outside such a region, a copy whose
// `string` member is anything but the bundler's getter, a name written
// again) is not zod's namespace, and the argument stays an ordinary hole.

// bundledZodNamespace reports whether the identifier obj of f is zod's
// namespace as a bundler copied it.
func (x *extractor) bundledZodNamespace(f *file, obj nid) bool {
	if f == nil || f.lang == LangPython || f.facts == nil || len(f.vregions) == 0 || f.kind(obj) != "identifier" {
		return false
	}
	name := f.text(obj)
	b, ok := x.lookup(f, obj, name)
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
		return false
	}
	if v := f.field(b.decl, "value"); f.kind(v) != "object" || len(f.named(v)) != 0 {
		return false
	}
	if !zodExternalRegion(f, b.decl) || x.constWritesOf(f).names[name] > 0 {
		return false
	}
	stmt := f.parent(b.decl)
	prog := f.parent(stmt)
	if f.kind(stmt) != "variable_declaration" && f.kind(stmt) != "lexical_declaration" || len(f.named(stmt)) != 1 {
		return false
	}
	sib := f.named(prog)
	for i, s := range sib {
		if s == stmt {
			return i+1 < len(sib) && bundlerZodExport(f, sib[i+1], name)
		}
	}
	return false
}

// zodExternalRegion reports whether n lies in a vendored region of f that
// a bundler's comment names as zod's external.js module.
func zodExternalRegion(f *file, n nid) bool {
	l := f.lineOf(n)
	for _, r := range f.vregions {
		if l >= r.StartLine && l <= r.EndLine {
			return r.Library == "zod" && strings.Contains(r.Reason, "node_modules/zod/") && strings.HasSuffix(r.Reason, "/external.js")
		}
	}
	return false
}

// bundlerZodExport reports whether s is `__export(name, { ... })` whose
// `string` member is a getter arrow returning a name.
func bundlerZodExport(f *file, s nid, name string) bool {
	if f.kind(s) != "expression_statement" || len(f.named(s)) != 1 {
		return false
	}
	call := f.named(s)[0]
	if f.kind(call) != "call_expression" || f.text(f.field(call, "function")) != "__export" {
		return false
	}
	args := f.args(call)
	if len(args) != 2 || f.kind(args[0]) != "identifier" || f.text(args[0]) != name || f.kind(args[1]) != "object" {
		return false
	}
	for _, m := range f.named(args[1]) {
		if f.kind(m) != "pair" || f.text(f.field(m, "key")) != "string" {
			continue
		}
		v := f.field(m, "value")
		return f.kind(v) == "arrow_function" && len(f.named(f.field(v, "parameters"))) == 0 && f.kind(f.field(v, "body")) == "identifier"
	}
	return false
}
