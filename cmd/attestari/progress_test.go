package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// runDemo runs `attestari run --demo` with stderr's terminal answer given.
func runDemo(t *testing.T, terminal bool, args ...string) (string, string) {
	t.Helper()
	home := t.TempDir()
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb, terminal: func(io.Writer) bool { return terminal }, getenv: func(k string) string {
		switch k {
		case "ATTESTARI_HOME":
			return home
		case "ATTESTARI_DEMO_DIR":
			return "../../testdata/demo"
		}
		return ""
	}}
	if code := runMain(context.Background(), e, append([]string{"run", "--demo"}, args...)); code != 0 {
		t.Fatalf("run --demo exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

// TestRunProgressOnATerminal: a terminal gets the run's line and one line
// per stage, redrawn in place, and no log lines.
func TestRunProgressOnATerminal(t *testing.T) {
	_, errs := runDemo(t, true)
	if !strings.Contains(errs, "\x1b[") {
		t.Fatalf("no line redrawn in place:\n%q", errs)
	}
	for _, stage := range []string{"packages", "  fetch", "  surface", "  publisher_provenance", "  model_directed_text", "  gate"} {
		if !strings.Contains(errs, stage+" ") {
			t.Errorf("no progress line for %q:\n%s", stage, errs)
		}
	}
	if strings.Contains(errs, `"msg":`) || strings.Contains(errs, "msg=") {
		t.Errorf("log lines on a terminal:\n%s", errs)
	}
}

// TestRunProgressOffATerminal: elsewhere, structured logs: with
// --json-logs every line is a JSON object, and the run ends with one line
// per stage; with neither a terminal nor the flag, text logs, no bars.
func TestRunProgressOffATerminal(t *testing.T) {
	_, errs := runDemo(t, false, "--json-logs")
	stages := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON log line: %q", line)
		}
		if m["msg"] == "stage totals" {
			stages[m["stage"].(string)] = true
		}
	}
	for _, s := range []string{"fetch", "surface", "gate"} {
		if !stages[s] {
			t.Errorf("no stage totals line for %s:\n%s", s, errs)
		}
	}
	_, errs = runDemo(t, false)
	if strings.Contains(errs, "\x1b[") || !strings.Contains(errs, "msg=\"stage totals\" stage=fetch") {
		t.Errorf("off a terminal without --json-logs, want text logs and no bars:\n%s", errs)
	}
}
