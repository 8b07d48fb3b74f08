package surface

import (
	"fmt"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// pySelfRefCases are `x = g(x)`: a name read in its own assignment is the
// value before it, unless a loop can carry the assignment back to itself.
var pySelfRefCases = []pyEnumCase{
	{name: "x = x + [...] at the top of a function",
		loop: "def main():\n    names = ['a']\n    names = names + ['b']\n    for n in names:\n    " + reg("n") + "main()\n", tools: []string{"a", "b"}},
	{name: "x = g(x) under a flag, after a certain binding in the same loop body",
		loop:  "def keep(fs):\n    return [f for f in fs]\ndef main(flag=False):\n    for v in ['a', 'b']:\n        fs = [v + '_t']\n        if flag:\n            fs = keep(fs)\n        for n in fs:\n        " + reg("n") + "main()\n",
		tools: []string{"a_t", "b_t"}},
	{name: "the certain binding is a try whose handler leaves the iteration",
		loop:  "def get(v):\n    return [v]\ndef keep(fs):\n    return [f for f in fs]\ndef main(flag=False):\n    for v in ['a']:\n        try:\n            fs = get(v)\n        except KeyError:\n            continue\n        if flag:\n            fs = keep(fs)\n        for n in fs:\n        " + reg("n") + "main()\n",
		tools: []string{"a"}},
	{name: "negative: in a loop with no binding before it",
		loop:   "def keep(fs):\n    return [f for f in fs]\ndef main():\n    names = ['a']\n    for v in ['b']:\n        names = keep(names)\n    for n in names:\n    " + reg("n") + "main()\n",
		reason: "a loop may carry the value of names back to its own assignment"},
	{name: "negative: the try's handler does not leave the iteration",
		loop:   "def get(v):\n    return [v]\ndef keep(fs):\n    return [f for f in fs]\ndef main(flag=False):\n    fs = []\n    for v in ['a']:\n        try:\n            fs = get(v)\n        except KeyError:\n            pass\n        fs = keep(fs)\n        for n in fs:\n        " + reg("n") + "main()\n",
		reason: "a loop may carry the value of fs back"},
	{name: "negative: a global statement names it",
		loop:   "def keep(fs):\n    return [f for f in fs]\nnames = ['a']\ndef main():\n    global names\n    names = ['c']\nnames = keep(names)\nfor n in names:\n" + reg("n"),
		reason: "a global or nonlocal statement names names"},
	{name: "negative: a chained assignment",
		loop:   "def keep(fs):\n    return [f for f in fs]\ndef main():\n    names = ['a']\n    other = names = keep(names)\n    for n in names:\n    " + reg("n") + "main()\n",
		reason: "a chained assignment of names"},
}

func TestPythonSelfReferentAssignment(t *testing.T) {
	for _, tc := range pySelfRefCases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"p/__init__.py": "", "p/server.py": pyEnumHead + tc.loop}
			s, _ := capExtract(t, files, Options{})
			checkPyReading(t, s, tc.tools, tc.reason)
		})
	}
}

// A loop over a comprehension over an Enum, the comprehension read for
// every reference to the loop's variable: its items are read once per
// comprehension, so a wide Enum stays within a site's step limit.
func TestPythonComprehensionItemsReadOnce(t *testing.T) {
	var cls, table strings.Builder
	cls.WriteString("class Kind(str, Enum):\n")
	table.WriteString("TABLE = {")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&cls, "    K%d = 'k%d'\n", i, i)
		fmt.Fprintf(&table, "Kind.K%d: [('t%d_a', 'A.'), ('t%d_b', 'B.')], ", i, i, i)
	}
	table.WriteString("}\n")
	src := pyEnumHead + cls.String() + table.String() +
		"def main(apis=[k.value for k in Kind]):\n    for api in apis:\n        for name, description in TABLE[Kind(api)]:\n" +
		"            app.add_tool(Tool.from_function(fn, name=name, description=description))\nmain()\n"
	s, _ := capExtract(t, map[string]string{"p/__init__.py": "", "p/server.py": src}, Options{})
	if s.Outcome != vocab.OutcomeParsed || len(s.Tools) != 80 {
		t.Fatalf("outcome %s, %d tools, want parsed with 80; unresolved %+v", s.Outcome, len(s.Tools), s.Unresolved)
	}
}
