package surface

// zod's lazy schema (methodology §5.3, since 2.3.12): z.lazy(getter) is a
// schema whose definition is the schema its getter returns. Both converters
// walk it: zod-to-json-schema's parser of a lazy definition parses
// def.getter()'s definition in its place, and zod 4's toJSONSchema processes
// the lazy schema's inner type (the getter's result) and makes the lazy
// node a reference to it; a schema met again while it is being converted
// (a recursive lazy) is written as a $ref to the one conversion, so its
// texts appear once. The reading does the same: the getter, written as a
// function literal without parameters whose body is, or returns once, an
// expression, is read as the schema; a lazy met again inside its own reading
// is not read a second time. Any other getter is a gap.

// lazy reads z.lazy(getter) at n.
func (r *schemaRead) lazy(f *file, n nid, e *env, path string, depth int) {
	args := f.args(n)
	if len(args) != 1 {
		r.gap(f, n, "zod's lazy() not written with one getter")
		return
	}
	g := args[0]
	for f.kind(g) == "parenthesized_expression" {
		if g = exprChild(f, g); g < 0 {
			r.gap(f, n, "zod's lazy() getter not read")
			return
		}
	}
	switch f.kind(g) {
	case "arrow_function", "function_expression", "function":
	default:
		r.gap(f, args[0], "zod's lazy() getter not written as a function ("+f.kind(g)+")")
		return
	}
	if ps := f.field(g, "parameters"); ps < 0 || len(f.named(ps)) > 0 || f.field(g, "parameter") >= 0 {
		r.gap(f, g, "zod's lazy() getter with parameters not read")
		return
	}
	body := f.field(g, "body")
	if body < 0 {
		r.gap(f, g, "zod's lazy() getter without a body")
		return
	}
	ret := body
	if f.kind(body) == "statement_block" {
		rets := returnsOf(f, body)
		if len(rets) != 1 || len(f.named(rets[0])) == 0 {
			r.gap(f, g, "zod's lazy() getter with several returns not read")
			return
		}
		ret = f.named(rets[0])[0]
	}
	k := progKey{f, n, nil}
	if r.lazyOpen[k] {
		return // a cycle: the converter refers to the conversion under way
	}
	if r.lazyOpen == nil {
		r.lazyOpen = map[progKey]bool{}
	}
	r.lazyOpen[k] = true
	ne := e.push(env{scope: scopeRef{f, g}, calling: true})
	r.node(f, ret, ne, path, depth+1)
	delete(r.lazyOpen, k)
}
