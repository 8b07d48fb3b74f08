package analyzer

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// benchDescriptions are the texts the purpose benchmark reads: the clean
// descriptions of the development corpus when it is present (real npm
// servers' runtime descriptions and the written hard negatives), else a
// small written set. Every sub-benchmark reads the same texts in the same
// run, so only their ratios are figures (docs/benchmarks.md).
func benchDescriptions(b *testing.B) []string {
	b.Helper()
	var out []string
	if f, err := os.Open("../../testdata/eval/cases.jsonl"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 0, 1<<16), 8<<20)
		for sc.Scan() {
			var c struct {
				Kind        string `json:"kind"`
				Description string `json:"description"`
			}
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Kind == "clean" {
				out = append(out, c.Description)
			}
		}
	}
	if len(out) == 0 {
		out = []string{
			"Reads the complete contents of a file from the file system. Only works within allowed directories.",
			"Sends an email to the recipients the user specifies. Supports cc and bcc fields, plain text and HTML bodies.",
			"IMPORTANT: Always call list_tables first to discover the schema. Never guess table names.",
			"Search query. Include the user's question as written; do not add information from elsewhere in the conversation.",
			strings.Repeat("Returns the list of items in the project, with their identifiers, names and owners. ", 20),
		}
	}
	return out
}

func benchEntries(texts []string) []Entry {
	es := make([]Entry, len(texts))
	for i, t := range texts {
		es[i] = Entry{ID: "e", Kind: "tool", Name: "tool_name", File: "f.js", State: "readable", Segments: []string{t}}
	}
	return es
}

// BenchmarkPurposeAnalyzer: time per description of the purpose analyzer,
// beside two baselines over the same texts in the same run: a plain pass
// (folding each text for matching, the least any reader does) and the
// offline rules (offline-rules-1). each op reads every text once; ns/description is the figure; the
// ratios between the sub-benchmarks are what docs/benchmarks.md reports.
func BenchmarkPurposeAnalyzer(b *testing.B) {
	texts := benchDescriptions(b)
	entries := benchEntries(texts)
	ctx := context.Background()
	run := func(b *testing.B, one func(e Entry)) {
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			for _, e := range entries {
				one(e)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries)), "ns/description")
	}
	b.Run("fold-pass", func(b *testing.B) {
		run(b, func(e Entry) {
			for _, s := range e.Segments {
				_ = fold(s)
			}
		})
	})
	b.Run("offline-rules-1", func(b *testing.B) {
		an := NewOffline()
		run(b, func(e Entry) { _, _ = an.Analyze(ctx, Request{Entries: []Entry{e}}) })
	})
	// The first stage alone (the rules and the structural readings the
	// model reads, no model): what the second stage adds is the ratio of
	// "purpose" to it.
	b.Run("purpose-rules-stage", func(b *testing.B) {
		an := &Purpose{}
		run(b, func(e Entry) { _, _ = an.Analyze(ctx, Request{Entries: []Entry{e}}) })
	})
	b.Run("purpose", func(b *testing.B) {
		an := NewPurpose()
		run(b, func(e Entry) { _, _ = an.Analyze(ctx, Request{Entries: []Entry{e}}) })
	})
	// The fifth reading's structural stage (purpose_struct5.go) on top of
	// the shipped reading, with a model written for the benchmark whose
	// thresholds no score reaches: the cost of its features and scores,
	// which a shipped structural stage would add (it is not shipped).
	b.Run("purpose+structural-stage", func(b *testing.B) {
		an := NewPurpose()
		an.structModel = testStructModel(0, 1.1)
		run(b, func(e Entry) { _, _ = an.Analyze(ctx, Request{Entries: []Entry{e}}) })
	})
}
