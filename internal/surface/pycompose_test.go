package surface

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
	"golang.org/x/tools/txtar"
)

// erasOf names the fastmcp eras a package's metadata admits.
func erasOf(t *testing.T, files map[string]string) string {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, b := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(b)}
	}
	x := &extractor{}
	x.readPyRequirements(fsys)
	var names []string
	for _, e := range x.pyc.eras {
		names = append(names, e.name)
	}
	return strings.Join(names, "; ")
}

func TestPyRequirementEras(t *testing.T) {
	all := "fastmcp <2.0; fastmcp 2.0; fastmcp 2.1; fastmcp 2.2-2.3; fastmcp 2.4-2.8; fastmcp 2.9-2.13; fastmcp 2.14; fastmcp 3"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"none", map[string]string{"pyproject.toml": "[project]\nname = \"p\"\ndependencies = [\"mcp\"]\n"}, all},
		{"pep621 range", map[string]string{"pyproject.toml": "[project]\nname = \"p\"\ndependencies = [\n  \"httpx>=0.27\",\n  \"fastmcp>=3.2.4,<4.0.0\",  # pinned major\n]\n"}, "fastmcp 3"},
		{"upper bound exclusive", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=2.9,<2.14\"]\n"}, "fastmcp 2.9-2.13"},
		{"upper bound inclusive", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=2.13,<=2.14.0\"]\n"}, "fastmcp 2.9-2.13; fastmcp 2.14"},
		{"compatible release", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp~=2.3.4\"]\n"}, "fastmcp 2.2-2.3"},
		{"compatible release minor", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp~=2.10\"]\n"}, "fastmcp 2.9-2.13; fastmcp 2.14"},
		{"wildcard", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp==2.*\"]\n"}, "fastmcp 2.0; fastmcp 2.1; fastmcp 2.2-2.3; fastmcp 2.4-2.8; fastmcp 2.9-2.13; fastmcp 2.14"},
		{"pin", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp[auth]==2.8.1\"]\n"}, "fastmcp 2.4-2.8"},
		{"exclusion narrows nothing", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=2.14,!=3.0.0\"]\n"}, "fastmcp 2.14; fastmcp 3"},
		{"direct reference", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp@git+ssh://example.invalid/fastmcp.git\"]\n"}, all},
		{"extra only", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=3 ; extra == 'server'\"]\n"}, all},
		{"pkg-info in the sdist directory", map[string]string{"p-1.0/PKG-INFO": "Metadata-Version: 2.1\nName: p\nRequires-Dist: fastmcp (>=2.2.0,<2.4)\n"}, "fastmcp 2.2-2.3"},
		{"a subproject's metadata is not the package's", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=3\"]\n", "examples/pyproject.toml": "[project]\ndependencies = [\"fastmcp==2.0.0\"]\n"}, "fastmcp 3"},
		{"poetry caret", map[string]string{"pyproject.toml": "[tool.poetry.dependencies]\npython = \"^3.10\"\nfastmcp = \"^2.10.1\"\n"}, "fastmcp 2.9-2.13; fastmcp 2.14"},
		{"poetry table", map[string]string{"pyproject.toml": "[tool.poetry.dependencies]\nfastmcp = { version = \"~3.1\", extras = [\"x\"] }\n"}, "fastmcp 3"},
		{"another section's dependencies", map[string]string{"pyproject.toml": "[project]\nname = \"p\"\n[tool.other]\ndependencies = [\"fastmcp==2.0.0\"]\n"}, all},
		{"unreadable specifier admits everything", map[string]string{"pyproject.toml": "[project]\ndependencies = [\"fastmcp>=banana\"]\n"}, all},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := erasOf(t, tc.files); got != tc.want {
				t.Errorf("eras\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestPyVerSets(t *testing.T) {
	for _, tc := range []struct {
		spec, lo, hi string
		meets        bool
	}{
		{">=3.0", "2.14.0", "3.0.0", false},
		{">3.0", "3.0.0", "", true},
		{"<2.14", "2.14.0", "3.0.0", false},
		{"<=2.14", "2.14.0", "3.0.0", true},
		{"==2.13.0.2", "2.9.0", "2.14.0", true},
		{"==2.14.0rc1", "2.9.0", "2.14.0", false},
		{">=2.3.4,<2.4", "2.2.0", "2.4.0", true},
		{">=2.4,<2.4", "2.2.0", "", false},
	} {
		s, ok := parsePySpec(tc.spec)
		if !ok {
			t.Fatalf("%s: not parsed", tc.spec)
		}
		if got := s.meets(fmRange(tc.lo, tc.hi)); got != tc.meets {
			t.Errorf("%s meets [%s, %s): got %v, want %v", tc.spec, tc.lo, tc.hi, got, tc.meets)
		}
	}
	for _, bad := range []string{"2.0", "~=2", ">=2.*", ">=x"} {
		if _, ok := parsePySpec(bad); ok {
			t.Errorf("%q parsed; want it refused", bad)
		}
	}
	if got := poetrySpec("^0.4.1"); got != ">=0.4.1,<0.5" {
		t.Errorf("poetry ^0.4.1 = %s", got)
	}
}

func TestComposeEntry(t *testing.T) {
	inner := pyMount{tool: "l_", res: "l"}
	outer := pyMount{tool: "m_", res: "m"}
	chain := []pyMount{inner, outer}
	for _, tc := range []struct {
		in       rundir.Entry
		name     string
		parent   string
		uri, why string
	}{
		{in: rundir.Entry{Kind: KindTool, Name: "ping"}, name: "m_l_ping"},
		{in: rundir.Entry{Kind: KindTool, Name: "", NameState: vocab.StateUnreadable}, name: ""},
		{in: rundir.Entry{Kind: KindParameterDescription, Name: "x", Parent: "ping"}, name: "x", parent: "m_l_ping"},
		{in: rundir.Entry{Kind: KindPromptText, Name: "messages[0]", Parent: "ask"}, name: "messages[0]", parent: "m_l_ask"},
		{in: rundir.Entry{Kind: KindResource, Name: "s", URI: "data://status"}, name: "s", uri: "data://m/l/status"},
		{in: rundir.Entry{Kind: KindResourceTemplate, Name: "t", URI: "file:///{path}"}, name: "t", uri: "file://m/l//{path}"},
		{in: rundir.Entry{Kind: KindResource, Name: "s", URI: "status"}, why: "has no protocol://path form"},
		{in: rundir.Entry{Kind: KindResource, Name: "s", URI: ""}, why: "has no protocol://path form"},
	} {
		got, why := composeEntry(tc.in, chain)
		if tc.why != "" {
			if !strings.Contains(why, tc.why) {
				t.Errorf("%+v: reason %q, want one containing %q", tc.in, why, tc.why)
			}
			continue
		}
		if why != "" || got.Name != tc.name || got.Parent != tc.parent || got.URI != tc.uri {
			t.Errorf("%+v: got name %q parent %q uri %q (%s), want %q %q %q", tc.in, got.Name, got.Parent, got.URI, why, tc.name, tc.parent, tc.uri)
		}
	}
	if _, why := composeEntry(rundir.Entry{Kind: KindResource, URI: "a://b"}, []pyMount{{tool: "p_", resWhy: "not read"}}); why == "" {
		t.Error("a resource under a rule not read was composed")
	}
	if got, why := composeEntry(rundir.Entry{Kind: KindResource, URI: "a://b"}, []pyMount{{}}); why != "" || got.URI != "a://b" {
		t.Errorf("a mount without a prefix changed a URI: %q %q", got.URI, why)
	}
}

// extractFiles runs the extractor over a package given as files.
func extractFiles(t *testing.T, files map[string]string) rundir.Surface {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, b := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(b), Mode: 0o644}
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return Extract(context.Background(), packageRefOf(fsys), fsys, members, Options{WallBudget: time.Minute})
}

func toolNames(s rundir.Surface) []string {
	var out []string
	for _, e := range s.AllEntries() {
		if e.Kind == KindTool {
			out = append(out, e.Name)
		}
	}
	sort.Strings(out)
	return out
}

func evidenceWith(s rundir.Surface, part string) bool {
	for _, ev := range s.OutcomeEvidence {
		if strings.Contains(ev.Detail, part) {
			return true
		}
	}
	return false
}

// TestComposeBounds: a ring of mounts and a chain deeper than the nesting
// bound end as unread sites with their reason, never as bare or partly
// prefixed names, and a chain within the bound composes every prefix.
func TestComposeBounds(t *testing.T) {
	const pyproject = "[project]\nname = \"p\"\nversion = \"1\"\ndependencies = [\"fastmcp>=3\"]\n"
	chain := func(n int) string {
		var b strings.Builder
		b.WriteString("from fastmcp import FastMCP\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "s%d = FastMCP(\"s%d\")\n", i, i)
		}
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, "s%d.mount(s%d, namespace=\"p%d\")\n", i-1, i, i)
		}
		fmt.Fprintf(&b, "@s%d.tool\ndef leaf() -> str:\n    \"\"\"Leaf.\"\"\"\n    return \"\"\n", n-1)
		return b.String()
	}
	s := extractFiles(t, map[string]string{"pyproject.toml": pyproject, "server.py": chain(8)})
	if s.Outcome != vocab.OutcomeParsed || strings.Join(toolNames(s), ",") != "p1_p2_p3_p4_p5_p6_p7_leaf" {
		t.Errorf("chain of 8: %s %v %+v", s.Outcome, toolNames(s), s.OutcomeEvidence)
	}
	s = extractFiles(t, map[string]string{"pyproject.toml": pyproject, "server.py": chain(20)})
	if s.Outcome != vocab.OutcomeDeclarationNotParsed || len(toolNames(s)) != 0 || !evidenceWith(s, "more than 16 levels") {
		t.Errorf("chain of 20: %s %v %+v", s.Outcome, toolNames(s), s.OutcomeEvidence)
	}
	ring := "from fastmcp import FastMCP\na = FastMCP(\"a\")\nb = FastMCP(\"b\")\na.mount(b, namespace=\"b\")\nb.mount(a, namespace=\"a\")\n" +
		"@b.tool\ndef t() -> str:\n    \"\"\"T.\"\"\"\n    return \"\"\n"
	s = extractFiles(t, map[string]string{"pyproject.toml": pyproject, "server.py": ring})
	if s.Outcome != vocab.OutcomeDeclarationNotParsed || len(toolNames(s)) != 0 || !evidenceWith(s, "cycle") {
		t.Errorf("ring: %s %v %+v", s.Outcome, toolNames(s), s.OutcomeEvidence)
	}
	// A name bound to itself through an import cycle is unresolved, not a
	// crash: the receiver of the mount is not a server the extractor knows.
	cyc := map[string]string{
		"pyproject.toml": pyproject,
		"p/__init__.py":  "",
		"p/a.py":         "from p.b import srv\nfrom fastmcp import FastMCP\nsub = FastMCP(\"sub\")\nsrv.mount(sub, namespace=\"x\")\n@sub.tool\ndef t() -> str:\n    \"\"\"T.\"\"\"\n    return \"\"\n",
		"p/b.py":         "from p.a import srv\n",
	}
	s = extractFiles(t, cyc)
	if s.Outcome != vocab.OutcomeDeclarationNotParsed || len(toolNames(s)) != 0 || !evidenceWith(s, "not resolved") {
		t.Errorf("import cycle: %s %v %+v", s.Outcome, toolNames(s), s.OutcomeEvidence)
	}
}

// FuzzPythonCompose mutates a three-file package that composes servers,
// seeded with the composition golden cases: the requirement, the parent
// module and the sub-server module. No input may end the process or leave
// a recovered panic.
func FuzzPythonCompose(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "py_compose_*.txtar"))
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		var req, py []byte
		for _, file := range a.Files {
			switch {
			case strings.HasSuffix(file.Name, "pyproject.toml") || strings.HasSuffix(file.Name, "PKG-INFO"):
				req = file.Data
			case strings.HasSuffix(file.Name, ".py") && len(file.Data) > 0:
				if py == nil {
					py = file.Data
				} else {
					f.Add(req, py, file.Data)
				}
			}
		}
		f.Add(req, py, py)
	}
	f.Fuzz(func(t *testing.T, req, main, sub []byte) {
		fuzzExtractFiles(t, map[string][]byte{
			"pyproject.toml": req,
			"p/__init__.py":  nil,
			"p/main.py":      main,
			"p/sub.py":       sub,
		})
	})
}
