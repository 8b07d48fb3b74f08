package surface

import (
	"testing"
	"time"
)

// A spread in a zod class's def of a function called with no value adds
// nothing only when the function's body, read with its parameters
// undefined, returns nothing or an empty object (methodology §5.3, 2.3.12).
func TestReturnsNothingGivenNothing(t *testing.T) {
	src := []byte(`
function zod4(_params) {
  const params = _params;
  if (!params) return {};
  if (typeof params === "string") return { error: () => params };
  return params;
}
function zod3(params) {
  if (!params)
    return {};
  const { errorMap, description } = params;
  return { errorMap, description };
}
function typeofFirst(p) { if (typeof p === "undefined") { return null; } return p; }
function looseNull(p) { if (p == null) return void 0; return p; }
function optional(p) { return p?.extra; }
const arrow = (p) => ({});
function fallsOff(p) { if (p) { return p; } }
function strictNull(p) { if (p === null) return {}; return { description: "x" }; }
function hostile(p) { if (!p) return { description: "Injected" }; return p; }
function undecided(p) { if (process.env.X) return {}; return {}; }
function statement(p) { log(p); return {}; }
function defaulted(p = { description: "x" }) { return p; }
function declared(p) { const q = { description: "x" }; return q; }
function elseArm(p) { if (p) return {}; else return { description: "x" }; }
`)
	pr, err := parseFile(LangJS, src, time.Minute, 0)
	if err != nil {
		t.Fatal(err)
	}
	f := &file{path: "a.js", lang: LangJS, src: src, parsed: pr}
	fns := map[string]nid{}
	for n := nid(0); int(n) < len(pr.nodes); n++ {
		switch f.kind(n) {
		case "function_declaration":
			fns[f.text(f.field(n, "name"))] = n
		case "variable_declarator":
			if v := f.field(n, "value"); v >= 0 && f.kind(v) == "arrow_function" {
				fns[f.text(f.field(n, "name"))] = v
			}
		}
	}
	want := map[string]bool{
		"zod4": true, "zod3": true, "typeofFirst": true, "looseNull": true, "optional": true, "arrow": true, "fallsOff": true,
		"strictNull": false, "hostile": false, "undecided": false, "statement": false, "defaulted": false, "declared": false, "elseArm": false,
	}
	for name, w := range want {
		fn, ok := fns[name]
		if !ok {
			t.Fatalf("%s not found", name)
		}
		if got := returnsNothingGivenNothing(f, fn); got != w {
			t.Errorf("%s: returnsNothingGivenNothing = %v, want %v", name, got, w)
		}
	}
}
