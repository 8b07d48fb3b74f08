package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

var (
	tarTime  = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	tarEpoch = time.Unix(0, 0)
)

// writeTruths writes synthetic truth files the way scripts/py_truth.py
// does, so the test reads them through LoadPyTruths like the evaluation.
func writeTruths(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEvaluatePython(t *testing.T) {
	dir := writeTruths(t, map[string]string{
		// fastmcp: the published text is the cleandoc reading.
		"fm@1.0.json": `{"name": "fm", "version": "1.0", "framework": "fastmcp", "outcome": "parsed",
			"tools": [
				{"name": "search", "description": "Search.\n\nReturns hits.", "description_from": "docstring",
				 "doc_source": "Search.\n\n    Returns hits.\n    ", "doc_py313": "Search.\n\nReturns hits.\n", "doc_cleandoc": "Search.\n\nReturns hits."},
				{"name": "fetch", "description": "Fetch a page.", "description_from": "keyword"},
				{"name": "dyn", "description": null},
				{"name": "jira_get_issue", "description": "Get an issue."}
			],
			"prompts": [{"name": "summarise", "description": ""}],
			"resources": [], "resource_templates": [], "review": {"status": "reviewed"}, "corrections": [{"op": "rename"}]}`,
		// a server whose truth is runtime_generated: only the outcome counts.
		"rt@2.0.json": `{"name": "rt", "version": "2.0", "framework": "sdk_fastmcp", "outcome": "runtime_generated",
			"tools": [], "prompts": [], "resources": [], "resource_templates": [], "review": {"status": "reviewed"}}`,
		// parsed in truth, not parsed by the extractor.
		"ll@0.1.json": `{"name": "ll", "version": "0.1", "framework": "lowlevel", "outcome": "parsed",
			"tools": [{"name": "get_time", "description": "Get the time."}], "prompts": [], "resources": [], "resource_templates": [],
			"review": {"status": "plain"}}`,
		// no row at all.
		"gone@1.json": `{"name": "gone", "version": "1", "framework": "lowlevel", "outcome": "parsed", "tools": [], "review": {"status": "plain"}}`,
	})
	truths, err := LoadPyTruths(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(truths) != 4 || truths[0].Key() != "fm@1.0" {
		t.Fatalf("loaded %d truths, first %q", len(truths), truths[0].Key())
	}
	surfaces := map[string]rundir.Surface{
		"fm@1.0": {Outcome: "parsed", Tools: []rundir.Entry{
			// The SDK's reading of the docstring where fastmcp publishes cleandoc: unequal, but another reading.
			entry("search", "readable", "Search.\n\nReturns hits.\n"),
			entry("fetch", "readable", "Fetch a page."),
			entry("dyn", "partial", "x"),                              // truth text unknown: not compared
			entry("get_issue", "readable", "Get an issue."),           // the bare name of a mounted tool
			{Kind: "tool", Name: "computed", NameState: "unreadable"}, // matches nothing, counts nowhere
		}, Prompts: []rundir.Entry{{Kind: "prompt", Name: "summarise", DescriptionState: "absent"}}},
		"rt@2.0": {Outcome: "runtime_generated"},
		"ll@0.1": {Outcome: "declaration_not_parsed", OutcomeDetail: "server.py:10"},
	}
	r := EvaluatePython(truths, surfaces)
	if r.Servers != 4 || r.WithSurface != 3 || r.OutcomeRight != 2 || r.BothParsed != 1 {
		t.Fatalf("population: servers %d with surface %d outcome right %d both parsed %d", r.Servers, r.WithSurface, r.OutcomeRight, r.BothParsed)
	}
	if got := r.Confusion[[2]string{"parsed", "declaration_not_parsed"}]; got != 1 {
		t.Errorf("confusion parsed→declaration_not_parsed = %d", got)
	}
	tc := r.Names["tool"]
	if tc.Truth != 4 || tc.Found != 4 || tc.Matched != 3 {
		t.Errorf("tool names = %+v, want truth 4 found 4 matched 3", tc)
	}
	if r.ComparableDescriptions != 2 || r.ReadableDescriptions != 2 || r.EqualDescriptions != 1 || r.OtherDocReading != 1 {
		t.Errorf("descriptions: comparable %d readable %d equal %d other reading %d", r.ComparableDescriptions, r.ReadableDescriptions, r.EqualDescriptions, r.OtherDocReading)
	}
	if pc := r.Names["prompt"]; pc.Truth != 1 || pc.Matched != 1 {
		t.Errorf("prompt names = %+v", pc)
	}
	kinds := map[string][]string{}
	for _, m := range r.Misses {
		kinds[m.Kind] = append(kinds[m.Kind], m.Package+" "+m.Name+" "+m.Detail)
	}
	for kind, want := range map[string]int{MissNoSurface: 1, MissOutcomeDiffers: 1, MissMissingName: 1, MissExtraName: 1, MissDescriptionDiff: 1} {
		if len(kinds[kind]) != want {
			t.Errorf("%s misses = %v, want %d", kind, kinds[kind], want)
		}
	}
	if d := strings.Join(kinds[MissDescriptionDiff], ""); !strings.Contains(d, "__doc__ as Python 3.13+") {
		t.Errorf("description miss does not name the other reading: %s", d)
	}
	if m := strings.Join(kinds[MissMissingName], ""); !strings.Contains(m, "jira_get_issue") {
		t.Errorf("missing names = %s", m)
	}
	md := r.Markdown(PyEvalHeader{Command: "make corpus-eval", ExtractorVersion: "x", Listed: 4, Extracted: 3}, truths, surfaces)
	for _, want := range []string{"| outcome equal to the truth's | 50.0% (2/4)", "tool-name recall, 1 servers parsed by both | 75.0% (3/4)", "| parsed | declaration_not_parsed | 1 |", "### gone@1", "| lowlevel | 2 | 0 |", "| sdk_fastmcp | 1 | 1 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

func TestLoadPyTruthsRefusesTruthWithoutOutcome(t *testing.T) {
	dir := writeTruths(t, map[string]string{"x@1.json": `{"name": "x", "version": "1", "tools": []}`})
	if _, err := LoadPyTruths(dir); !errors.Is(err, ErrInvalidList) {
		t.Fatalf("err = %v, want ErrInvalidList", err)
	}
}

func TestPyListValidate(t *testing.T) {
	ok := PyServer{Name: "a", Version: "1", Repo: "o/r", Commit: strings.Repeat("a", 40), Framework: FrameworkFastMCP}
	for name, mut := range map[string]func(*PyServer){
		"short commit": func(s *PyServer) { s.Commit = "abc" },
		"repo":         func(s *PyServer) { s.Repo = "r" },
		"subdir":       func(s *PyServer) { s.Subdir = "../x" },
		"framework":    func(s *PyServer) { s.Framework = "django" },
		"sha":          func(s *PyServer) { s.SHA256 = "zz" },
	} {
		s := ok
		mut(&s)
		l := PyList{Servers: []PyServer{s}}
		if err := l.Validate(); !errors.Is(err, ErrInvalidList) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	l := PyList{Servers: []PyServer{ok, ok}}
	if err := l.Validate(); !errors.Is(err, ErrInvalidList) {
		t.Errorf("duplicate: err = %v", err)
	}
	l = PyList{Servers: []PyServer{ok}}
	if err := l.Validate(); err != nil {
		t.Errorf("valid list: %v", err)
	}
}

func tarOf(t *testing.T, files [][2]string, extra func(*tar.Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f[0], Mode: 0o600, Size: int64(len(f[1])), Typeflag: tar.TypeReg, Uid: 1000, Uname: "dev", ModTime: tarTime}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte(f[1])); err != nil {
			t.Fatal(err)
		}
	}
	if extra != nil {
		extra(tw)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestPackSdistIsDeterministicAndSdistShaped(t *testing.T) {
	a := tarOf(t, [][2]string{{"src/pkg/server.py", "x = 1\n"}, {"pyproject.toml", "[project]\n"}, {"PKG-INFO", "stale"}}, func(tw *tar.Writer) {
		_ = tw.WriteHeader(&tar.Header{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"})
	})
	// Same files, other order, other owners and times: the same archive.
	b := tarOf(t, [][2]string{{"pyproject.toml", "[project]\n"}, {"src/pkg/server.py", "x = 1\n"}}, nil)
	pa, _, err := PackSdist(bytes.NewReader(a), "My.Server", "1.2.0")
	if err != nil {
		t.Fatal(err)
	}
	pb, _, err := PackSdist(bytes.NewReader(b), "My.Server", "1.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pa, pb) {
		t.Fatal("the same tree packed twice differs")
	}
	zr, err := gzip.NewReader(bytes.NewReader(pa))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" {
		t.Errorf("gzip header carries name %q time %v", zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Uid != 0 || h.Gid != 0 || h.Uname != "" || !h.ModTime.Equal(tarEpoch) || h.Mode != 0o644 {
			t.Errorf("%s: uid %d gid %d uname %q mtime %v mode %o", h.Name, h.Uid, h.Gid, h.Uname, h.ModTime, h.Mode)
		}
		if h.Name == "my_server-1.2.0/PKG-INFO" {
			body, _ := io.ReadAll(tr)
			if string(body) != "Metadata-Version: 2.1\nName: My.Server\nVersion: 1.2.0\n" {
				t.Errorf("PKG-INFO = %q", body)
			}
		}
	}
	want := []string{"my_server-1.2.0/PKG-INFO", "my_server-1.2.0/pyproject.toml", "my_server-1.2.0/src/pkg/server.py"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("members = %v, want %v (sorted, no link, one PKG-INFO)", names, want)
	}
}

func TestPyExtractAllChecksTheDigest(t *testing.T) {
	dir := t.TempDir()
	s := PyServer{Name: "a-b", Version: "1", SHA256: strings.Repeat("0", 64)}
	if err := os.WriteFile(PyArchivePath(dir, s), []byte("not the pinned bytes"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := PyServer{Name: "absent", Version: "2"}
	called := 0
	extract := func(context.Context, PyServer, []byte) rundir.Surface { called++; return rundir.Surface{} }
	_, gone, err := PyExtractAll(context.Background(), &PyList{Servers: []PyServer{missing, s}}, dir, extract)
	if !errors.Is(err, ErrArchiveMismatch) || called != 0 {
		t.Fatalf("err = %v, extract called %d times", err, called)
	}
	if len(gone) != 1 || gone[0] != "absent@2" {
		t.Errorf("missing = %v", gone)
	}
}

// The truth lists what a server lists under the default configuration: an
// entry off by default is on the surface but is neither a match nor an
// extra, and one whose condition holds or is unknown counts as listed.
func TestEvaluatePythonListedByDefault(t *testing.T) {
	dir := writeTruths(t, map[string]string{
		"cfg@1.0.json": `{"name": "cfg", "version": "1.0", "framework": "fastmcp", "outcome": "parsed",
			"tools": [{"name": "run_query", "description": "Run."}, {"name": "maybe", "description": "M."}],
			"prompts": [], "resources": [], "resource_templates": [], "review": {"status": "reviewed"}}`,
	})
	truths, err := LoadPyTruths(dir)
	if err != nil {
		t.Fatal(err)
	}
	off := entry("run_query", "readable", "Run restricted.")
	off.Conditions = []rundir.Condition{{File: "s.py", Line: 9, Test: "MODE == 'x'", When: false, Holds: rundir.HoldsFalse}}
	hidden := entry("admin", "readable", "Admin.")
	hidden.Conditions = []rundir.Condition{{File: "s.py", Line: 12, Test: "ADMIN", When: true, Holds: rundir.HoldsFalse}}
	maybe := entry("maybe", "readable", "M.")
	maybe.Conditions = []rundir.Condition{{File: "s.py", Line: 14, Test: "random()", When: true, Holds: rundir.HoldsUnknown}}
	surfaces := map[string]rundir.Surface{"cfg@1.0": {Outcome: "parsed", Tools: []rundir.Entry{
		off, entry("run_query", "readable", "Run."), hidden, maybe,
	}}}
	r := EvaluatePython(truths, surfaces)
	if n := r.Names["tool"]; n.Matched != 2 || n.Truth != 2 || n.Found != 2 {
		t.Fatalf("tool names %+v, want 2 of 2 matched with no extra", n)
	}
	if r.ReadableDescriptions != 2 || r.EqualDescriptions != 2 {
		t.Errorf("descriptions %d equal of %d: the off-by-default text was compared", r.EqualDescriptions, r.ReadableDescriptions)
	}
	// admin: off by default and not listed, no error; run_query's reading
	// off by default is not counted, another reading lists it.
	if o := r.OffByDefault["tool"]; o != (OffCounts{Unlisted: 1}) {
		t.Errorf("off by default %+v, want 1 unlisted", o)
	}
	for _, m := range r.Misses {
		t.Errorf("miss %+v", m)
	}
}

// A tool read off by default that the default start lists is an error (a
// recall miss of its own kind); a tool read as listed that the start does
// not list is an extra; one off by default and not listed is neither.
func TestEvaluatePythonOffByDefaultCounted(t *testing.T) {
	dir := writeTruths(t, map[string]string{
		"cfg@1.0.json": `{"name": "cfg", "version": "1.0", "framework": "fastmcp", "outcome": "parsed",
			"tools": [{"name": "ping", "description": "P."}, {"name": "read", "description": "R."}],
			"prompts": [], "resources": [], "resource_templates": [], "review": {"status": "reviewed"}}`,
	})
	truths, err := LoadPyTruths(dir)
	if err != nil {
		t.Fatal(err)
	}
	off := func(name string) rundir.Entry {
		e := entry(name, "readable", "X.")
		e.Conditions = []rundir.Condition{{File: "s.py", Line: 3, Test: "flag", When: true, Holds: rundir.HoldsFalse}}
		return e
	}
	surfaces := map[string]rundir.Surface{"cfg@1.0": {Outcome: "parsed", Tools: []rundir.Entry{
		entry("ping", "readable", "P."), off("read"), off("write"), off("delete"), entry("extra", "readable", "E."),
	}}}
	r := EvaluatePython(truths, surfaces)
	if n := r.Names["tool"]; n != (NameCounts{Truth: 2, Found: 2, Matched: 1}) {
		t.Errorf("tool names %+v, want 1 matched of 2, 2 found", n)
	}
	if o := r.OffByDefault["tool"]; o != (OffCounts{Unlisted: 2, Listed: 1}) {
		t.Errorf("off by default %+v, want 2 unlisted and 1 listed", o)
	}
	var got []string
	for _, m := range r.Misses {
		got = append(got, m.Kind+" "+m.Name)
	}
	if want := MissOffListed + " read," + MissExtraName + " extra"; strings.Join(got, ",") != want {
		t.Errorf("misses %q, want %q", got, want)
	}
	md := r.Markdown(PyEvalHeader{Command: "c", Date: time.Now()}, truths, surfaces)
	for _, want := range []string{"| tools read off by default that the truth does not list (no error) | 2 |", "| tools read off by default that the truth lists (recall misses) | 1 |", "| cfg@1.0 | fastmcp | parsed | parsed | 2 / 5 | 3 | reviewed |"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestEvaluatePythonParameterTexts compares parameter texts per tool and
// path: equal, differing, either side only, and paths one side did not read.
func TestEvaluatePythonParameterTexts(t *testing.T) {
	dir := writeTruths(t, map[string]string{
		"p@1.json": `{"name": "p", "version": "1", "framework": "sdk_fastmcp", "outcome": "parsed",
			"tools": [
				{"name": "a", "description": "", "parameters": [
					{"path": "q", "description": "The query."},
					{"path": "n", "description": "How many."},
					{"path": "f.x", "description": "Only the truth."},
					{"path": "g", "description": null, "unknown": "default not read"}
				]},
				{"name": "b", "description": "", "parameters": [{"path": "z", "description": "Zed."}]},
				{"name": "c", "description": ""}
			], "review": {"status": "plain"}}`,
	})
	truths, err := LoadPyTruths(dir)
	if err != nil {
		t.Fatal(err)
	}
	param := func(tool, path, state, text string) rundir.Entry {
		return rundir.Entry{Kind: "parameter_description", Parent: tool, Name: path, DescriptionState: state, DescriptionRaw: text}
	}
	surfaces := map[string]rundir.Surface{"p@1": {Outcome: "parsed",
		Tools: []rundir.Entry{entry("a", "absent", ""), entry("b", "absent", ""), entry("c", "absent", "")},
		ParameterDescriptions: []rundir.Entry{
			param("a", "q", "readable", "The query."),
			param("a", "n", "readable", "How many?"),       // differs
			param("a", "g.y", "readable", "under unknown"), // the truth did not read g: not compared
			param("a", "h[]", "readable", "Only the extractor."),
			param("b", "(schema)", "unreadable", ""),     // the extractor did not read b's schema
			param("c", "w", "readable", "no truth list"), // c's truth lists no parameters: not compared
			// the same tool name registered off by default (another partition): not listed, not compared
			{Kind: "parameter_description", Parent: "a", Name: "q", DescriptionState: "readable", DescriptionRaw: "Other partition.",
				Conditions: []rundir.Condition{{Holds: rundir.HoldsFalse}}},
		}}}
	r := EvaluatePython(truths, surfaces)
	want := ParamCounts{Tools: 2, Equal: 1, Differing: 1, ExtractorOnly: 1, TruthOnly: 1, UnknownTruth: 1, UnknownExtractor: 1}
	if r.Params != want {
		t.Errorf("params = %+v, want %+v", r.Params, want)
	}
	kinds := map[string]string{}
	for _, m := range r.Misses {
		kinds[m.Kind] += m.Name + "|"
	}
	if kinds[MissParamDiffers] != "a n|" || kinds[MissParamTruthOnly] != "a f.x|" || kinds[MissParamExtractorOnly] != "a h|" {
		t.Errorf("parameter misses = %v", kinds)
	}
	md := r.Markdown(PyEvalHeader{Command: "x"}, truths, surfaces)
	if !strings.Contains(md, "| parameter texts of 2 matched tools: equal / differing | 1 / 1 |") {
		t.Errorf("report lacks the parameter-text row:\n%s", md)
	}
}
