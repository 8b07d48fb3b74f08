package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// TestPythonListElementChanged: a Python list literal's element the
// package replaces, or a list it changes in place, is not read
// (pypw_lists.go); until 2.3.17 `A[1] = …` and `A.reverse()` left the
// literal's element read. Twins: another index replaced, an append, a
// copy changed, another list.
func TestPythonListElementChanged(t *testing.T) {
	const head = "import time\nfrom mcp.server.fastmcp import FastMCP\nmcp = FastMCP(\"s\")\nA = [\"right\", \"b\"]\n"
	const reg = "\n@mcp.tool(description=A[0])\ndef t1() -> str:\n    return \"\"\n"
	for _, tc := range []struct {
		name, src string
		readable  bool
	}{
		{"nothing: read", ``, true},
		{"A[0] = : not read", `A[0] = str(time.time())`, false},
		{"A[i] = : not read", "for i in range(2):\n    A[i] = str(i)", false},
		{"A[-2] = : not read", `A[-2] = str(time.time())`, false},
		{"in a function: not read", "def patch():\n    A[0] = str(time.time())", false},
		{"reverse: not read", `A.reverse()`, false},
		{"sort: not read", `A.sort()`, false},
		{"insert at 0: not read", `A.insert(0, str(time.time()))`, false},
		{"pop(0): not read", `A.pop(0)`, false},
		{"A[1] = : read", `A[1] = str(time.time())`, true},
		{"append: read", `A.append(str(time.time()))`, true},
		{"a copy changed: read", "B = list(A)\nB.reverse()\nB[0] = 'x'", true},
		{"another list: read", "C = [\"x\"]\nC[0] = str(time.time())\nC.reverse()", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := capExtract(t, map[string]string{"p/__init__.py": "", "p/server.py": head + tc.src + "\n" + reg}, Options{})
			if len(s.Tools) != 1 {
				t.Fatalf("tools %+v, want t1", s.Tools)
			}
			e := s.Tools[0]
			if got := e.DescriptionState == vocab.StateReadable && e.DescriptionRaw == "right"; got != tc.readable {
				t.Errorf("description %s %q (%s), want readable %v", e.DescriptionState, e.DescriptionRaw, e.UnreadableReason, tc.readable)
			}
		})
	}
}

// TestPythonListReplacedInLoop: a list of tools read whole keeps a
// replaced element not read; until 2.3.17 the literal's element was
// listed beside one unknown element for the replacement. Twin: another
// index replaced keeps t1 read.
func TestPythonListReplacedInLoop(t *testing.T) {
	const head = "import time\nfrom mcp.server import Server\nfrom mcp.types import Tool\nclass S:\n    def __init__(self, name, description):\n        self.name = name\n        self.description = description\nSPECS = [S(\"t1\", \"right\"), S(\"t2\", \"two\")]\n"
	for _, tc := range []struct {
		name, src string
		readable  bool
	}{
		{"nothing: read", ``, true},
		{"SPECS[0] replaced: not read", `SPECS[0] = S("t1", str(time.time()))`, false},
		{"SPECS[1] replaced: read", `SPECS[1] = S("t2", str(time.time()))`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := capExtract(t, map[string]string{"p/__init__.py": "", "p/server.py": head + tc.src + "\n" + pyInstAttrServer}, Options{})
			read := false
			for _, e := range s.Tools {
				if e.Name == "t1" && e.DescriptionState == vocab.StateReadable && e.DescriptionRaw == "right" {
					read = true
				}
			}
			if read != tc.readable {
				t.Errorf("tools %+v, want t1 read %v", s.Tools, tc.readable)
			}
		})
	}
}
