package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/corpus"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/surface"
)

// minifiedScan is `attestari-probe minified-scan`: the measurement behind
// methodology §5.2's minified rule. It reads every source member of every
// tarball of the corpus list with the archive reader, measures each with
// surface.MeasureMinified, and writes a Markdown table of how each candidate
// rule classes the members (bundle or readable) and which packages' members
// change class against the line rule of 2.3.3. -members writes every
// member's figures as JSON lines.
func minifiedScan(ctx context.Context, args []string) error {
	home := dataHome()
	fs := flag.NewFlagSet("minified-scan", flag.ExitOnError)
	list := fs.String("list", "testdata/corpus/packages.json", "corpus list")
	dir := fs.String("dir", filepath.Join(home, "corpus"), "directory of fetched tarballs (scripts/corpus-fetch.sh)")
	out := fs.String("out", "", "Markdown report to write (stdout when empty)")
	members := fs.String("members", "", "JSON-lines file to write every member's figures into")
	_ = fs.Parse(args)
	l, err := corpus.LoadList(*list)
	if err != nil {
		return err
	}
	var rows []scanRow
	var unread []string
	for _, p := range l.Packages {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		data, err := os.ReadFile(corpus.TarballPath(*dir, p))
		if err != nil {
			return fmt.Errorf("minified-scan: %w", err)
		}
		a, err := pipeline.ReadArtifact(ctx, data, artifact.FormatNpmTarball, artifact.Limits{})
		if err != nil || a.Outcome != artifact.OutcomeOK {
			// The run records archive_unreadable for it; nothing is classed.
			unread = append(unread, p.Key())
			continue
		}
		for _, m := range a.Members {
			if m.Language == artifact.LanguageNone || m.Declaration {
				continue
			}
			src, ok := a.Bytes(m.Path)
			if !ok {
				continue
			}
			r := scanRow{Package: p.Key(), Path: m.Path, Vendored: m.Vendored, Bytes: len(src)}
			var regions []surface.VendoredRegion
			for _, r := range m.VendoredRegions {
				regions = append(regions, surface.VendoredRegion{Library: r.Library, StartLine: r.StartLine, EndLine: r.EndLine})
			}
			fig, err := surface.MeasureMinified(m.Path, src, regions, 5*time.Minute)
			if err != nil {
				r.Error = err.Error()
			}
			r.MinifiedFigures = fig
			rows = append(rows, r)
		}
	}
	if *members != "" {
		var b strings.Builder
		for _, r := range rows {
			j, _ := json.Marshal(r)
			b.Write(j)
			b.WriteByte('\n')
		}
		if err := os.WriteFile(*members, []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	md := scanMarkdown(rows, len(l.Packages), unread)
	if *out == "" {
		fmt.Print(md)
		return nil
	}
	return os.WriteFile(*out, []byte(md), 0o644)
}

type scanRow struct {
	Package  string `json:"package"`
	Path     string `json:"path"`
	Vendored bool   `json:"vendored,omitempty"`
	Bytes    int    `json:"bytes"`
	Error    string `json:"error,omitempty"`
	surface.MinifiedFigures
}

// scanRules are the candidate rules the measurement compares; the last is
// the rule of 2.3.4 (surface.MinifiedFigures.Bundle).
var scanRules = []struct {
	name, text string
	bundle     func(r scanRow) bool
}{
	{"line (2.3.3)", "longest line > 800 or average line > 200 bytes", func(r scanRow) bool { return r.LineRule() }},
	{"average", "average line > 200 bytes", func(r scanRow) bool { return r.AverageLine > 200 }},
	{"code lines", "line rule, and the longest line > 800 or the average > 200 bytes counting code bytes only (not strings, templates, regexes, JSX text, comments, vendored regions)", func(r scanRow) bool {
		return r.LineRule() && (r.CodeLongestLine > surface.PackedLineBytes || r.CodeAverageLine > 200)
	}},
	{"short identifiers", "line rule, and ≥ 30% of identifier tokens 1–2 characters or _0x…", func(r scanRow) bool {
		return r.LineRule() && r.ShortIdentifierShare() >= 0.30
	}},
	{"little space", "line rule, and < 8% of code bytes spaces or tabs", func(r scanRow) bool {
		return r.LineRule() && r.SpaceShare() < 0.08
	}},
	{"packed line", "line rule, and a code line > 800 bytes on which most of ≥ 10 separators have no whitespace after them", func(r scanRow) bool {
		return r.LineRule() && r.PackedLines > 0
	}},
	{"packed member", "line rule, and most of the member's ≥ 10 separators have no whitespace after them", func(r scanRow) bool {
		return r.LineRule() && r.Separators >= surface.PackedMinSeparators && 2*r.Tight > r.Separators
	}},
	{"mangled", "line rule, and ≥ 80% of ≥ 20 declared names 1–2 characters or _0x…", func(r scanRow) bool {
		return r.LineRule() && r.Mangled()
	}},
	{"2.3.4", "line rule, and packed (line or member), mangled, or a syntax error", func(r scanRow) bool {
		return r.Bundle()
	}},
}

func scanMarkdown(rows []scanRow, packages int, unread []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Minified rule measurement\n\n`attestari-probe minified-scan`: %d packages, %d source members (JavaScript, TypeScript, Python; declaration files left out).", packages, len(rows))
	if len(unread) > 0 {
		fmt.Fprintf(&b, " The archive reader refuses %d (archive_unreadable, no member classed): %s.", len(unread), strings.Join(unread, ", "))
	}
	b.WriteString("\n\n")
	b.WriteString("| rule | what it classes as a bundle | bundles | readable | packages with a bundle |\n|---|---|---:|---:|---:|\n")
	for _, rule := range scanRules {
		n, pk := 0, map[string]bool{}
		for _, r := range rows {
			if rule.bundle(r) {
				n++
				pk[r.Package] = true
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d |\n", rule.name, rule.text, n, len(rows)-n, len(pk))
	}
	b.WriteString("\nEvery member a rule classes differently from another (all are line-rule candidates):\n\n")
	b.WriteString("| package | member | bytes | lines | longest | average | code longest | code average | packed lines | tight separators | short names declared | short identifiers | spaces | syntax error |")
	for _, rule := range scanRules {
		b.WriteString(" " + rule.name + " |")
	}
	b.WriteString("\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for range scanRules {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	sorted := append([]scanRow(nil), rows...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].Package != sorted[j].Package {
			return sorted[i].Package < sorted[j].Package
		}
		return sorted[i].Path < sorted[j].Path
	})
	for _, r := range sorted {
		if !r.LineRule() {
			continue
		}
		same := true
		for _, rule := range scanRules[1:] {
			if rule.bundle(r) != scanRules[0].bundle(r) {
				same = false
			}
		}
		if same {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %.0f | %d | %.0f | %d/%d | %.0f%% | %.0f%% of %d | %.0f%% | %.0f%% | %v |", r.Package, r.Path, r.Bytes, r.Lines,
			r.LongestLine, r.AverageLine, r.CodeLongestLine, r.CodeAverageLine, r.PackedLines, r.LongCodeLines, 100*r.TightShare(),
			100*r.ShortBindingShare(), r.Bindings, 100*r.ShortIdentifierShare(), 100*r.SpaceShare(), r.SyntaxError)
		for _, rule := range scanRules {
			fmt.Fprintf(&b, " %s |", map[bool]string{true: "bundle", false: "readable"}[rule.bundle(r)])
		}
		b.WriteString("\n")
	}
	return b.String()
}
