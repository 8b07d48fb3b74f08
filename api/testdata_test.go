package api_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/rundir"
)

var update = flag.Bool("update", false, "rewrite testdata/manifest.json from the tool definitions below")

// helloTools are the tools of the example package as the extractor reads
// them from its source: echo declares a JSON literal schema (keys in another
// order than the wire), add a zod schema (source), debug no schema.
var helloTools = []rundir.Entry{
	{Kind: "tool", Name: "echo", DescriptionState: "readable", DescriptionRaw: "Echoes back a message with 'Hello' prefix",
		SchemaKind: "json", SchemaRaw: `{ "type": "object", "required": ["message"], "properties": { "message": { "description": "The message to echo", "type": "string" } } }`},
	{Kind: "tool", Name: "add", DescriptionState: "readable", DescriptionRaw: "Adds two numbers",
		SchemaKind: "source", SchemaRaw: `{ a: z.number(), b: z.number() }`},
	{Kind: "tool", Name: "debug", DescriptionState: "readable", DescriptionRaw: "Lists all available tools and methods", SchemaKind: "none"},
}

// helloManifest is the manifest the API serves for the example package,
// computed by internal/manifest exactly as a decision computes it.
func helloManifest() api.Manifest {
	att := manifest.Compute(&rundir.Surface{Outcome: "parsed", Tools: helloTools})
	m := api.Manifest{
		Stamps: api.Stamps{MethodologyVersion: "2.3.2", MethodologySHA256: "5d1c2f0b0c6e2a4a8f3d9b7e6c5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a",
			ExtractorVersion: "syntax-tree-4", DecidedAt: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), PublishedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)},
		Registry: "npm", Name: "@example/hello-server", Version: "1.0.0",
		ArtifactSHA256: "5b3f6e2e94db23c027dd1d0c4087d076c97aa9a3690161f5f01e4263144cf62f",
		Verdict:        "graded", Grade: ptr("A"), ManifestHash: ptr(att.ManifestHash), ToolCount: len(att.Tools),
	}
	for i, t := range att.Tools {
		m.Tools = append(m.Tools, api.ToolHash{Name: t.Name, DescriptionState: t.DescriptionState, Description: ptr(helloTools[i].DescriptionRaw),
			SchemaKind: t.SchemaKind, ToolHash: ptr(t.Hash)})
	}
	return m
}

func ptr(s string) *string { return &s }

func TestTestdataManifestIsCurrent(t *testing.T) {
	b, err := json.MarshalIndent(helloManifest(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	if *update {
		if err := os.WriteFile("testdata/manifest.json", b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b) {
		t.Fatal("testdata/manifest.json is stale: go test ./api -run TestTestdataManifestIsCurrent -update")
	}
}
