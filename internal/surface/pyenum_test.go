package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// pyEnumHead is a FastMCP package registering one tool per name a case's
// loop reads: `reg(NAME)` adds a tool named NAME.
const pyEnumHead = "from fastmcp import FastMCP\nfrom fastmcp.tools import Tool\n" +
	"from enum import Enum, StrEnum, IntEnum, Flag, unique, auto, verify, UNIQUE\nimport os\n" +
	"app = FastMCP('s')\ndef fn():\n    pass\n"

// pyEnumCase is a package: the class (or classes) and the loop registering
// tools. tools are the readable names wanted, in order; reason, for a
// refusal, a substring of a recorded reason.
type pyEnumCase struct {
	name    string
	classes string
	loop    string
	tools   []string
	reason  string
}

const strKind = "class Kind(str, Enum):\n    ALPHA = 'alpha'\n    BETA = 'beta'\n"

func reg(expr string) string {
	return "    app.add_tool(Tool.from_function(fn, name=" + expr + ", description='d'))\n"
}

var pyEnumCases = []pyEnumCase{
	// Iteration: the members in the order written.
	{name: "for m in a str Enum, m.value", classes: strKind, loop: "for m in Kind:\n" + reg("m.value"), tools: []string{"alpha", "beta"}},
	{name: "for m in a str Enum, m bare", classes: strKind, loop: "for m in Kind:\n" + reg("m"), tools: []string{"alpha", "beta"}},
	{name: "for m in a str Enum, m.name", classes: strKind, loop: "for m in Kind:\n" + reg("m.name"), tools: []string{"ALPHA", "BETA"}},
	{name: "a list comprehension over the Enum", classes: strKind, loop: "for v in [m.value for m in Kind]:\n" + reg("v"), tools: []string{"alpha", "beta"}},
	{name: "StrEnum", classes: "class Kind(StrEnum):\n    A = 'a'\n    B = 'b'\n", loop: "for m in Kind:\n" + reg("m"), tools: []string{"a", "b"}},
	{name: "plain Enum read through .value", classes: "class Kind(Enum):\n    A = 'a'\n    B = 'b'\n", loop: "for m in Kind:\n" + reg("m.value"), tools: []string{"a", "b"}},
	{name: "an alias is left out of iteration", classes: "class Kind(str, Enum):\n    A = 'a'\n    B = 'b'\n    C = 'a'\n", loop: "for m in Kind:\n" + reg("m.name"), tools: []string{"A", "B"}},
	{name: "docstring, pass, comment, methods and @property beside members",
		classes: "class Kind(str, Enum):\n    '''Kinds.'''\n    # one\n    A = 'a'\n    pass\n    def describe(self):\n        return 'x'\n    @property\n    def label(self):\n        return 'y'\n    @classmethod\n    def all(cls):\n        return list(cls)\n",
		loop:    "for m in Kind:\n" + reg("m"), tools: []string{"a"}},
	{name: "@unique without aliases", classes: "@unique\nclass Kind(str, Enum):\n    A = 'a'\n    B = 'b'\n", loop: "for m in Kind:\n" + reg("m"), tools: []string{"a", "b"}},
	{name: "a base of the package without members", classes: "class Base(str, Enum):\n    def describe(self):\n        return 'x'\nclass Kind(Base):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m"), tools: []string{"a"}},

	// Iteration refused.
	{name: "negative: plain Enum member used bare is not a str", classes: "class Kind(Enum):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m"), reason: "not a str Enum"},
	{name: "negative: _missing_ defined", classes: strKind + "    @classmethod\n    def _missing_(cls, value):\n        return cls.ALPHA\n", loop: "for m in Kind:\n" + reg("m"), reason: "the Enum defines _missing_"},
	{name: "negative: __new__ defined", classes: strKind + "    def __new__(cls, v):\n        return str.__new__(cls, v + 'x')\n", loop: "for m in Kind:\n" + reg("m"), reason: "the Enum defines __new__"},
	{name: "negative: __init__ defined", classes: strKind + "    def __init__(self, *a):\n        pass\n", loop: "for m in Kind:\n" + reg("m"), reason: "the Enum defines __init__"},
	{name: "negative: a metaclass keyword", classes: "from p.meta import Meta\nclass Kind(str, Enum, metaclass=Meta):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m"), reason: "a class keyword (metaclass=)"},
	{name: "negative: IntEnum", classes: "class Kind(IntEnum):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m.value"), reason: "an Enum derived from IntEnum"},
	{name: "negative: Flag", classes: "class Kind(Flag):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m.value"), reason: "an Enum derived from Flag"},
	{name: "negative: a member from auto()", classes: "class Kind(StrEnum):\n    A = auto()\n", loop: "for m in Kind:\n" + reg("m"), reason: "not a string literal"},
	{name: "negative: a nested class in the body", classes: strKind + "    class Inner:\n        pass\n", loop: "for m in Kind:\n" + reg("m"), reason: "class_definition in the Enum body"},
	{name: "negative: an annotated name in the body", classes: strKind + "    GAMMA: str = 'gamma'\n", loop: "for m in Kind:\n" + reg("m"), reason: "an annotated name GAMMA"},
	{name: "negative: an underscore-named assignment (a member in 3.13)", classes: strKind + "    _hidden = 'h'\n", loop: "for m in Kind:\n" + reg("m"), reason: "underscore-named assignment _hidden"},
	{name: "negative: a member assigned twice", classes: strKind + "    ALPHA = 'again'\n", loop: "for m in Kind:\n" + reg("m"), reason: "assigned twice"},
	{name: "negative: a method under another decorator may be a member", classes: "from p.meta import deco\n" + strKind + "    @deco\n    def odd(self):\n        pass\n", loop: "for m in Kind:\n" + reg("m"), reason: "under the decorator deco"},
	{name: "negative: a class decorator other than unique", classes: "@verify(UNIQUE)\n" + strKind, loop: "for m in Kind:\n" + reg("m"), reason: "the decorator verify(UNIQUE)"},
	{name: "negative: @unique with an alias (the import raises)", classes: "@unique\nclass Kind(str, Enum):\n    A = 'a'\n    B = 'a'\n", loop: "for m in Kind:\n" + reg("m"), reason: "@unique Enum with an alias B"},
	{name: "negative: a base that holds members", classes: "class Base(str, Enum):\n    X = 'x'\nclass Kind(Base):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m"), reason: "base Base holds members"},
	{name: "negative: a mixin from another package", classes: "from other import Mixin\nclass Kind(str, Mixin, Enum):\n    A = 'a'\n", loop: "for m in Kind:\n" + reg("m"), reason: "a base Mixin that is not followed"},
	{name: "negative: an Enum imported from another package", classes: "from other import Kind\n", loop: "for m in Kind:\n" + reg("m.value"), reason: "loop over a value that is not resolved"},

	// Lookup by value.
	{name: "E(v) is the member with that value", classes: strKind, loop: "for v in ['beta', 'alpha']:\n" + reg("Kind(v)"), tools: []string{"alpha", "beta"}},
	{name: "E(v).name", classes: strKind, loop: "for v in ['beta']:\n" + reg("Kind(v).name"), tools: []string{"BETA"}},
	{name: "E(member) is the member", classes: strKind, loop: "for v in [Kind.ALPHA]:\n" + reg("Kind(v)"), tools: []string{"alpha"}},
	{name: "E(v) on an alias value is the first member", classes: "class Kind(str, Enum):\n    A = 'a'\n    C = 'a'\n", loop: "for v in ['a']:\n" + reg("Kind(v).name"), tools: []string{"A"}},
	{name: "a table keyed by members, looked up through E(v)", classes: strKind + "TABLE = {Kind.ALPHA: 'tool_a', Kind.BETA: 'tool_b'}\n", loop: "for v in ['alpha', 'beta']:\n" + reg("TABLE[Kind(v)]"), tools: []string{"tool_a", "tool_b"}},
	{name: "plain Enum E(v).value", classes: "class Kind(Enum):\n    A = 'a'\n", loop: "for v in ['a']:\n" + reg("Kind(v).value"), tools: []string{"a"}},

	// Lookup refused.
	{name: "negative: E(v) with a value no member has", classes: strKind, loop: "for v in ['gamma']:\n" + reg("Kind(v)"), reason: "no member of the Enum has the value \"gamma\""},
	{name: "negative: E(v) with a value computed at run time", classes: strKind, loop: "for v in ['a']:\n" + reg("Kind(os.environ['X'] + v)"), reason: "Enum looked up by a value that is not resolved"},
	{name: "negative: the functional API", classes: strKind, loop: "for v in ['a']:\n" + reg("Kind('K', 'alpha beta')"), reason: "other than one value"},
	{name: "negative: E(value=v)", classes: strKind, loop: "for v in ['alpha']:\n" + reg("Kind(value=v)"), reason: "other than one value"},
	{name: "negative: E(v) of a plain Enum used bare", classes: "class Kind(Enum):\n    A = 'a'\n", loop: "for v in ['a']:\n" + reg("Kind(v)"), reason: "not a str Enum"},
	{name: "negative: E(v) with _missing_", classes: strKind + "    @classmethod\n    def _missing_(cls, value):\n        return cls.ALPHA\n", loop: "for v in ['gamma']:\n" + reg("Kind(v)"), reason: "the Enum defines _missing_"},
	{name: "negative: E(v) of an Enum imported from another package", classes: "from other import Kind\n", loop: "for v in ['a']:\n" + reg("Kind(v)"), reason: "other.Kind"},
}

func TestPythonEnumReadWhole(t *testing.T) {
	for _, tc := range pyEnumCases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"p/__init__.py": "", "p/meta.py": "Meta = type\ndef deco(f):\n    return f\n",
				"p/server.py": pyEnumHead + tc.classes + tc.loop}
			s, _ := capExtract(t, files, Options{})
			checkPyReading(t, s, tc.tools, tc.reason)
		})
	}
}

// checkPyReading checks a reading's tools by name and its outcome: parsed
// when reason is empty, else refused with a recorded reason containing it.
func checkPyReading(t *testing.T, s rundir.Surface, tools []string, reason string) {
	t.Helper()
	checkNames(t, "tool", s.Tools, tools, func(e rundir.Entry) string { return e.Name })
	if reason == "" {
		if s.Outcome != vocab.OutcomeParsed {
			t.Fatalf("outcome %s (%s); unresolved %+v", s.Outcome, s.OutcomeDetail, s.Unresolved)
		}
		return
	}
	if s.Outcome == vocab.OutcomeParsed {
		t.Fatalf("outcome parsed, want a refusal containing %q", reason)
	}
	checkReason(t, s, reason)
}

// checkReason checks that a recorded reason of s contains reason.
func checkReason(t *testing.T, s rundir.Surface, reason string) {
	t.Helper()
	var all []string
	for _, u := range s.Unresolved {
		all = append(all, u.Reason)
	}
	if !strings.Contains(strings.Join(all, "\n"), reason) {
		t.Errorf("no recorded reason contains %q: %q", reason, all)
	}
}
