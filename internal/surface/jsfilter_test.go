package surface

import "testing"

// TestJSCondCollection: a Set answers has and size by its distinct
// members; a Map answers get and has by its last value per key, undefined
// for a key it lacks; a key that is not a scalar is not known.
func TestJSCondCollection(t *testing.T) {
	set := jcv{ok: true, k: 'S', items: []jcv{jStr("a"), jNum(1)}}
	m := jcv{ok: true, k: 'M', items: []jcv{{ok: true, k: 'a', items: []jcv{jStr("k"), jStr("v")}}}}
	arg := func(v jcv) func(int) jcv { return func(int) jcv { return v } }
	cases := []struct {
		name   string
		recv   jcv
		method string
		a      jcv
		prop   bool
		want   jcv
	}{
		{"set has member", set, "has", jStr("a"), false, jBool(true)},
		{"set has not", set, "has", jStr("b"), false, jBool(false)},
		{"set has number", set, "has", jNum(1), false, jBool(true)},
		{"set size", set, "size", jcv{}, true, jNum(2)},
		{"set get is not a method", set, "get", jStr("a"), false, jUnknown()},
		{"set has unknown", set, "has", jUnknown(), false, jUnknown()},
		{"map get", m, "get", jStr("k"), false, jStr("v")},
		{"map get missing", m, "get", jStr("x"), false, jUndef()},
		{"map has", m, "has", jStr("k"), false, jBool(true)},
		{"map forEach", m, "forEach", jStr("k"), false, jUnknown()},
	}
	for _, c := range cases {
		got := jsCondCollection(c.recv, c.method, arg(c.a), c.prop)
		if got.ok != c.want.ok || got.k != c.want.k || got.b != c.want.b || got.s != c.want.s || got.d != c.want.d {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestJcvOfVal: the values a filter's element can be read as; text with a
// hole and a composite object are not known.
func TestJcvOfVal(t *testing.T) {
	x := &extractor{}
	if v := x.jcvOfVal(val{k: vNumber, reason: "3"}, 0); !v.isNumber() || v.d != 3 {
		t.Errorf("number: %+v", v)
	}
	if v := x.jcvOfVal(val{k: vBool, boolv: true}, 0); !v.ok || v.k != 'b' || !v.b {
		t.Errorf("bool: %+v", v)
	}
	if v := x.jcvOfVal(val{k: vNull}, 0); !v.nullish() {
		t.Errorf("null: %+v", v)
	}
	if v := x.jcvOfVal(val{k: vObject, n: none, parts: []val{{k: vObject}}}, 0); v.ok {
		t.Errorf("composite object read as known: %+v", v)
	}
	if v := x.jcvOfVal(unknown("x"), 0); v.ok {
		t.Errorf("unknown read as known: %+v", v)
	}
}
