package pipeline

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// feed plays a run of three packages, one of which fails its fetch, and a
// delegation target that joins it, into p.
func feed(p interface {
	Progress
	StageProgress
	JoinProgress
}) {
	p.Start("run-1", 3, 0)
	for _, k := range []string{"npm:a@1", "npm:b@1"} {
		p.StageFinished(k, vocab.StageFetch, StageOK, 20*time.Millisecond)
		p.StageFinished(k, vocab.StageSurface, StageOK, 100*time.Millisecond)
		p.StageFinished(k, vocab.StageGate, StageOK, time.Millisecond)
		p.PackageFinished(k, nil, 121*time.Millisecond)
	}
	p.StageFinished("npm:c@1", vocab.StageFetch, StageFailed, 10*time.Millisecond)
	p.PackageFinished("npm:c@1", nil, 10*time.Millisecond)
	p.Joined(1, 0)
	p.StageFinished("npm:d@1", vocab.StageFetch, StageOK, 20*time.Millisecond)
	p.StageFinished("npm:d@1", vocab.StageSurface, StageSkipped, 0)
	p.PackageFinished("npm:d@1", nil, 20*time.Millisecond)
	p.Finish("finished")
}

var cursorUp = regexp.MustCompile(`\x1b\[[0-9]+A`)

// TestStageBarsDrawOneLinePerStage: on a terminal the run's line and one
// line per stage, in the order a package meets them, are redrawn in place;
// the last drawing counts every stage's packages, its failures and skips.
func TestStageBarsDrawOneLinePerStage(t *testing.T) {
	var buf bytes.Buffer
	b := NewStageBars(&buf)
	clock := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	b.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	feed(b)
	out := buf.String()
	ups := cursorUp.FindAllStringIndex(out, -1)
	if len(ups) == 0 {
		t.Fatalf("the lines are never redrawn in place:\n%q", out)
	}
	last := out[ups[len(ups)-1][1]:] // the final drawing, after its cursor-up
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(last), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\r\x1b[2K"))
	}
	if len(lines) != 5 {
		t.Fatalf("final drawing has %d lines, want the run's, fetch, surface, gate and the status:\n%q", len(lines), last)
	}
	for i, want := range []string{"packages", vocab.StageFetch, vocab.StageSurface, vocab.StageGate} {
		if !strings.Contains(lines[i], want) {
			t.Errorf("line %d = %q, want %s", i, lines[i], want)
		}
	}
	if !strings.Contains(lines[0], "(4/4") {
		t.Errorf("run line %q: want 4/4 packages", lines[0])
	}
	if !strings.Contains(lines[1], "(4/4") || !strings.Contains(lines[1], "1 failed") {
		t.Errorf("fetch line %q: want 4/4, 1 failed", lines[1])
	}
	if !strings.Contains(lines[2], "(3/4") || !strings.Contains(lines[2], "1 skipped") {
		t.Errorf("surface line %q: want 3/4, 1 skipped", lines[2])
	}
	if !strings.HasPrefix(lines[4], "run run-1 finished: 4/4 packages") {
		t.Errorf("status line %q", lines[4])
	}
	if !strings.Contains(out, "\x1b[4A") {
		t.Error("the lines are not redrawn in place (no cursor-up over four lines)")
	}
}

// TestLogProgressLogsEachStage: off a terminal, JSON log lines: a debug
// line per package and stage, and at the end one line per stage with its
// counts.
func TestLogProgressLogsEachStage(t *testing.T) {
	var buf bytes.Buffer
	l := NewLogProgress(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	feed(l)
	totals := map[string]map[string]any{}
	perStage := 0
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q", line)
		}
		switch m["msg"] {
		case "stage finished":
			perStage++
		case "stage totals":
			totals[m["stage"].(string)] = m
		}
	}
	if perStage != 9 {
		t.Errorf("%d per-stage lines, want 9", perStage)
	}
	f := totals[vocab.StageFetch]
	if f == nil || f["packages"] != 4.0 || f["ok"] != 3.0 || f["failed"] != 1.0 {
		t.Errorf("fetch totals: %v", f)
	}
	if s := totals[vocab.StageSurface]; s == nil || s["packages"] != 3.0 || s["skipped"] != 1.0 || s["elapsed_ms"] != 200.0 {
		t.Errorf("surface totals: %v", s)
	}
	if len(totals) != 3 {
		t.Errorf("stage totals for %d stages, want 3: %v", len(totals), totals)
	}
}
