// Array.from with a mapping function (2.3.18, idm).
//
// Array.from(src, fn) is, by the language's definition, the list of
// fn(element, index) over src's elements; Array.from({ length: N }, fn),
// the list of fn(undefined, index) for index 0 … N-1. Until 2.3.17 only
// Array.from(src) was followed; with a mapping function the call was a
// call into another package.

package surface

import (
	"strconv"
)

// maxArrayFromLength bounds the list Array.from({ length: N }, fn) is read
// as: each element is a call of fn.
const maxArrayFromLength = 1000

// arrayFromMapped reads Array.from(src, fn). It reports false (the caller's
// other readings apply) unless there are exactly two arguments. The length
// object must be written at the call with one member, `length`, whose value
// is a number literal or a constant of one (a non-negative integer up to
// maxArrayFromLength); fn must be a function of the package. A third
// argument (the `this` of fn), a length from anywhere else, src not
// resolved or fn not a function stays unread.
func (x *extractor) arrayFromMapped(f *file, args []nid, e *env) (val, bool) {
	if len(args) < 2 {
		return val{}, false
	}
	if len(args) > 2 {
		return unknown("Array.from with a this argument"), true
	}
	var els []val
	if n, isLen, why := x.arrayLikeLength(f, args[0], e); isLen {
		if why != "" {
			return unknown("Array.from of a length " + why), true
		}
		els = make([]val, n)
		for i := range els {
			els[i] = val{k: vUndefined}
		}
	} else {
		src := x.eval(f, args[0], e)
		if src.k == vNeed {
			return src, true
		}
		var ok bool
		els, ok = x.elements(src, e)
		if !ok {
			if len(els) == 1 && els[0].k == vNeed {
				return els[0], true
			}
			return unknown("Array.from of an unresolved value: " + reasonOf(src)), true
		}
	}
	fn := x.eval(f, args[1], e)
	if fn.k == vNeed {
		return fn, true
	}
	if fn.k != vFunc {
		return unknown("Array.from with an unresolved callback"), true
	}
	out := make([]val, 0, len(els))
	for i, el := range els {
		if !x.step() {
			return x.stepFailure(), true
		}
		el := el
		idx := val{k: vNumber, reason: strconv.Itoa(i)}
		r := x.call(fn, []thunk{{v: &el}, {v: &idx}}, nil, e)
		if r.k == vNeed {
			return r, true
		}
		out = append(out, r)
	}
	return val{k: vArray, n: none, elems: out}, true
}

// arrayLikeLength reads an object literal { length: N } written at n. isLen
// is false when n is not an object literal whose only member is length;
// why is non-empty when N is not read.
func (x *extractor) arrayLikeLength(f *file, n nid, e *env) (length int, isLen bool, why string) {
	if f.kind(n) != "object" {
		return 0, false, ""
	}
	var members []nid
	for _, c := range f.named(n) {
		if f.kind(c) != "comment" {
			members = append(members, c)
		}
	}
	if len(members) != 1 || f.kind(members[0]) != "pair" {
		return 0, false, ""
	}
	k := f.field(members[0], "key")
	if f.kind(k) == "computed_property_name" || propKeyName(f, k) != "length" {
		return 0, false, ""
	}
	v := x.eval(f, f.field(members[0], "value"), e)
	s, ok := numberKey(v)
	if !ok {
		return 0, true, "not read: " + reasonOf(v)
	}
	i, err := strconv.Atoi(s)
	if err != nil || i < 0 {
		return 0, true, s + " not a count"
	}
	if i > maxArrayFromLength {
		return 0, true, s + " over " + strconv.Itoa(maxArrayFromLength)
	}
	return i, true, ""
}
