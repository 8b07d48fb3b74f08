package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/killtest"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
)

// killChildEnv carries the child run's configuration to the re-executed
// test binary.
const killChildEnv = "ATTESTARI_PIPELINE_KILL_CHILD"

type killChildConfig struct {
	URL, Home, Candidates, RunID string
	// Hold is how many packages pass the hook; every later one blocks, so
	// the child is certain to be midway when it is killed.
	Hold  int32
	Delay time.Duration
}

// TestKillThenResume is the acceptance test: a run killed with
// SIGKILL midway, then resumed, writes the seven files of an uninterrupted
// run (timestamps and durations aside), and does not redo a package it had
// finished.
func TestKillThenResume(t *testing.T) {
	w := newWorld(t, 20, true)
	total := 26
	o := w.options(t)
	o.Concurrency = 2
	ref, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}

	cfg := killChildConfig{URL: w.srv.URL, Home: w.home, Candidates: w.cands, RunID: "killed-run", Hold: 9, Delay: 20 * time.Millisecond}
	env, _ := json.Marshal(cfg)
	child := killtest.Start(t, killtest.TestRun("TestHelperKilledRun"), killChildEnv+"="+string(env))
	dir := filepath.Join(w.home, "runs", cfg.RunID)

	// Kill it once it has finished a good part of the packages (more keep
	// going on the other worker), whenever that is.
	child.WaitUntil("7 finished packages", 5*time.Millisecond, func() bool { return len(packageFiles(t, dir)) >= 7 })
	child.Kill()

	if h := readHeader(t, dir); h.Status != rundir.StatusRunning || h.RunID != cfg.RunID {
		t.Fatalf("killed run's header %+v", h)
	}
	for _, name := range rundir.SevenFiles {
		if exists(filepath.Join(dir, name)) {
			t.Fatalf("killed run has %s", name)
		}
	}
	finished := packageFiles(t, dir)
	var finishedNames []string
	for _, name := range finished {
		var pf packageFile
		b, err := os.ReadFile(filepath.Join(dir, PackagesDir, name))
		if err != nil || json.Unmarshal(b, &pf) != nil {
			t.Fatalf("per-package file %s unreadable after kill: %v", name, err)
		}
		finishedNames = append(finishedNames, pf.Package.Name)
	}
	if len(finished) < 7 || len(finished) > int(cfg.Hold) {
		t.Fatalf("%d packages finished before the kill", len(finished))
	}

	o.CandidatesPath = ""
	o.Resume = cfg.RunID
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != rundir.StatusFinished || res.Carried != len(finished) || res.Examined != total-len(finished) {
		t.Fatalf("resumed %+v with %d finished before", res, len(finished))
	}
	want, got := seven(t, ref.Dir), seven(t, dir)
	for _, name := range rundir.SevenFiles {
		if want[name] != got[name] {
			t.Errorf("%s after kill and resume differs from the uninterrupted run:\n%s\n---\n%s", name, got[name], want[name])
		}
	}
	// Each finished package's tarball was fetched by the reference run and
	// by the child, never by the resume.
	for _, name := range finishedNames {
		if n := w.fake.Count(fakeregistry.NPMTarballPath(name, "1.0.0")); n != 2 {
			t.Errorf("%s: tarball fetched %d times, want 2 (reference run, killed run)", name, n)
		}
	}
}

// TestHelperKilledRun is the child of TestKillThenResume; run directly it
// does nothing.
func TestHelperKilledRun(t *testing.T) {
	env := os.Getenv(killChildEnv)
	if env == "" {
		return
	}
	var cfg killChildConfig
	if err := json.Unmarshal([]byte(env), &cfg); err != nil {
		t.Fatal(err)
	}
	o := optionsFor(t, cfg.URL, cfg.Home, cfg.Candidates)
	o.RunID = cfg.RunID
	o.Concurrency = 2
	var n atomic.Int32
	o.afterFetch = func(ctx context.Context, _ rundir.PackageRef) {
		if n.Add(1) > cfg.Hold {
			<-time.After(time.Hour)
		}
		time.Sleep(cfg.Delay)
	}
	_, err := Run(context.Background(), o)
	t.Fatalf("the child run was meant to be killed before it finished; it returned %v", err)
}
