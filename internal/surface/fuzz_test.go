package surface

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	ts "github.com/tree-sitter/go-tree-sitter"
	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
)

func readArchive(t testing.TB, p string) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// fuzzExtract runs the extractor over one hostile file (plus a package.json)
// and checks the invariants every surface keeps: an outcome from the fixed
// list, spans inside their file, states from the fixed list.
func fuzzExtract(t *testing.T, name string, src []byte) {
	fuzzExtractFiles(t, map[string][]byte{name: src})
}

// fuzzExtractFiles is fuzzExtract over several files of one package, for
// the shapes that need more than one module (import cycles).
func fuzzExtractFiles(t *testing.T, files map[string][]byte) {
	m := fstest.MapFS{
		"package.json": &fstest.MapFile{Data: []byte(`{"name":"fuzz","version":"1.0.0","main":"index.js"}`)},
	}
	for name, src := range files {
		m[name] = &fstest.MapFile{Data: src}
	}
	members, err := ClassifyFS(m)
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "fuzz", Version: "1.0.0"}, m, members,
		Options{WallBudget: 5 * time.Second, MaxVisited: 200_000})
	switch s.Outcome {
	case OutcomeParsed, OutcomeNotAServer, OutcomeMinifiedOnly, OutcomeRuntimeGenerated, OutcomeDeclarationNotParsed,
		OutcomeNoRegistrationSite, OutcomeExtractionBudgetExceeded:
	default:
		t.Fatalf("outcome %q", s.Outcome)
	}
	failOnRecoveredPanic(t, s)
	for _, e := range s.AllEntries() {
		switch e.DescriptionState {
		case StateReadable, StatePartial, StateUnreadable, StateAbsent:
		default:
			t.Fatalf("state %q", e.DescriptionState)
		}
		for _, sp := range e.Spans {
			src, ok := files[sp.File]
			if !ok || sp.Start < 0 || sp.End > len(src) || sp.Start > sp.End || sp.RawEnd > len(e.DescriptionRaw) {
				t.Fatalf("span %+v outside its file or text", sp)
			}
		}
	}
}

// failOnRecoveredPanic fails when the extractor recovered a panic of its
// own: safeEval turns one into a site that could not be read, which keeps
// the run alive but is still a bug (a real server's 18 tools once became
// declaration_not_parsed that way), so the fuzzer must see it.
func failOnRecoveredPanic(t *testing.T, s rundir.Surface) {
	t.Helper()
	for _, u := range s.Unresolved {
		if strings.Contains(u.Reason, reasonInternalError) {
			t.Fatalf("the extractor panicked and recovered: %s:%d %s", u.File, u.Line, u.Reason)
		}
	}
}

func seedFromGolden(f *testing.F, ext string) {
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			continue
		}
		for _, file := range a.Files {
			if strings.HasSuffix(file.Name, ext) {
				f.Add(file.Data)
			}
		}
	}
}

func FuzzExtractJS(f *testing.F) {
	seedFromGolden(f, ".js")
	seedFromGolden(f, ".ts")
	f.Add([]byte("server.tool(`a${b}`, [\"x\", 'y'].join(\"\\n\"), {...z}, () => {})"))
	f.Add([]byte("for (const t of T) for (const u of t) s.tool(u.n, u.d, f); const T = [[{n:'a',d:'b'}]];"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "index.js", src)
	})
}

func FuzzExtractPython(f *testing.F) {
	seedFromGolden(f, ".py")
	f.Add([]byte("@mcp.tool()\ndef a(x: int) -> str:\n    \"\"\"Doc \\N{EURO SIGN}.\"\"\"\n"))
	f.Add([]byte("mcp = FastMCP(\"x\", instructions=f\"a{b}c\")\nmcp.add_tool(fn, name='n', description=r'\\d')\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		fuzzExtract(t, "server.py", src)
	})
}

// benchCorpus is the source the benchmarks read: the golden cases' files,
// and, when ATTESTARI_BENCH_DIR names a directory of unpacked packages,
// their sources too.
func benchCorpus(b *testing.B) map[string][]byte {
	out := map[string][]byte{}
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a := readArchive(b, p)
		for _, f := range a.Files {
			if languageOf(f.Name) != "" {
				out[filepath.Base(p)+"/"+f.Name] = f.Data
			}
		}
	}
	if dir := os.Getenv("ATTESTARI_BENCH_DIR"); dir != "" {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && languageOf(p) != "" && !strings.Contains(p, "node_modules") {
				if src, err := os.ReadFile(p); err == nil {
					out[p] = src
				}
			}
			return nil
		})
	}
	return out
}

// BenchmarkParseOnly is tree-sitter parsing alone through go-tree-sitter's
// own API, over the same bytes BenchmarkExtract reads.
func BenchmarkParseOnly(b *testing.B) {
	corpus := benchCorpus(b)
	var total int64
	for _, src := range corpus {
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for name, src := range corpus {
			g := loadGrammars()[languageOf(name)]
			p := g.pool.Get().(*ts.Parser)
			tree := p.Parse(src, nil)
			tree.Close()
			g.pool.Put(p)
		}
	}
}

// BenchmarkParseString is tree-sitter parsing alone through the C API's
// contiguous-buffer entry point, the one the extractor itself uses; it is the
// stricter baseline (go-tree-sitter's Parse copies the input in callbacks).
func BenchmarkParseString(b *testing.B) {
	corpus := benchCorpus(b)
	var total int64
	for _, src := range corpus {
		total += int64(len(src))
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for name, src := range corpus {
			parseOnly(languageOf(name), src)
		}
	}
}

// BenchmarkExtract is the whole extraction over the same bytes, one package.
func BenchmarkExtract(b *testing.B) {
	corpus := benchCorpus(b)
	m := fstest.MapFS{}
	var total int64
	for name, src := range corpus {
		m[strings.TrimPrefix(name, "/")] = &fstest.MapFile{Data: src}
		total += int64(len(src))
	}
	members, err := ClassifyFS(m)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(total)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "bench", Version: "1"}, m, members, Options{})
	}
}
