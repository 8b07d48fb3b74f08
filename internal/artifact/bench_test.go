package artifact

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"
	"testing"
)

// benchPackage builds a synthetic npm tarball shaped like a real MCP
// server: readable sources, a minified bundle, an esbuild bundle with
// vendored regions, bundled node_modules, a manifest. It returns the
// tarball and the sum of its members' sizes (the bytes both benchmarks
// report throughput over).
func benchPackage(tb testing.TB) ([]byte, int64) {
	tb.Helper()
	var entries []tarEntry
	add := func(name, body string) { entries = append(entries, tfile("package/"+name, body)) }
	add("package.json", `{"name":"bench-mcp","version":"1.0.0","type":"module","bin":{"bench-mcp":"dist/index.js"}}`)
	add("README.md", strings.Repeat("## Tools\n\nThis server exposes tools.\n\n", 50))
	for i := range 40 {
		var b strings.Builder
		fmt.Fprintf(&b, "import { z } from \"zod\";\nimport { server } from \"./server.js\";\n\n")
		for j := range 60 {
			fmt.Fprintf(&b, "server.tool(\"tool_%d_%d\", \"Reads record %d of table %d and returns it as JSON.\", { id: z.string() }, async ({ id }) => {\n", i, j, j, i)
			fmt.Fprintf(&b, "  return { content: [{ type: \"text\", text: JSON.stringify(await db.get(%d, id)) }] };\n});\n", j)
		}
		add(fmt.Sprintf("dist/tools/t%02d.js", i), b.String())
	}
	var min strings.Builder
	for i := range 40 {
		fmt.Fprintf(&min, "var a%d=function(){return %s};", i, strings.Repeat("x+1,", 500))
		min.WriteByte('\n')
	}
	add("dist/vendor.min.js", min.String())
	var esb strings.Builder
	for i := range 30 {
		fmt.Fprintf(&esb, "// node_modules/dep%d/lib/index.js\n", i)
		for j := range 40 {
			fmt.Fprintf(&esb, "var dep%d_%d = function(x) { return x * %d; };\n", i, j, j)
		}
		esb.WriteByte('\n')
	}
	esb.WriteString("// src/index.ts\nserver.connect();\n")
	add("dist/index.js", esb.String())
	for i := range 10 {
		add(fmt.Sprintf("node_modules/dep/lib/m%d.js", i), strings.Repeat("module.exports.f = function () { return 42; };\n", 60))
	}
	var size int64
	for _, e := range entries {
		size += int64(len(e.body))
	}
	return tgz(tb, entries...), size
}

// BenchmarkReadVerifyClassify is the artifact stage on a warm store: check
// the tarball against its hash (what evidence.Store.Get does), read every
// member into memory with the limits, hash each member and classify it.
func BenchmarkReadVerifyClassify(b *testing.B) {
	data, size := benchPackage(b)
	sum := sha256.Sum256(data)
	want := hex.EncodeToString(sum[:])
	ctx := context.Background()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		got := sha256.Sum256(data)
		if hex.EncodeToString(got[:]) != want {
			b.Fatal("hash mismatch")
		}
		a, err := Read(ctx, data, FormatNpmTarball, Limits{})
		if err != nil || a.Outcome != OutcomeOK {
			b.Fatalf("Read: %v %s", err, a.Reason)
		}
	}
}

// BenchmarkGunzipUntarBaseline is the floor the benchmark above is
// measured against: the same bytes gunzipped and untarred to io.Discard.
func BenchmarkGunzipUntarBaseline(b *testing.B) {
	data, size := benchPackage(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		tr := tar.NewReader(zr)
		for {
			_, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, err := io.Copy(io.Discard, tr); err != nil {
				b.Fatal(err)
			}
		}
	}
}

func TestBenchPackageShape(t *testing.T) {
	data, size := benchPackage(t)
	a := mustRead(t, data, FormatNpmTarball, Limits{})
	wantOK(t, a)
	if size < 200<<10 || size > 1<<20 {
		t.Fatalf("benchmark package is %d bytes; meant to be a few hundred KB", size)
	}
	min, _ := a.Member("dist/vendor.min.js")
	esb, _ := a.Member("dist/index.js")
	nm, _ := a.Member("node_modules/dep/lib/m0.js")
	if !min.Minified || len(esb.VendoredRegions) != 30 || !nm.Vendored {
		t.Fatalf("benchmark package does not exercise classification: %+v / %d regions / %+v", min.Classification, len(esb.VendoredRegions), nm.Classification)
	}
}
