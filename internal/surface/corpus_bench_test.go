package surface

import (
	"context"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/rundir"
)

// benchPackage is one package held in memory for the per-package
// benchmarks: its source members and the files the extractor reads beside
// them (package.json, manifests, README), with the archive reader's
// classification.
type benchPackage struct {
	name    string
	fsys    fstest.MapFS
	members []MemberInfo
	sources [][2]string // path, language of each parsed member
	bytes   int64
}

// benchPackages returns the packages the per-package benchmarks read: every
// golden case, and, when ATTESTARI_CORPUS_DIR names a directory of npm
// tarballs (scripts/corpus-fetch.sh fills $ATTESTARI_HOME/corpus), every
// tarball in it, read through the archive reader as the pipeline reads it.
func benchPackages(b *testing.B) []benchPackage {
	var out []benchPackage
	paths, _ := filepath.Glob(filepath.Join(goldenDir, "*.txtar"))
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			b.Fatal(err)
		}
		m := archiveFS(a)
		members, err := ClassifyFS(m)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, newBenchPackage(filepath.Base(p), m, members))
	}
	dir := os.Getenv("ATTESTARI_CORPUS_DIR")
	if dir == "" {
		return out
	}
	tgzs, _ := filepath.Glob(filepath.Join(dir, "*.tgz"))
	sort.Strings(tgzs)
	for _, p := range tgzs {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		a, err := artifact.Read(context.Background(), data, artifact.FormatNpmTarball, artifact.Limits{})
		if err != nil || a.Outcome != "ok" {
			continue // archive_unreadable: nothing is parsed
		}
		m := fstest.MapFS{}
		var members []MemberInfo
		for _, am := range a.Members {
			base := strings.ToLower(path.Base(am.Path))
			if languageOf(am.Path) == "" && base != "package.json" && base != "manifest.json" && base != "server.json" && !strings.HasPrefix(base, "readme") {
				continue
			}
			src, err := fs.ReadFile(a.FS, am.Path)
			if err != nil {
				continue
			}
			m[am.Path] = &fstest.MapFile{Data: src, Mode: 0o644}
			members = append(members, MemberInfo{Path: am.Path, SHA256: am.SHA256, Size: am.Size, Minified: am.Minified, Vendored: am.Vendored})
		}
		out = append(out, newBenchPackage(filepath.Base(p), m, members))
	}
	return out
}

func newBenchPackage(name string, m fstest.MapFS, members []MemberInfo) benchPackage {
	bp := benchPackage{name: name, fsys: m, members: members}
	for _, mi := range members {
		if lang := languageOf(mi.Path); lang != "" {
			bp.sources = append(bp.sources, [2]string{mi.Path, lang})
			bp.bytes += int64(len(m[mi.Path].Data))
		}
	}
	return bp
}

func benchBytes(pkgs []benchPackage) int64 {
	var n int64
	for _, p := range pkgs {
		n += p.bytes
	}
	return n
}

// BenchmarkPackagesExtract extracts every package, one at a time, as the
// pipeline does: one op is one pass over all of them.
func BenchmarkPackagesExtract(b *testing.B) {
	pkgs := benchPackages(b)
	b.SetBytes(benchBytes(pkgs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pkgs {
			Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: p.name, Version: "bench"}, p.fsys, p.members, Options{})
		}
	}
	b.ReportMetric(float64(len(pkgs)), "packages/op")
}

// BenchmarkPackagesParse is tree-sitter parsing alone over the same source
// members, through the same contiguous-buffer entry point the extractor
// uses: the baseline BenchmarkPackagesExtract is a ratio against.
func BenchmarkPackagesParse(b *testing.B) {
	pkgs := benchPackages(b)
	b.SetBytes(benchBytes(pkgs))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pkgs {
			for _, s := range p.sources {
				parseOnly(s[1], p.fsys[s[0]].Data)
			}
		}
	}
	b.ReportMetric(float64(len(pkgs)), "packages/op")
}

// BenchmarkPackagesNesting parses every source member and reports the
// deepest syntax tree met (max-nesting) beside the number of members: the
// figure MaxNesting's default is chosen against (methodology §5.2). Run it
// with -benchtime 1x over ATTESTARI_CORPUS_DIR.
func BenchmarkPackagesNesting(b *testing.B) {
	pkgs := benchPackages(b)
	deepest, files, where := 0, 0, ""
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pkgs {
			for _, s := range p.sources {
				pr, err := parseFile(s[1], p.fsys[s[0]].Data, time.Minute, 0)
				if err != nil {
					continue
				}
				files++
				if pr.maxDepth > deepest {
					deepest, where = pr.maxDepth, p.name+":"+s[0]
				}
			}
		}
	}
	b.ReportMetric(float64(deepest), "max-nesting")
	b.ReportMetric(float64(files/b.N), "files/op")
	b.Logf("deepest: %s (%d levels)", where, deepest)
}
