package surface

// A template's substitution of a helper's parameter, read at each call site
// (methodology §5.2, constants substituted into templates, 2.3.10). A
// package often registers a family of tools through one helper of its own,
// called once per tool with an object literal:
//
//	export function defineBatch(options) {
//	  const note = `Either '${options.idField}' or '${options.nameField}'.`;
//	  server.tool(options.name, options.description + note, ...);
//	}
//	defineBatch({ name: "close_items", description: "Close items.", idField: "item_id", nameField: "item_name" });
//
// The registration inside the helper is read once per call site of the
// helper in the package (each reading binds the helper's parameters through
// that one call, and each gives its own entry, whose name is read through
// the same binding). Each entry's text is then the helper's text with that
// call's arguments: the parameter is read through the argument written at
// the call site by the constant routes, exactly as a parameter of the call
// being evaluated is (constParam), so `${options.idField}` is the call's
// literal `"item_id"`, with its span at the call site, when the property
// route holds (no file writes a property named idField, and so on). The
// parameter must be a plain name never written in its file; an argument
// passed by spread, or at a place after a spread, a missing argument and an
// argument that is not a constant of the package leave the substitution a
// hole, for that entry, as before.

// constSiteParam reads parameter b through the call site cs that the
// reading being made binds its function's parameters through.
func (x *extractor) constSiteParam(f *file, b binding, cs *callSite, e *env) constTarget {
	name := f.text(b.id)
	for i, a := range cs.args {
		if i <= b.index && cs.f.kind(a) == "spread_element" {
			return constFail("argument of " + name + " is passed by spread")
		}
	}
	if b.index >= len(cs.args) {
		return constFail("parameter " + name + " has no argument")
	}
	return constTarget{f: cs.f, n: cs.args[b.index], e: e}
}
