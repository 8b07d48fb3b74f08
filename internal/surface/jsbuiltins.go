// JavaScript built-ins the evaluator follows: string and array methods,
// Object.*, Map and Set views, spreads and entries.

package surface

import (
	"slices"
	"strconv"
)

// evalMethodCall handles the built-in methods the resolution follows:
// join, concat, trim, map, filter, Object.*, call.
func (x *extractor) evalMethodCall(f *file, n, callee nid, args []nid, e *env) (val, bool) {
	method := f.text(f.field(callee, "property"))
	objNode := f.field(callee, "object")
	if f.kind(objNode) == "identifier" && f.text(objNode) == "Object" {
		if _, declared := x.lookup(f, objNode, "Object"); !declared {
			return x.objectBuiltin(f, method, args, e), true
		}
	}
	if f.kind(objNode) == "identifier" && f.text(objNode) == "JSON" && method == "parse" {
		return unknown("parsed from JSON at run time"), true
	}
	if f.kind(objNode) == "identifier" && f.text(objNode) == "Array" && method == "from" && len(args) == 1 {
		return x.eval(f, args[0], e), true
	}
	if f.kind(objNode) == "identifier" && f.text(objNode) == "Array" && method == "from" {
		if _, declared := x.lookup(f, objNode, "Array"); declared {
			return val{}, false
		}
		if v, ok := x.arrayFromMapped(f, args, e); ok {
			return v, true // Array.from(src, fn), Array.from({ length: N }, fn) (jsidm_arrayfrom.go)
		}
	}
	if v, ok := x.promisePassThrough(f, objNode, method, args, e); ok {
		return v, true // Promise.all(list), Promise.resolve(v) (jsregistry.go)
	}
	if method == "find" && x.decidedReturns > 0 {
		if v, ok := x.decidedFind(f, objNode, args, e); ok {
			return v, true // list.find(p => p.name === name) (jspromptget.go)
		}
	}
	switch method {
	case "join", "concat", "trim", "trimStart", "trimEnd", "trimLeft", "trimRight", "map", "filter", "call",
		"flat", "flatMap", "slice", "toString", "bind", "values", "keys", "entries", "get":
	default:
		return val{}, false
	}
	recv := x.eval(f, objNode, e)
	if recv.k == vNeed {
		return recv, true
	}
	if recv.k == vMap {
		switch method {
		case "values", "keys", "entries", "get":
			keys, vals, ok := x.mapEntries(recv, e)
			if !ok {
				return unknown("entries of a Map not resolved"), true
			}
			for _, vv := range vals {
				if vv.k == vNeed {
					return vv, true
				}
			}
			switch method {
			case "values":
				return val{k: vArray, n: none, elems: vals}, true
			case "keys":
				return val{k: vArray, n: none, elems: keys}, true
			case "entries":
				out := make([]val, len(keys))
				for i := range keys {
					out[i] = val{k: vArray, n: none, elems: []val{keys[i], vals[i]}}
				}
				return val{k: vArray, n: none, elems: out}, true
			case "get":
				if len(args) != 1 {
					break
				}
				want, ok := plainText(x.eval(f, args[0], e))
				if !ok {
					return unknown("Map key computed at run time"), true
				}
				for i := len(keys) - 1; i >= 0; i-- {
					if k, ok := plainText(keys[i]); ok && k == want {
						return vals[i], true
					}
				}
				return val{k: vUndefined}, true
			}
		}
		return val{}, false
	}
	switch method {
	case "values", "keys", "entries", "get":
		return val{}, false
	}
	switch method {
	case "join":
		els, ok := x.elements(recv, e)
		if !ok {
			if len(els) == 1 && els[0].k == vNeed {
				return els[0], true
			}
			if recv.k == vObject || recv.k == vInstance || recv.k == vModule {
				return val{}, false
			}
			return unknown("join over an unresolved array: " + reasonOf(recv)), true
		}
		if len(args) != 1 {
			return unknown("join without a literal separator"), true
		}
		sep := x.eval(f, args[0], e)
		if sep.k != vText {
			return unknown("join with a separator that is not literal"), true
		}
		var parts []val
		for i, el := range els {
			if i > 0 {
				parts = append(parts, sep)
			}
			parts = append(parts, el)
		}
		if len(parts) == 0 {
			return val{k: vText, txt: &textv{}}, true
		}
		return concatText(parts...), true
	case "concat":
		if recv.k == vText {
			parts := []val{recv}
			for _, a := range args {
				parts = append(parts, x.eval(f, a, e))
			}
			return concatText(parts...), true
		}
		if recv.k == vArray {
			all, ok := x.elements(recv, e)
			if !ok {
				if len(all) == 1 && all[0].k == vNeed {
					return all[0], true
				}
				return unknown("concat of an unresolved array"), true
			}
			all = append([]val(nil), all...)
			for _, a := range args {
				av := x.eval(f, a, e)
				if av.k == vArray {
					more, ok := x.elements(av, e)
					if !ok {
						return unknown("concat of an unresolved array"), true
					}
					all = append(all, more...)
				} else {
					all = append(all, av)
				}
			}
			return val{k: vArray, n: none, elems: all}, true
		}
		return val{}, false
	case "trim", "trimStart", "trimEnd", "trimLeft", "trimRight", "toString":
		if v, ok := x.clientTrim(recv, method, args); ok {
			return v, true // args.task.trim() in a prompt's message (jsprompt_trim.go)
		}
		if recv.k != vText {
			return val{}, false
		}
		switch method {
		case "trim":
			return trimText(recv, true, true, jsSpace), true
		case "trimStart", "trimLeft":
			return trimText(recv, true, false, jsSpace), true
		case "trimEnd", "trimRight":
			return trimText(recv, false, true, jsSpace), true
		}
		return recv, true
	case "map", "filter", "slice", "flat", "flatMap":
		if recv.k != vArray && recv.k != vUnion {
			return val{}, false
		}
		els, ok := x.elements(recv, e)
		if !ok {
			if len(els) == 1 && els[0].k == vNeed {
				return els[0], true
			}
			return unknown(method + " over an unresolved array: " + reasonOf(recv)), true
		}
		switch method {
		case "filter":
			return x.jsFilter(f, args, els, recv, e), true // decided per element (jsfilter.go)
		case "slice":
			if len(args) > 0 {
				return unknown("slice of an array"), true
			}
			return val{k: vArray, n: none, elems: els}, true
		case "flat":
			var out []val
			for _, el := range els {
				if el.k == vArray {
					sub, ok := x.elements(el, e)
					if !ok {
						return unknown("flat over an unresolved array"), true
					}
					out = append(out, sub...)
				} else {
					out = append(out, el)
				}
			}
			return val{k: vArray, n: none, elems: out}, true
		}
		if len(args) == 0 {
			return unknown("map without a callback"), true
		}
		fn := x.eval(f, args[0], e)
		if fn.k != vFunc {
			return unknown("map with an unresolved callback"), true
		}
		out := make([]val, 0, len(els))
		for i, el := range els {
			el := el
			idx := val{k: vNumber, reason: strconv.Itoa(i)}
			r := x.call(fn, []thunk{{v: &el}, {v: &idx}, {v: &recv}}, nil, e)
			if method == "flatMap" {
				// flatMap flattens what each call returns by one level.
				if r.k == vNeed {
					return r, true
				}
				if r.k == vArray || r.k == vUnion {
					sub, ok := x.elements(r, e)
					if !ok {
						return unknown("flatMap over a callback whose result is not resolved: " + reasonOf(r)), true
					}
					out = append(out, sub...)
					continue
				}
			}
			out = append(out, r)
		}
		return val{k: vArray, n: none, elems: out}, true
	case "call":
		if recv.k != vFunc {
			return val{}, false
		}
		if len(args) == 0 {
			return x.call(recv, nil, nil, e), true
		}
		this := x.eval(f, args[0], e)
		return x.call(recv, x.thunks(f, args[1:], e), &this, e), true
	case "bind":
		if recv.k == vFunc {
			return recv, true
		}
	}
	return val{}, false
}

func (x *extractor) objectBuiltin(f *file, method string, args []nid, e *env) val {
	switch method {
	case "freeze", "seal", "preventExtensions":
		if len(args) == 1 {
			return x.eval(f, args[0], e)
		}
	case "assign":
		var parts []val
		for _, a := range args {
			v := x.eval(f, a, e)
			if v.k == vNeed {
				return v
			}
			parts = append(parts, v)
		}
		return val{k: vObject, n: none, parts: parts}
	case "values", "entries", "keys":
		if len(args) != 1 {
			break
		}
		v := x.eval(f, args[0], e)
		if v.k == vNeed {
			return v
		}
		keys, vals, ok := x.entries(v, e)
		if !ok {
			return unknown("Object." + method + " of an unresolved object: " + reasonOf(v))
		}
		return entriesView(method, keys, vals)
	case "fromEntries":
		if len(args) != 1 {
			break
		}
		els, ok := x.elements(x.eval(f, args[0], e), e)
		if !ok {
			return unknown("Object.fromEntries of an unresolved array")
		}
		o := val{k: vObject, n: none}
		for _, el := range els {
			pair, ok := x.elements(el, e)
			if !ok || len(pair) < 2 {
				return unknown("Object.fromEntries of an unresolved entry")
			}
			k, ok := plainText(pair[0])
			if !ok {
				return unknown("Object.fromEntries with a computed key")
			}
			o.keys = append(o.keys, k)
			o.props = append(o.props, pair[1])
		}
		return o
	case "defineProperty":
		return unknown("Object.defineProperty")
	}
	return unknown("result of Object." + method)
}

// elements lists the elements of an array value. ok is false when they
// cannot all be known; then a single vNeed element, if any, says why.
func (x *extractor) elements(v val, e *env) ([]val, bool) {
	if !x.step() {
		return nil, false
	}
	if _, ok := x.enterValue(v, "[]", ""); !ok {
		return nil, false
	}
	defer x.leaveValue(v, "[]", "")
	switch v.k {
	case vNeed:
		return []val{v}, false
	case vUnion:
		var out []val
		for _, a := range v.elems {
			if a.k == vUndefined || a.k == vNull {
				continue
			}
			els, ok := x.elements(a, e)
			if !ok {
				return els, false
			}
			out = append(out, els...)
		}
		return out, true
	case vMap:
		keys, vals, ok := x.mapEntries(v, e)
		if !ok {
			return nil, false
		}
		for _, vv := range vals {
			if vv.k == vNeed {
				return []val{vv}, false
			}
		}
		if v.spec == "Set" {
			return vals, true
		}
		out := make([]val, len(keys))
		for i := range keys {
			out[i] = val{k: vArray, n: none, elems: []val{keys[i], vals[i]}}
		}
		return out, true
	case vArray:
		if v.n < 0 {
			return v.elems, true
		}
		if v.f.lang == LangPython {
			return x.pyElements(v, e)
		}
		var out []val
		slots, holed := pwArraySlots(v.f, v.n) // an elision is undefined (jspw_writes.go)
		if !holed {
			slots = v.f.named(v.n)
		}
		for _, c := range slots {
			if c < 0 {
				out = append(out, val{k: vUndefined})
				continue
			}
			if v.f.kind(c) == "spread_element" {
				els, ok := x.spreadElements(v.f, c, v.env, e)
				if !ok {
					return els, false
				}
				out = append(out, els...)
				continue
			}
			out = append(out, x.eval(v.f, c, v.env))
		}
		out = x.pwElements(v, out) // elements the package writes (jspw_writes.go)
		// Elements pushed later onto the array a declaration names.
		out = append(out, x.pushedElements(v, e)...)
		return out, true
	case vClass:
		if v.f != nil && v.f.lang == LangPython {
			if enum, _ := x.pyEnumClass(v, nil); enum {
				return x.pyEnumIterate(v) // for m in E (pyenum.go)
			}
		}
	}
	return nil, false
}

// pushedElements follows `name.push(...)` calls on an array literal bound by
// a declaration in the same file.
func (x *extractor) pushedElements(v val, e *env) []val {
	f := v.f
	decl := f.parent(v.n)
	if f.kind(decl) != "variable_declarator" || f.field(decl, "value") != v.n {
		// An array held by a member (this.list = [], or a field): its
		// this.list.push(...) calls in the same class.
		var out []val
		for _, c := range memberMutations(f, v.n, "push") {
			out = append(out, x.pushArgs(f, c, e)...)
		}
		return out
	}
	id := f.field(decl, "name")
	if f.kind(id) != "identifier" {
		return nil
	}
	name := f.text(id)
	// The pushes are read where the array was made (v.env): the frame of
	// the call that made it, so a recursive call pushing its own result
	// is recognised.
	var out []val
	for _, c := range f.facts.calls["push"] {
		// Scanning a file's push calls is resolution work too: count it, so a
		// bundle with thousands of them cannot run past the budget unchecked.
		if !x.step() {
			return append(out, x.stepFailure())
		}
		callee := f.field(c, "function")
		obj := f.field(callee, "object")
		if f.kind(obj) != "identifier" || f.text(obj) != name {
			continue
		}
		if b, ok := x.lookup(f, obj, name); !ok || b.decl != decl {
			continue
		}
		for _, a := range f.args(c) {
			if f.kind(a) == "spread_element" {
				inner := f.named(a)
				if len(inner) > 0 {
					els, ok := x.elements(x.eval(f, inner[0], v.env), e)
					if ok {
						out = append(out, els...)
					} else {
						out = append(out, unknown("spread of an unresolved array into push"))
					}
				}
				continue
			}
			if av := x.eval(f, a, v.env); !neverRuns(av) {
				out = append(out, av)
			}
		}
	}
	return out
}

// spreadElements is what a spread written in an array or list literal
// (...xs, *xs) adds to it: the elements of the value it spreads, none for
// an empty spread.
func (x *extractor) spreadElements(f *file, spread nid, at, e *env) ([]val, bool) {
	inner := f.named(spread)
	if len(inner) == 0 {
		return nil, true
	}
	return x.elements(x.eval(f, inner[0], at), e)
}

// entriesView is Object.keys/values/entries, or dict.keys()/values()/
// items(), of an object's entries: its keys, its values, or otherwise its
// [key, value] pairs.
func entriesView(view string, keys, vals []val) val {
	switch view {
	case "values":
		return val{k: vArray, n: none, elems: vals}
	case "keys":
		return val{k: vArray, n: none, elems: keys}
	}
	out := make([]val, len(keys))
	for i := range keys {
		out[i] = val{k: vArray, n: none, elems: []val{keys[i], vals[i]}}
	}
	return val{k: vArray, n: none, elems: out}
}

// spreadEntries is what a spread written in an object or dict literal
// (...obj, **d) adds to it: the entries of the value it spreads, none for
// an empty spread.
func (x *extractor) spreadEntries(f *file, spread nid, at, e *env) (keys, vals []val, ok bool) {
	inner := f.named(spread)
	if len(inner) == 0 {
		return nil, nil, true
	}
	return x.entries(x.eval(f, inner[0], at), e)
}

// entries lists the keys (as text) and values of an object value.
func (x *extractor) entries(v val, e *env) (keys, vals []val, ok bool) {
	if !x.step() {
		return nil, nil, false
	}
	if _, ok := x.enterValue(v, "{}", ""); !ok {
		return nil, nil, false
	}
	defer x.leaveValue(v, "{}", "")
	switch v.k {
	case vObject:
		if v.n < 0 {
			for _, p := range v.parts {
				k, vs, ok := x.entries(p, e)
				if !ok {
					return nil, nil, false
				}
				for i := range k {
					if s, ok := plainText(k[i]); ok && slices.Contains(v.omit, s) {
						continue
					}
					keys, vals = append(keys, k[i]), append(vals, vs[i])
				}
			}
			for i, k := range v.keys {
				keys = append(keys, val{k: vText, txt: &textv{segs: []seg{{text: k}}}})
				vals = append(vals, v.props[i])
			}
			return keys, vals, true
		}
		f := v.f
		if f.lang == LangPython {
			return x.pyDictEntries(v, e)
		}
		for _, c := range f.named(v.n) {
			switch f.kind(c) {
			case "pair":
				k := f.field(c, "key")
				var kv val
				switch f.kind(k) {
				case "property_identifier", "number":
					kv = literalText(f, f.start(k), f.end(k), "js_string")
				case "string":
					kv = x.eval(f, k, v.env)
				case "computed_property_name":
					var ok bool
					if kv, ok = x.computedEntryKey(f, v.n, c, v.env); !ok { // jsidm_keys.go
						return nil, nil, false
					}
				default:
					return nil, nil, false
				}
				keys = append(keys, kv)
				vals = append(vals, x.eval(f, f.field(c, "value"), v.env))
			case "shorthand_property_identifier":
				keys = append(keys, literalText(f, f.start(c), f.end(c), "js_string"))
				vals = append(vals, x.evalIdent(f, c, f.text(c), v.env))
			case "method_definition":
				nm := f.field(c, "name")
				keys = append(keys, literalText(f, f.start(nm), f.end(nm), "js_string"))
				vals = append(vals, val{k: vFunc, f: f, n: c, env: v.env})
			case "spread_element":
				k, vs, ok := x.spreadEntries(f, c, v.env, e)
				if !ok {
					return nil, nil, false
				}
				keys, vals = append(keys, k...), append(vals, vs...)
			}
		}
		for _, o := range x.exportedInto(f, v.n) {
			k, vs, ok := x.entries(val{k: vObject, f: f, n: o, env: v.env}, e)
			if !ok {
				return nil, nil, false
			}
			for i := range vs {
				if vs[i].k == vFunc {
					vs[i] = x.call(vs[i], nil, nil, v.env)
				}
			}
			keys, vals = append(keys, k...), append(vals, vs...)
		}
		return keys, x.pwEntries(v, keys, vals), true // members the package writes (jspw_writes.go)
	case vModule:
		fa := v.f.facts
		if fa == nil {
			return nil, nil, false
		}
		if fa.cjsExports >= 0 && len(fa.exports) == 0 {
			return x.entries(x.eval(v.f, fa.cjsExports, nil), e)
		}
		for _, name := range fa.exportOrder {
			if name == "default" {
				continue
			}
			ev, _ := x.exportValue(v.f, name, 0)
			keys = append(keys, val{k: vText, txt: &textv{segs: []seg{{text: name}}}})
			vals = append(vals, ev)
		}
		for _, s := range fa.stars {
			t := x.resolveModule(v.f, s)
			if t == nil {
				return nil, nil, false
			}
			k, vs, ok := x.entries(val{k: vModule, f: t}, e)
			if !ok {
				return nil, nil, false
			}
			keys, vals = append(keys, k...), append(vals, vs...)
		}
		return keys, vals, true
	case vUnion:
		for _, a := range v.elems {
			k, vs, ok := x.entries(a, e)
			if !ok {
				return nil, nil, false
			}
			keys, vals = append(keys, k...), append(vals, vs...)
		}
		return keys, vals, true
	}
	return nil, nil, false
}
