package surface

import "strings"

// Two steps of a registration's route to the site (schematext_mut_top.go),
// followed exactly since 2.3.20 (isn2):
//
//   - an object, or a literal holding it, assigned to a local name declared
//     with let or var (`let result; … result = { tools: toolList }`): every
//     use of that binding is classified as a use of the object under the
//     keys leading to it (assignedLocal). A name bound this way is reached
//     only lexically, so its uses are all in its scope; a use that binds the
//     name again (`result = other`) does not change the object (the other
//     uses are classified as if they held the object still, which is the
//     larger set). A name exported, or declared const, is not taken here.
//   - the object handed to `res.json(v)` or `res.send(v)` where res is
//     exactly express's response (expressSend): the second parameter of a
//     handler given directly to a route method (get, post, put, patch,
//     delete, all, use, options, head) of an app built by the `express`
//     module's default export or its Router, the app a const name or an
//     instance field written only by `this.f = express()` in its class (a
//     write of this.f in another class is that class's instance, when
//     neither class extends another); or
//     the second parameter of a class method every reference of which in
//     the package is `this.m(a, res)` in its class with res itself express's
//     response (`this.m` in another class that defines m of its own, a
//     bundle's copy of the class, is that class's method or an override
//     below it, never this one). express serialises the value (JSON.stringify), it does not
//     change it; the package could change that only by replacing the method
//     (an assignment to a member named json or send anywhere in the package,
//     Object.defineProperty naming it on anything but a module's exports; a
//     computed key on an express response) or by a JSON replacer (`"json replacer"` anywhere in
//     the package): either refuses the step, except in express's own code
//     bundled into the package (a region a bundler's module comment
//     attributes to express, which defines res.json and reads the replacer
//     setting).

// assignedLocal classifies the uses of the let or var name assigned at
// assign (`x = v`, v the object or a literal holding it under path).
func (r *schemaRead) assignedLocal(f *file, assign nid, path []string) (del []string, ch mutChange, ok bool) {
	no := func(why string) ([]string, mutChange, bool) {
		return nil, mutChange{f, assign, why}, false
	}
	left := f.field(assign, "left")
	if f.kind(left) != "identifier" || f.kind(assign) != "assignment_expression" {
		return no("the object is assigned to another name")
	}
	name := f.text(left)
	b, found := r.x.lookup(f, left, name)
	if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
		return no("the object is assigned to a name not declared with let or var")
	}
	stmt := f.parent(b.decl)
	if stmt < 0 || (f.kind(stmt) != "lexical_declaration" && f.kind(stmt) != "variable_declaration") {
		return no("the object is assigned to a name not declared with let or var")
	}
	if f.kind(stmt) == "lexical_declaration" && !strings.HasPrefix(f.text(stmt), "let") {
		return no("the object is assigned to a name not declared with let or var")
	}
	scope := nameScope(f, b.decl)
	if scope == 0 && mutExportedDecl(f, b.decl) {
		return no("the object is assigned to an exported name")
	}
	if r.mutDepth >= mutNestLimit {
		return no("the object is held through too many names")
	}
	r.mutDepth++
	defer func() { r.mutDepth-- }()
	ch, ok = r.bindingUses(f, scope, b.id, name, func(o binding) bool { return o.decl == b.decl }, func(n nid) (mutChange, bool) {
		p := f.parent(n)
		if p >= 0 && f.kind(p) == "export_specifier" {
			return mutChange{f, p, "the object is assigned to an exported name"}, false
		}
		if p >= 0 && f.kind(p) == "assignment_expression" && f.field(p, "left") == n {
			return mutChange{}, true // the name bound again: no change of the object
		}
		d, c, good := r.useChanges(f, n, path)
		if good {
			del = append(del, d...)
		}
		return c, good
	})
	return del, ch, ok
}

// expressSend reports whether call is `res.json(n)` or `res.send(n)` (n its
// only argument) with res exactly express's response, and the package
// replaces neither the method nor JSON's serialisation.
func (r *schemaRead) expressSend(f *file, n, call nid) bool {
	callee := f.field(call, "function")
	if f.kind(call) != "call_expression" || f.kind(callee) != "member_expression" {
		return false
	}
	method := f.text(f.field(callee, "property"))
	if method != "json" && method != "send" {
		return false
	}
	if a := f.args(call); len(a) != 1 || a[0] != n {
		return false
	}
	recv := f.field(callee, "object")
	return r.expressResponse(f, recv, 0) && !r.expressReplaced(method, f.text(recv))
}

// expressRouteMethods are an express app's or router's methods taking
// handlers.
var expressRouteMethods = map[string]bool{
	"get": true, "post": true, "put": true, "patch": true, "delete": true, "all": true,
	"use": true, "options": true, "head": true,
}

// expressResponse reports whether the identifier res is express's
// response: the second parameter of a handler given to an express app's
// route method, or of a class method called only as this.m(…, res) with res
// express's response (depth bounds that recursion).
func (r *schemaRead) expressResponse(f *file, res nid, depth int) bool {
	if depth > 4 || f.kind(res) != "identifier" {
		return false
	}
	b, found := r.x.lookup(f, res, f.text(res))
	if !found || b.kind != bParam || b.index != 1 || f.kind(b.decl) != "identifier" {
		return false
	}
	fn := b.fn
	if ps := f.field(fn, "parameters"); ps < 0 || len(f.named(ps)) > 3 {
		return false // (err, req, res, next) is an error handler: res is not the second
	}
	if f.kind(fn) == "method_definition" {
		return r.expressMethodCalls(f, fn, depth)
	}
	if (f.kind(fn) == "function_expression" || f.kind(fn) == "function") && f.field(fn, "name") >= 0 {
		return false // a named function expression may call itself with another response
	}
	o := mutOuter(f, fn)
	args := f.parent(o)
	if args < 0 || f.kind(args) != "arguments" {
		return false
	}
	call := f.parent(args)
	if a := f.args(call); len(a) == 0 || a[len(a)-1] != o {
		return false
	}
	callee := f.field(call, "function")
	if f.kind(call) != "call_expression" || f.kind(callee) != "member_expression" || !expressRouteMethods[f.text(f.field(callee, "property"))] {
		return false
	}
	return r.expressApp(f, f.field(callee, "object"))
}

// expressMethodCalls reports whether every reference in the package to the
// class method fn's name is `this.m(a, res, …)` inside fn's class with res
// express's response.
func (r *schemaRead) expressMethodCalls(f *file, fn nid, depth int) bool {
	nameNode := f.field(fn, "name")
	if f.kind(nameNode) != "property_identifier" {
		return false
	}
	name := f.text(nameNode)
	class := enclosingClass(f, fn)
	if class < 0 {
		return false
	}
	calls := 0
	good := true
	for _, g := range r.x.files {
		g.walk(0, func(m nid) bool {
			if !good {
				return false
			}
			switch g.kind(m) {
			case "property_identifier", "identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern", "string_fragment", "private_property_identifier":
			default:
				return true
			}
			if g.text(m) != name || (g == f && m == nameNode) {
				return true
			}
			if g.kind(m) == "property_identifier" && g.kind(g.parent(m)) == "method_definition" && g.field(g.parent(m), "name") == m && (g != f || enclosingClass(g, m) != class) {
				return true // another class's method of that name (a bundle's copy): a definition, not a reference
			}
			mem := g.parent(m)
			call := g.parent(mem)
			if g.kind(m) == "property_identifier" && g.kind(mem) == "member_expression" && g.field(mem, "property") == m && g.kind(g.field(mem, "object")) == "this" {
				if k := enclosingClass(g, mem); k >= 0 && (g != f || k != class) && classMethod(g, k, name) {
					return true // this.m in another class defining m (a bundle's copy): that class's m or an override below it
				}
			}
			if g != f || g.kind(m) != "property_identifier" || g.kind(mem) != "member_expression" || g.field(mem, "property") != m ||
				g.kind(g.field(mem, "object")) != "this" || call < 0 || g.kind(call) != "call_expression" || g.field(call, "function") != mem ||
				enclosingClass(f, call) != class {
				good = false
				return false
			}
			if a := f.args(call); len(a) < 2 || !r.expressResponse(f, a[1], depth+1) {
				good = false
				return false
			}
			calls++
			return true
		})
		if !good {
			return false
		}
	}
	return calls > 0
}

// classMethod reports whether the class at class (of f) defines a method
// named name in its own body.
func classMethod(f *file, class nid, name string) bool {
	body := f.field(class, "body")
	if body < 0 {
		return false
	}
	for _, m := range f.named(body) {
		if f.kind(m) == "method_definition" && f.text(f.field(m, "name")) == name {
			return true
		}
	}
	return false
}

// classExtends reports whether the class at class (of f) has an extends
// clause.
func classExtends(f *file, class nid) bool {
	for _, c := range f.named(class) {
		if f.kind(c) == "class_heritage" {
			return true
		}
	}
	return false
}

// enclosingClass is the class (declaration or expression) around n, or none.
func enclosingClass(f *file, n nid) nid {
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		switch f.kind(a) {
		case "class_declaration", "class", "class_expression":
			return a
		}
	}
	return none
}

// expressApp reports whether app is an express app or router: a call of
// the express module's default export (or its Router), held by a const
// name or by an instance field whose every write in the package is
// `this.f = <such a call>` inside its class.
func (r *schemaRead) expressApp(f *file, app nid) bool {
	app = unparen(f, app)
	switch f.kind(app) {
	case "identifier":
		b, found := r.x.lookup(f, app, f.text(app))
		if !found || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" {
			return false
		}
		stmt := f.parent(b.decl)
		if stmt < 0 || f.kind(stmt) != "lexical_declaration" || !strings.HasPrefix(f.text(stmt), "const") || f.field(b.decl, "name") != b.id {
			return false
		}
		return r.expressCall(f, f.field(b.decl, "value"))
	case "call_expression":
		return r.expressCall(f, app) // express().get(…)
	case "member_expression":
		if f.kind(f.field(app, "object")) != "this" || f.kind(f.field(app, "property")) != "property_identifier" {
			return false
		}
		return r.expressField(f, app)
	}
	return false
}

// expressField reports whether the instance field this.f (at m) is written
// only as `this.f = <express call>` in m's class, and not written under its
// name anywhere else in the package (a field declaration without a value
// or with an express call is no other write).
func (r *schemaRead) expressField(f *file, m nid) bool {
	class := enclosingClass(f, m)
	if class < 0 {
		return false
	}
	name := f.text(f.field(m, "property"))
	writes := 0
	good := true
	for _, g := range r.x.files {
		g.walk(0, func(n nid) bool {
			if !good {
				return false
			}
			switch g.kind(n) {
			case "assignment_expression", "augmented_assignment_expression":
				left := unparen(g, g.field(n, "left"))
				var key string
				switch g.kind(left) {
				case "member_expression":
					key = g.text(g.field(left, "property"))
				case "subscript_expression":
					if s, ok := g.stringValue(g.field(left, "index")); ok {
						key = s
					} else if g.kind(g.field(left, "object")) == "this" && enclosingClass(g, n) == class {
						good = false // a computed member of the instance written: it could be the field
						return false
					}
				}
				if key != name {
					return true
				}
				if k := enclosingClass(g, n); g.kind(left) == "member_expression" && g.kind(g.field(left, "object")) == "this" && k >= 0 && (g != f || k != class) &&
					!classExtends(g, k) && !classExtends(f, class) {
					return true // this.f in an unrelated class (a bundle's copy): that class's instance, never this one's
				}
				if g != f || g.kind(left) != "member_expression" || g.kind(g.field(left, "object")) != "this" || enclosingClass(g, n) != class ||
					g.kind(n) != "assignment_expression" || !r.expressCall(g, g.field(n, "right")) {
					good = false
					return false
				}
				writes++
			case "field_definition", "public_field_definition":
				if g == f && enclosingClass(g, n) == class && g.text(g.field(n, "property")) == name {
					if v := g.field(n, "value"); v >= 0 && !r.expressCall(g, v) {
						good = false
						return false
					}
				}
			}
			return true
		})
		if !good {
			return false
		}
	}
	return writes > 0
}

// expressCall reports whether n is `express()` or `express.Router()` (or a
// Router imported from express, called), express the module's default
// export by import or require.
func (r *schemaRead) expressCall(f *file, n nid) bool {
	n = unparen(f, n)
	if n < 0 || f.kind(n) != "call_expression" {
		return false
	}
	callee := unparen(f, f.field(n, "function"))
	if f.kind(callee) == "member_expression" && f.text(f.field(callee, "property")) == "Router" {
		callee = unparen(f, f.field(callee, "object"))
	}
	return r.expressModule(f, callee)
}

// expressModule reports whether the identifier id names the express
// module's default export: `import express from "express"`, `const express
// = require("express")`, or a bundler's `(0, import_express.default)` with
// `import_express = __toESM(require("express"))`. Read from the syntax, as
// written.
func (r *schemaRead) expressModule(f *file, id nid) bool {
	id = unparen(f, id)
	if f.kind(id) == "sequence_expression" {
		// (0, import_express.default)
		parts := f.named(id)
		if len(parts) != 2 {
			return false
		}
		left, right := parts[0], parts[1]
		if f.kind(left) == "number" && f.kind(right) == "member_expression" && f.text(f.field(right, "property")) == "default" {
			return r.expressModule(f, f.field(right, "object"))
		}
		return false
	}
	if f.kind(id) != "identifier" {
		return false
	}
	b, found := r.x.lookup(f, id, f.text(id))
	if !found {
		return false
	}
	switch {
	case b.kind == bImport && f.kind(b.decl) == "identifier":
		stmt := b.decl
		for stmt >= 0 && f.kind(stmt) != "import_statement" {
			stmt = f.parent(stmt)
		}
		if stmt < 0 {
			return false
		}
		spec, ok := f.stringValue(f.field(stmt, "source"))
		return ok && spec == "express"
	case b.kind == bDecl && f.kind(b.decl) == "variable_declarator" && f.field(b.decl, "name") == b.id:
		stmt := f.parent(b.decl)
		if stmt < 0 || f.kind(stmt) != "lexical_declaration" && f.kind(stmt) != "variable_declaration" {
			return false
		}
		if f.kind(stmt) == "lexical_declaration" && !strings.HasPrefix(f.text(stmt), "const") {
			return false
		}
		if f.kind(stmt) == "variable_declaration" && !r.writtenOnce(f, b) {
			return false
		}
		v := unparen(f, f.field(b.decl, "value"))
		if f.kind(v) == "call_expression" && strings.HasPrefix(f.text(f.field(v, "function")), "__toESM") {
			if a := f.args(v); len(a) >= 1 {
				v = unparen(f, a[0])
			}
		}
		if f.kind(v) != "call_expression" || f.text(f.field(v, "function")) != "require" {
			return false
		}
		a := f.args(v)
		spec, ok := "", false
		if len(a) == 1 {
			spec, ok = f.stringValue(a[0])
		}
		return ok && spec == "express"
	}
	return false
}

// writtenOnce reports whether the var name bound at b is assigned nowhere
// in its scope but at its declaration.
func (r *schemaRead) writtenOnce(f *file, b binding) bool {
	name := f.text(b.id)
	for _, u := range r.x.usesOf(f, nameScope(f, b.decl), name) {
		if u == b.id {
			continue
		}
		if o, found := r.x.lookup(f, u, name); !found || o.decl != b.decl {
			continue
		}
		p := f.parent(u)
		switch f.kind(p) {
		case "assignment_expression", "augmented_assignment_expression":
			if f.field(p, "left") == u {
				return false
			}
		case "update_expression":
			return false
		}
	}
	return true
}

// expressReplaced reports whether the package could change what express's
// res.json or res.send does with its argument: an assignment to a member
// named method, Object.defineProperty naming it on anything but a module's
// exports, a computed key written or defined on an express response
// (looked for on names spelled res, the response's name), or a
// "json replacer" setting, anywhere in the package but in
// express's own code bundled into it (a region a bundler's module comment
// attributes to express).
func (r *schemaRead) expressReplaced(method, res string) bool {
	key := method + " " + res
	if v, ok := r.x.expressReplacedMemo[key]; ok {
		return v
	}
	found := false
	for _, g := range r.x.files {
		g.walk(0, func(n nid) bool {
			if found {
				return false
			}
			switch g.kind(n) {
			case "assignment_expression", "augmented_assignment_expression":
				left := unparen(g, g.field(n, "left"))
				switch g.kind(left) {
				case "member_expression":
					found = g.text(g.field(left, "property")) == method
				case "subscript_expression":
					s, ok := g.stringValue(g.field(left, "index"))
					found = (ok && s == method) || (!ok && g.text(g.field(left, "object")) == res && r.expressResponse(g, g.field(left, "object"), 0))
				}
			case "call_expression":
				if strings.HasSuffix(g.text(g.field(n, "function")), "defineProperty") {
					a := g.args(n)
					if len(a) >= 2 && !exportsObject(g, a[0]) {
						s, ok := g.stringValue(a[1])
						found = (ok && s == method) || (!ok && g.text(a[0]) == res && r.expressResponse(g, a[0], 0))
					}
				}
			case "string_fragment":
				found = g.text(n) == "json replacer"
			}
			if found && expressOwnCode(g, n) {
				found = false
			}
			return !found
		})
	}
	if r.x.siteOver || r.x.exceeded {
		// The walk's answer may rest on a lookup the step limit cut
		// short: not kept for the other schemas (this one is a gap at
		// the limit).
		return found
	}
	if r.x.expressReplacedMemo == nil {
		r.x.expressReplacedMemo = map[string]bool{}
	}
	r.x.expressReplacedMemo[key] = found
	return found
}

// exportsObject reports whether n is a module's exports object (exports,
// a bundler's exports2, module.exports).
func exportsObject(f *file, n nid) bool {
	t := strings.TrimRight(f.text(n), "0123456789")
	return t == "exports" || t == "module.exports"
}

// expressOwnCode reports whether n is in a region of f a bundler's module
// comment attributes to express, or inside esbuild's CommonJS wrapper of an
// express module (`__commonJS({ "node_modules/express/lib/response.js"(exports, module) {…} })`,
// a bundle that carries no module comments), the module named by its path
// as the comments name it.
func expressOwnCode(f *file, n nid) bool {
	l := f.lineOf(n)
	for _, rg := range f.vregions {
		if l >= rg.StartLine && l <= rg.EndLine && rg.Library == "express" {
			return true
		}
	}
	for a := f.parent(n); a >= 0; a = f.parent(a) {
		var key nid = none
		switch f.kind(a) {
		case "method_definition":
			key = f.field(a, "name")
		case "pair":
			key = f.field(a, "key")
		}
		if key < 0 {
			continue
		}
		if s, ok := f.stringValue(key); ok && strings.HasPrefix(s, "node_modules/express/") {
			o := f.parent(a)
			args := f.parent(o)
			if f.kind(o) == "object" && f.kind(args) == "arguments" && strings.HasPrefix(f.text(f.field(f.parent(args), "function")), "__commonJS") {
				return true
			}
		}
	}
	return false
}
