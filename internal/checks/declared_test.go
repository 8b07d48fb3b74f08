package checks

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

func TestNotAssessed(t *testing.T) {
	want := []string{"undeclared_network_calls", "dependency_risk", "abandonment", "fork_divergence"}
	got := NotAssessed()
	if len(got) != len(want) {
		t.Fatalf("%d declared checks", len(got))
	}
	for i, d := range got {
		if d.ID != want[i] || len(d.Inputs) == 0 || !strings.HasSuffix(d.Line, "not assessed.") {
			t.Errorf("%+v", d)
		}
		if !IsDeclaredNotRun(d.ID) {
			t.Errorf("%s", d.ID)
		}
	}
	for _, running := range []string{vocab.CheckProvenance, "undetermined_tool_surface", "model_directed_text"} {
		if IsDeclaredNotRun(running) {
			t.Errorf("%s is a check that runs", running)
		}
	}
	got[0].Inputs[0] = "changed"
	if NotAssessed()[0].Inputs[0] == "changed" {
		t.Fatal("NotAssessed shares its slices with callers")
	}
}
