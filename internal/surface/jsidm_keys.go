// Member names written as numbers, and computed keys of an object whose
// entries are listed (2.3.18, idm).
//
// JavaScript converts a property key to a string: o[1], o[1.0], o[0x1] and
// o[ONE] (const ONE = 1) all read the property "1", as String(1) renders it.
// Until 2.3.17 a key that evaluated to a number was taken as the source text
// of the index expression, so o[ONE] read the property named "ONE" (a
// fail-open: another property's text, or none at all where the server sends
// one). An object literal's member written `[K]: v` was read by a lookup
// (o.k) but not when the object's entries were listed (Object.entries,
// Object.keys, Object.values, a spread into a list), so a table keyed by
// constants was refused as a whole.

package surface

import (
	"strconv"

	"github.com/attestari/attestari/internal/literal"
)

// numberKey is the property key a number value converts to: String(n) of a
// numeric literal (literal.RenderJSNumber), or the decimal index the
// extractor made for a loop's element. ok is false for a literal whose
// rendering is not exact (a legacy octal, a huge hex integer).
func numberKey(v val) (string, bool) {
	if v.k != vNumber {
		return "", false
	}
	if v.f == nil || v.n < 0 {
		if _, err := strconv.Atoi(v.reason); err != nil {
			return "", false
		}
		return v.reason, true
	}
	return literal.RenderJSNumber([]byte(v.f.text(v.n)))
}

// numberPropKey is the key of an object literal's member written as a
// number ({ 1.0: x } is the property "1"); a literal not rendered exactly
// keeps its source text, which no key the extractor computes can equal
// (a computed key is always a rendered one).
func numberPropKey(f *file, k nid) string {
	if s, ok := literal.RenderJSNumber([]byte(f.text(k))); ok {
		return s
	}
	return f.text(k)
}

// computedEntryKey reads the key of an object literal's member `[K]: v`
// (pair c of the object obj) where the object's entries are listed: K
// evaluated under e must be one exact text. It is refused (ok false) when
// K is anything else (a parameter no call pins, a symbol, a number, a call),
// when the text is an array index (JavaScript lists those first, in numeric
// order, not where they are written), and when the text may name another
// member of the same literal (a member written with the same name, or any
// spread beside it): then one property would be listed twice, or the later
// write would be listed in the earlier place.
func (x *extractor) computedEntryKey(f *file, obj, c nid, e *env) (val, bool) {
	k := f.field(c, "key")
	in := exprChild(f, k)
	if in < 0 {
		return val{}, false
	}
	kv := x.eval(f, in, e)
	s, ok := plainText(kv)
	if !ok || kv.k != vText || arrayIndexKey(s) {
		return val{}, false
	}
	for _, o := range f.named(obj) {
		if o == c {
			continue
		}
		switch f.kind(o) {
		case "spread_element":
			return val{}, false
		case "pair":
			ok2 := f.field(o, "key")
			if f.kind(ok2) == "computed_property_name" {
				oi := exprChild(f, ok2)
				if oi < 0 {
					return val{}, false
				}
				os, ok := plainText(x.eval(f, oi, e))
				if !ok || os == s {
					return val{}, false
				}
				continue
			}
			if propKeyName(f, ok2) == s {
				return val{}, false
			}
		case "shorthand_property_identifier":
			if f.text(o) == s {
				return val{}, false
			}
		case "method_definition":
			if f.text(f.field(o, "name")) == s {
				return val{}, false
			}
		}
	}
	return kv, true
}

// arrayIndexKey reports whether s is a canonical array index ("0", "17"),
// which an object lists before its other keys.
func arrayIndexKey(s string) bool {
	if s == "" || len(s) > 10 || (len(s) > 1 && s[0] == '0') {
		return false
	}
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && n < 1<<32-1
}
