package surface

// Sets and Maps in tests of configuration and filters (methodology §5.2,
// 2.3.7): `new Set([...])` and `new Map([[k, v], ...])` of the global
// constructors, built from a list jsCond reads (literals, constants of the
// package), and read with `.has`, `.get` and `.size`. A collection is read
// only through a name of the package no file changes in place (`.add`,
// `.set`, `.delete`, `.clear` on that name, recorded by noteMutation), as an
// array is read only when nothing pushes to it; a collection filled in a
// loop, from the environment or from a call is not known.

// collectionMutators are the methods that change a Set or a Map in place.
var collectionMutators = map[string]bool{"add": true, "set": true, "delete": true, "clear": true}

// jsCollectionWritten reports whether any file of the package changes in
// place a collection or array under name.
func (x *extractor) jsCollectionWritten(name string) bool {
	if name == "" {
		return true
	}
	for _, g := range x.files {
		if g.facts == nil {
			continue
		}
		if w := x.constWritesOf(g); w.mutated[name] || w.collections[name] {
			return true
		}
	}
	return false
}

// jsCondNew reads `new Set(list)`, `new Set()`, `new Map(entries)` and
// `new Map()` of the global constructors: a set is a 'S' value whose items
// are its distinct members, a map an 'M' value whose items are [key, value]
// pairs, later keys replacing earlier ones.
func (x *extractor) jsCondNew(f *file, n nid, e *env, depth int) jcv {
	ctor := f.field(n, "constructor")
	if f.kind(ctor) != "identifier" {
		return jUnknown()
	}
	name := f.text(ctor)
	if name != "Set" && name != "Map" {
		return jUnknown()
	}
	if _, bound := x.lookup(f, ctor, name); bound {
		return jUnknown()
	}
	args := f.args(n)
	if len(args) > 1 {
		return jUnknown()
	}
	var items []jcv
	if len(args) == 1 {
		if f.kind(args[0]) == "spread_element" {
			return jUnknown()
		}
		list := x.jsCond(f, args[0], e, depth+1)
		if !list.ok || list.k != 'a' {
			return jUnknown()
		}
		items = list.items
	}
	if name == "Set" {
		var out []jcv
		for _, it := range items {
			if !it.scalar() {
				return jUnknown() // members compared by identity
			}
			dup := false
			for _, o := range out {
				if eq, _ := jStrictEq(o, it); eq {
					dup = true
				}
			}
			if !dup {
				out = append(out, it)
			}
		}
		return jcv{ok: true, k: 'S', items: out}
	}
	var out []jcv
	for _, it := range items {
		if !it.ok || it.k != 'a' || len(it.items) < 1 || !it.items[0].scalar() {
			return jUnknown()
		}
		v := jUndef()
		if len(it.items) > 1 {
			v = it.items[1]
		}
		replaced := false
		for i, o := range out {
			if eq, _ := jStrictEq(o.items[0], it.items[0]); eq {
				out[i] = jcv{ok: true, k: 'a', items: []jcv{it.items[0], v}}
				replaced = true
			}
		}
		if !replaced {
			out = append(out, jcv{ok: true, k: 'a', items: []jcv{it.items[0], v}})
		}
	}
	return jcv{ok: true, k: 'M', items: out}
}

// jsCondCollection reads .has, .get and .size of a known Set or Map.
func jsCondCollection(recv jcv, method string, arg func(int) jcv, prop bool) jcv {
	if prop {
		if method == "size" {
			return jNum(float64(len(recv.items)))
		}
		return jUnknown()
	}
	switch method {
	case "has", "get":
		a := arg(0)
		if !a.scalar() {
			return jUnknown()
		}
		for _, it := range recv.items {
			key := it
			if recv.k == 'M' {
				key = it.items[0]
			}
			eq, ok := jStrictEq(key, a)
			if !ok {
				return jUnknown()
			}
			if eq {
				if method == "has" {
					return jBool(true)
				}
				if recv.k == 'M' {
					return it.items[1]
				}
				return jUnknown()
			}
		}
		if method == "has" {
			return jBool(false)
		}
		if recv.k == 'M' {
			return jUndef()
		}
	}
	return jUnknown()
}

// jsCondNamedCollection reports whether the value a name of the package
// is bound to may be read: an array, Set or Map is read only when no file
// changes it in place under that name.
func (x *extractor) jsCondNamedCollection(name string, v jcv) jcv {
	if v.ok && (v.k == 'a' || v.k == 'S' || v.k == 'M') && x.jsCollectionWritten(name) {
		return jUnknown()
	}
	return v
}
