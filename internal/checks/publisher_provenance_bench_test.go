package checks

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// The cost of publisher_provenance on a packument listing thousands of
// versions (issue 21): the maintainer-history tag reads every version's
// maintainers. Before a record kept its decoded values, each of those
// reads decoded the whole document again, so one package cost minutes;
// now each value is decoded once. The baseline, measured in the same run
// over the same bytes, is one decode of the whole document into generic
// values: the least any reader of it pays.
//
//	go test -run '^$' -bench 'ProvenanceManyVersions' -benchmem -count 3 ./internal/checks/
//
// Metric: x_decode, the check's time per op over the baseline's.

// benchVersions are the packument sizes measured: the ratio stays flat
// when the check's cost grows with the document, and grew with the square
// of the version count before.
var benchVersions = []int{300, 3000}

func BenchmarkProvenanceManyVersions(b *testing.B) {
	for _, n := range benchVersions {
		b.Run(fmt.Sprintf("%d", n), func(b *testing.B) { benchProvenance(b, n) })
	}
}

func benchProvenance(b *testing.B, versions int) {
	doc := manyVersionsPackument(versions, 2)
	in := manyVersionsInput(doc, fmt.Sprintf("1.0.%d", versions-1))
	ctx := context.Background()
	// The baseline, timed here rather than with testing.Benchmark, which
	// cannot run inside a running benchmark.
	const baseRuns = 5
	t0 := time.Now()
	for range baseRuns {
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			b.Fatal(err)
		}
	}
	base := time.Since(t0) / baseRuns
	b.SetBytes(int64(len(doc)))
	b.ResetTimer()
	for b.Loop() {
		rin := in
		rin.Records = append([]StoredRecord(nil), in.Records...) // a fresh tree each time, as each package gets
		res, _ := RunProvenance(ctx, rin)
		if res.Outcome == "" {
			b.Fatal("no result")
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(base.Nanoseconds()), "x_decode")
	b.ReportMetric(float64(base.Nanoseconds()), "decode_ns")
}
