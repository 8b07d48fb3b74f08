package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/publish"
)

// TestPublishNowNeedsTheOverrideFlag: --now alone is refused with a message
// naming the flag and what it does, and writes nothing; with
// --override-disclosure-period the publication records the override and is
// not demo, while the demo cycle's own publication records both.
func TestPublishNowNeedsTheOverrideFlag(t *testing.T) {
	home := t.TempDir()
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string {
			switch k {
			case "ATTESTARI_HOME":
				return home
			case "ATTESTARI_DEMO_DIR":
				return "../../testdata/demo"
			}
			return ""
		}}
		code := runMain(context.Background(), e, args)
		return code, out.String(), errb.String()
	}
	if code, out, errs := run("cycle", "--demo", "--no-load", "--json-logs"); code != 0 {
		t.Fatalf("cycle --demo exit %d\n%s\n%s", code, out, errs)
	}
	pubsDir := filepath.Join(home, "publications")
	pubs, err := publish.List(pubsDir)
	if err != nil || len(pubs) != 1 {
		t.Fatalf("publications after the demo cycle: %d %v", len(pubs), err)
	}
	if h := pubs[0]; !h.Demo || !h.DisclosurePeriodOverridden {
		t.Errorf("the demo cycle's publication: demo %v, disclosure_period_overridden %v", h.Demo, h.DisclosurePeriodOverridden)
	}
	runs, err := pipeline.ListRuns(home)
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs: %v %v", runs, err)
	}
	at := time.Now().UTC().Add(40 * 24 * time.Hour).Format(time.RFC3339)

	code, out, errs := run("publish", "--now", at, "--no-load", runs[0].ID)
	if code != 2 || !strings.Contains(errs, "--override-disclosure-period") || !strings.Contains(errs, "skips the 30-day disclosure period") || !strings.Contains(errs, "Nothing was written") {
		t.Fatalf("--now without the override: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	if code, _, errs := run("publish", "--override-disclosure-period", "--no-load", runs[0].ID); code != 2 || !strings.Contains(errs, "goes with --now") {
		t.Fatalf("the override without --now: exit %d %s", code, errs)
	}
	if pubs, err := publish.List(pubsDir); err != nil || len(pubs) != 1 {
		t.Fatalf("a refused publish wrote something: %d publications, %v", len(pubs), err)
	}

	code, out, errs = run("publish", "--now", at, "--override-disclosure-period", "--no-load", runs[0].ID)
	if code != 0 || !strings.Contains(out, "DISCLOSURE PERIOD OVERRIDDEN") {
		t.Fatalf("--now with the override: exit %d\n%s\n%s", code, out, errs)
	}
	pubs, err = publish.List(pubsDir)
	if err != nil || len(pubs) != 2 {
		t.Fatalf("publications: %d %v", len(pubs), err)
	}
	var h publish.Header
	for _, p := range pubs {
		if !p.Demo {
			h = p
		}
	}
	if h.ID == "" || !h.DisclosurePeriodOverridden || !strings.Contains(h.DisclosureNote, at) || h.DemoNote != "" {
		t.Errorf("the overridden publication's header: %+v", h)
	}
}
