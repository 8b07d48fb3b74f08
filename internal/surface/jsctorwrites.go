package surface

// Writes through a computed key on the instance a class constructor builds
// (methodology §5.2, configuration tables, 2.3.7). `this[k] = v` and
// `Object.assign(this, ...)` count as writes of an object the package cannot
// name, which makes every table of the package unknown, because `this` may be
// any object a function is called on. Inside a class's constructor (or an
// arrow function in it, which keeps its `this`) `this` is the instance
// `new` creates, never an object literal of the package: such a write is
// recorded under the instance, not under every object. Bundles inline
// libraries whose constructors copy options this way
// (`for (k in o) this[k] = o[k]`), and with this reading a configuration
// table of the server they bundle is read again. `this` in any other
// function or method (a method may be called on any object with `.call`)
// still counts as an object the package cannot name. For the same reason a
// write of a named property on a constructor's `this` (`this.name =
// "TimeoutError"` in an error class) is not a write of that property of any
// object literal of the package.

// ctorInstanceName is the name such writes are recorded under; no
// identifier can spell it, so no table is read as written by them.
const ctorInstanceName = "<this of a constructor>"

// jsConstructorThis reports whether `this` at node n is the instance of
// a class constructor: the nearest enclosing function that binds `this`
// (arrow functions do not) is a class's `constructor` method.
func jsConstructorThis(f *file, n nid) bool {
	if f.kind(n) != "this" {
		return false
	}
	for a, i := f.parent(n), 0; a >= 0 && i < defaultMaxNesting; a, i = f.parent(a), i+1 {
		k := f.kind(a)
		if k == "arrow_function" {
			continue
		}
		if k == "class_static_block" || k == "class_body" || k == "program" {
			return false
		}
		if !functionKind(k) {
			continue
		}
		if k != "method_definition" || f.text(f.field(a, "name")) != "constructor" {
			return false
		}
		body := f.parent(a)
		return f.kind(body) == "class_body"
	}
	return false
}

// constWrittenName is writtenName for the write index: a constructor's
// `this` is recorded under ctorInstanceName.
func constWrittenName(f *file, n nid) string {
	for i := 0; i < 64 && f.kind(n) == "subscript_expression"; i++ {
		n = f.field(n, "object")
	}
	if jsConstructorThis(f, n) {
		return ctorInstanceName
	}
	return writtenName(f, n)
}
