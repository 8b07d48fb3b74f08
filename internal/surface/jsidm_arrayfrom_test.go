package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// Array.from with a mapping function is the list of the function's results
// over the source's elements, or over 0 … N-1 for { length: N } written at
// the call; every other form stays unread.
func TestJSArrayFromMapped(t *testing.T) {
	read := []struct{ name, decls, expr, want string }{
		{"length and index into a table", "const NAMES = ['alpha', 'beta', 'gamma'];\nconst L = Array.from({ length: 3 }, (_, i) => NAMES[i]);", "L.join(', ')", "alpha, beta, gamma"},
		{"length from a constant", "const N = 2;\nconst L = Array.from({ length: N }, () => 'Row.');", "L.join(' ')", "Row. Row."},
		{"mapped array", "const L = Array.from(['a', 'b'], (s) => s + '!');", "L.join('')", "a!b!"},
		{"mapped set", "const L = Array.from(new Set(['x', 'y']), (s, i) => s);", "L.join('-')", "x-y"},
		{"Array declared by the package is its own function", "const Array = { from: (a, f) => ['shadow'] };\nconst L = Array.from(['a'], (s) => s);", "L.join(' ')", "shadow"},
		{"length zero", "const L = Array.from({ length: 0 }, () => 'never');", "'Start.' + L.join('')", "Start."},
	}
	for _, c := range read {
		t.Run(c.name, func(t *testing.T) {
			state, raw, reason := idmTool(t, c.decls, c.expr)
			if state != vocab.StateReadable || raw != c.want {
				t.Fatalf("%s %q (%s), want readable %q", state, raw, reason, c.want)
			}
		})
	}
	refused := []struct{ name, decls, expr string }{
		{"length from the environment", "const L = Array.from({ length: Number(process.env.N) }, () => 'Row.');", "L.join(' ')"},
		{"length from a variable assigned twice", "let N = 1;\nN = 3;\nconst L = Array.from({ length: N }, () => 'Row.');", "L.join(' ')"},
		{"length object not written at the call", "const LEN = { length: 2 };\nconst L = Array.from(LEN, () => 'Row.');", "L.join(' ')"},
		{"length over the bound", "const L = Array.from({ length: 5000 }, () => 'Row.');", "L.join(' ')"},
		{"length not an integer", "const L = Array.from({ length: 2.5 }, () => 'Row.');", "L.join(' ')"},
		{"array-like with elements", "const L = Array.from({ length: 1, 0: 'a' }, (s) => s);", "L.join(' ')"},
		{"this argument", "const L = Array.from(['a'], function (s) { return this.p + s; }, { p: 'x' });", "L.join(' ')"},
		{"callback of another package", "import { fmt } from 'other-pkg';\nconst L = Array.from(['a'], fmt);", "L.join(' ')"},
		{"source of another package", "import { items } from 'other-pkg';\nconst L = Array.from(items, (s) => s);", "L.join(' ')"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			state, raw, reason := idmTool(t, c.decls, c.expr)
			if state == vocab.StateReadable || state == vocab.StateAbsent {
				t.Fatalf("%s %q, want not read (reason %q)", state, raw, reason)
			}
		})
	}
}
