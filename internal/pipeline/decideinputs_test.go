package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// run.json records the decide inputs the run started with, and a resumed
// run keeps them: a decision reads what the machine was configured with when
// the run began, never what the resuming machine is.
func TestHeaderRecordsDecideInputs(t *testing.T) {
	w := newWorld(t, 2, false)
	o := w.options(t)
	o.DecideInputs = &rundir.DecideInputs{SharedHosts: []string{"mirror.test"}}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if h := readHeader(t, res.Dir); h.DecideInputs == nil || !slices.Equal(h.DecideInputs.SharedHosts, []string{"mirror.test"}) {
		t.Fatalf("decide inputs %+v", h.DecideInputs)
	}

	o.CandidatesPath, o.Resume = "", res.RunID
	o.DecideInputs = &rundir.DecideInputs{SharedHosts: []string{"elsewhere.test"}}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if h := readHeader(t, res.Dir); h.DecideInputs == nil || !slices.Equal(h.DecideInputs.SharedHosts, []string{"mirror.test"}) {
		t.Fatalf("after resume, decide inputs %+v", h.DecideInputs)
	}

	// A caller that records none writes no field: run.json is as before.
	o = w.options(t)
	o.RunID = "no-inputs"
	res, err = Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(res.Dir, rundir.HeaderFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "decide_inputs") {
		t.Errorf("run.json of a run without decide inputs:\n%s", b)
	}
}
