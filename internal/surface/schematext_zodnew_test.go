package surface

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// The golden case js_schematext_zod_new reads its classes as the package's
// own (the golden harness marks no bundled region): every new ZodObject(def)
// there stays unread. Here the same archive is extracted with the bundle's
// zod part marked as bundled third-party code, as the artifact classifier
// marks an esbuild bundle, so the classes are zod's and their defs are read.
func TestZodNewDefRead(t *testing.T) {
	a, err := txtar.ParseFile(filepath.Join(goldenDir, "js_schematext_zod_new.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	fsys := archiveFS(a)
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	src := fsys["dist/server.js"].Data
	first := bytes.Count(src[:bytes.Index(src, []byte("// src/server.ts"))], []byte("\n")) + 1
	for i := range members {
		if members[i].Path == "dist/server.js" {
			members[i].VendoredRegions = []VendoredRegion{{Library: "zod", StartLine: 1, EndLine: first - 1, Reason: "esbuild"}}
		}
	}
	s := Extract(context.Background(), packageRefOf(fsys), fsys, members, Options{WallBudget: time.Minute})
	got := paramTextsByTool(s)
	want := map[string]string{
		"empty":   "",
		"members": "q=readable:The query",
		"getter":  "(schema)=readable:An object|n=readable:A name",
		"params":  "(schema)=unreadable:parameter texts of the schema not read: zod class definition spread not resolved",
		"check":   "(schema)=unreadable:parameter texts of the schema not read: zod class definition's check not read",
		"opaque":  "(schema)=unreadable:parameter texts of the schema not read: zod class definition not resolved",
		"named":   "q=readable:Named query",
		"loud":    "(schema)=unreadable:parameter texts of the schema not read: zod class definition spread of a function whose result given no value is not read",
	}
	for tool, w := range want {
		g := strings.Join(got[tool], "|")
		if !strings.HasPrefix(g, w) || (w == "" && g != "") || strings.Contains(g, "Injected") {
			t.Errorf("%s: parameter entries %q, want %q", tool, g, w)
		}
	}
}

// paramTextsByTool lists each tool's parameter_description entries as
// name=state:text (name=unreadable:reason for one not read), in surface order.
func paramTextsByTool(s rundir.Surface) map[string][]string {
	got := map[string][]string{}
	for _, e := range s.AllEntries() {
		if e.Kind != KindParameterDescription {
			continue
		}
		v := e.Name + "=" + string(e.DescriptionState) + ":" + e.DescriptionRaw
		if e.DescriptionState == vocab.StateUnreadable {
			v = e.Name + "=" + string(e.DescriptionState) + ":" + e.UnreadableReason
		}
		got[e.Parent] = append(got[e.Parent], v)
	}
	return got
}
