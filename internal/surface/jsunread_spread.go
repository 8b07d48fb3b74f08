package surface

// A guarded spread in an object literal (methodology §5.2, identifier
// resolution, 2.3.8): `{ name: "s", ...(remote && { authenticate }) }`. The
// spread adds nothing when its test is falsy (spreading false, 0, "", null,
// undefined or NaN copies no property) and the object literal's own members
// otherwise, so a key that object literal does not define is not defined by
// the spread, whatever the test decides. Reading a member past such a spread
// therefore goes on to the members written before it, where before 2.3.8 the
// whole object was unresolved because the test was. A key the guarded
// object may define (its own member, or one of its own spreads that is not
// read) keeps the spread unresolved as before.

// guardedSpreadLacks reports whether the spread of expr, `test && {...}`
// (parentheses allowed, `a && b && {...}` included), certainly does not
// define key.
func (x *extractor) guardedSpreadLacks(f *file, expr nid, key string, e *env) bool {
	expr = stripParens(f, expr)
	if expr < 0 || f.lang == LangPython || f.kind(expr) != "binary_expression" || f.text(f.field(expr, "operator")) != "&&" {
		return false
	}
	obj := stripParens(f, f.field(expr, "right"))
	if obj < 0 || f.kind(obj) != "object" || !x.step() {
		return false
	}
	_, found := x.objectProp(f, obj, key, e)
	return !found
}

// stripParens removes parentheses around an expression.
func stripParens(f *file, n nid) nid {
	for i := 0; i < maxRuntimeLinks && n >= 0 && f.kind(n) == "parenthesized_expression"; i++ {
		ch := f.named(n)
		if len(ch) == 0 {
			return none
		}
		n = ch[0]
	}
	return n
}
