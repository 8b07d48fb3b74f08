package corpus

import (
	"strings"
	"testing"
)

// The CPU line counts only rows that carry a CPU figure, and is absent when
// none does (rows held to wall time).
func TestWriteCPUCost(t *testing.T) {
	var b strings.Builder
	writeCPUCost(&b, []Extracted{{CPUMs: 30}, {CPUMs: 10}, {WallMs: 5}, {CPUMs: 20}})
	if want := "CPU time per package (3 with a CPU figure): median 20 ms, p90 20 ms, max 30 ms.\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	b.Reset()
	writeCPUCost(&b, []Extracted{{WallMs: 5}})
	if b.Len() != 0 {
		t.Errorf("a line without CPU figures: %q", b.String())
	}
}
