package extractor

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/rundirtest"
	"github.com/attestari/attestari/internal/surface"
)

// tgz packs files as npm packs a tarball (rundirtest.TGZ).
func tgz(t testing.TB, files ...string) []byte { t.Helper(); return rundirtest.TGZ(t, files...) }

// TestSurfaceEndToEnd runs the real extractor over a served tarball: the
// surface row, its member blobs and the gate come out of one run.
func TestSurfaceEndToEnd(t *testing.T) {
	fake := fakeregistry.New()
	srv := httptest.NewServer(fake)
	defer srv.Close()
	fake.AddNPM("echo-mcp", "1.0.0", tgz(t,
		"package.json", `{"name":"echo-mcp","version":"1.0.0","main":"index.js","dependencies":{"@modelcontextprotocol/sdk":"^1.0.0","zod":"^3.0.0"}}`,
		"index.js", `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "echo", version: "1.0.0" });
server.tool("echo", "Echo the text back.", { text: z.string() }, async ({ text }) => ({ content: [{ type: "text", text }] }));
`,
		"vendor/lib/util.js", "module.exports = {};\n",
	), fakeregistry.NPMOptions{})

	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	if err := os.WriteFile(cands, []byte(`{"schema": "attestari.candidates/v1",
  "selection": {"queries": [], "ranking_rule": "test", "page_size": 0, "window": null, "fetched_at": [], "datasets": []},
  "candidates": [{"registry": "npm", "name": "echo-mcp", "version": "1.0.0", "rank": 1}], "excluded": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	npm, err := registry.NewNPM(srv.URL, registry.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	res, err := pipeline.Run(context.Background(), pipeline.Options{
		Home: home, CandidatesPath: cands, NPM: npm, Extractor: Surface{}, CodeCommit: "test",
	})
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if f.Header.ExtractorVersion != surface.ExtractorVersion || len(f.Surfaces) != 1 {
		t.Fatalf("header %q, %d surfaces", f.Header.ExtractorVersion, len(f.Surfaces))
	}
	s := f.Surfaces[0]
	if s.Outcome != "parsed" || len(s.Tools) != 1 || s.Tools[0].Name != "echo" || s.Tools[0].DescriptionRaw != "Echo the text back." ||
		s.ExtractorVersion != surface.ExtractorVersion || s.Package.Key() != "npm:echo-mcp@1.0.0" {
		t.Fatalf("surface %+v", s)
	}
	if !slices.ContainsFunc(s.Vendored, func(v rundir.Vendored) bool { return v.File == "vendor/lib/util.js" && v.Library == "lib" }) {
		t.Fatalf("vendored member not carried to the surface: %+v", s.Vendored)
	}
	store, err := evidence.Open(filepath.Join(home, "evidence"))
	if err != nil {
		t.Fatal(err)
	}
	for _, sf := range s.Files {
		if _, err := store.Get(context.Background(), sf.SHA256); err != nil {
			t.Errorf("member %s not in the store: %v", sf.Path, err)
		}
	}
	if len(f.Results) != 1 || f.Results[0].Outcome != "parsed" {
		t.Fatalf("results %+v", f.Results)
	}
	// The recorded gate is the policy's gate over the recorded rows (G3
	// recomputes exactly this at decision time).
	ok, reasons := policy.Gradeability(f.Results, &s, f.Findings)
	if g := f.Gradeable[0]; g.OK != ok || (len(reasons)+len(g.Reasons) > 0 && !slices.Equal(g.Reasons, reasons)) {
		t.Fatalf("gate %+v, policy says %v %v", g, ok, reasons)
	}
}
