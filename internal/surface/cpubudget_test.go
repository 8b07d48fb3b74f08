package surface

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// cpuFiles is a small package the budget tests extract.
var cpuFiles = map[string]string{
	"package.json": `{"name":"x","version":"1.0.0","main":"index.js"}`,
	"index.js":     "fetch('https://a.example/');\n",
}

func cpuExtract(t *testing.T, opts Options) (outcome, detail string, cpuMs, cpuLimit, wallLimit int64) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range cpuFiles {
		fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(context.Background(), packageRefOf(fsys), fsys, members, opts)
	return s.Outcome, s.OutcomeDetail, s.Budget.CPUMs, s.Budget.CPUMsLimit, s.Budget.WallMsLimit
}

// jumpAfterFirst is a clock that reads base once, then base+jump.
func jumpAfterFirst[T any](base T, later T) func() T {
	n := 0
	return func() T {
		n++
		if n == 1 {
			return base
		}
		return later
	}
}

// Under a CPU clock the time part of the budget is CPU time: a clock that
// passes the CPU budget stops the extraction naming the CPU part, whatever
// the wall clock says, and the row carries the CPU time beside its limit.
func TestCPUBudgetRefusesOnCPUTime(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	outcome, detail, cpuMs, cpuLimit, _ := cpuExtract(t, Options{
		CPUTime: jumpAfterFirst(time.Second, time.Second+time.Hour), CPUBudget: time.Second,
		Now: func() time.Time { return t0 }})
	if outcome != vocab.OutcomeExtractionBudgetExceeded || detail != "CPU time passed the budget of 1s" {
		t.Errorf("outcome %s (%s), want %s on the CPU part", outcome, detail, vocab.OutcomeExtractionBudgetExceeded)
	}
	if cpuMs != time.Hour.Milliseconds() || cpuLimit != 1000 {
		t.Errorf("cpu_ms %d of %d, want %d of 1000", cpuMs, cpuLimit, time.Hour.Milliseconds())
	}
}

// Under a CPU clock with no wall backstop (the child's case: its parent
// holds the backstop), wall time passing is no refusal: a stalled machine
// says nothing about the package.
func TestCPUBudgetIgnoresWallTime(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	outcome, detail, cpuMs, cpuLimit, wallLimit := cpuExtract(t, Options{
		CPUTime: func() time.Duration { return time.Second },
		Now:     jumpAfterFirst(t0, t0.Add(24*time.Hour))})
	if outcome == vocab.OutcomeExtractionBudgetExceeded {
		t.Errorf("refused on wall time under a CPU clock: %s", detail)
	}
	if cpuMs != 0 || cpuLimit != DefaultCPUBudget.Milliseconds() || wallLimit != 0 {
		t.Errorf("cpu_ms %d of %d, wall limit %d; want 0 of %d, no wall limit", cpuMs, cpuLimit, wallLimit, DefaultCPUBudget.Milliseconds())
	}
}

// With a wall backstop in process (the CLI's case) the backstop stops the
// extraction and says that it is the backstop, with the CPU time used.
func TestCPUBudgetWallBackstop(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	outcome, detail, _, _, wallLimit := cpuExtract(t, Options{
		CPUTime: func() time.Duration { return time.Second }, CPUBudget: time.Minute, WallBudget: 10 * time.Minute,
		Now: jumpAfterFirst(t0, t0.Add(time.Hour))})
	if outcome != vocab.OutcomeExtractionBudgetExceeded || !strings.HasPrefix(detail, "wall time passed the backstop of 10m0s with 0s of CPU time used, under the CPU budget of 1m0s") {
		t.Errorf("outcome %s (%s), want the backstop", outcome, detail)
	}
	if wallLimit != (10 * time.Minute).Milliseconds() {
		t.Errorf("wall limit %d", wallLimit)
	}
}

// Without a CPU clock the wall budget is the time part, as before 2.3.11,
// and the row has no CPU figures (so it encodes as before).
func TestNoCPUClockKeepsWallBudget(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	outcome, detail, cpuMs, cpuLimit, wallLimit := cpuExtract(t, Options{Now: jumpAfterFirst(t0, t0.Add(time.Hour))})
	if outcome != vocab.OutcomeExtractionBudgetExceeded || detail != "wall time passed the budget of 1m0s" {
		t.Errorf("outcome %s (%s), want the wall budget", outcome, detail)
	}
	if cpuMs != 0 || cpuLimit != 0 || wallLimit != 60000 {
		t.Errorf("cpu_ms %d of %d, wall limit %d", cpuMs, cpuLimit, wallLimit)
	}
	if outcome, detail, _, _, _ := cpuExtract(t, Options{}); outcome == vocab.OutcomeExtractionBudgetExceeded {
		t.Errorf("control: refused within the budget: %s", detail)
	}
}
