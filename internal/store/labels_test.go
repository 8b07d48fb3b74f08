package store_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store/storetest"
)

// labelledPublication is one package published as id of run, with the
// header's labels set as given, written to disk and read back, so the
// labels cross the publication format before they reach the database.
func labelledPublication(t *testing.T, id, run, name string, at time.Time, demo, overridden bool) *publish.Publication {
	t.Helper()
	p := storetest.Publication(id, run, at)
	p.Header.Demo, p.Header.DisclosurePeriodOverridden = demo, overridden
	p.Packages = append(p.Packages, storetest.Package("npm", name, "1.0.0", "graded", "A", nil,
		storetest.Tool("ping", "readable", "Answers pong.", "none", "")))
	dir := filepath.Join(t.TempDir(), id)
	if err := publish.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	back, err := publish.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestLabelsAreServed: a demo publication, one whose disclosure period was
// overridden, and a plain one each load, and every read that serves their
// rows (the list, the package, the manifest, the lookup, the runs) carries exactly their labels. A demo header that predates the
// override field (demo alone) is served as overridden too.
func TestLabelsAreServed(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	cases := []struct {
		id, run, name            string
		demo, overridden         bool
		wantDemo, wantOverridden bool
	}{
		{"pub-demo", "run-demo", "demo-server", true, true, true, true},
		{"pub-old-demo", "run-old-demo", "old-demo-server", true, false, true, true},
		{"pub-early", "run-early", "early-server", false, true, false, true},
		{"pub-plain", "run-plain", "plain-server", false, false, false, false},
	}
	for i, c := range cases {
		p := labelledPublication(t, c.id, c.run, c.name, t0.Add(time.Duration(i)*time.Hour), c.demo, c.overridden)
		if err := s.LoadPublication(ctx, p); err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
	}
	list, err := s.ListPackages(ctx, api.PackageFilter{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]api.Labels{}
	for _, it := range list.Items {
		listed[it.Name] = it.Labels
	}
	runs, err := s.ListRuns(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	byRun := map[string]api.Labels{}
	for _, r := range runs.Items {
		byRun[r.ID] = r.Labels
	}
	for _, c := range cases {
		want := api.Labels{Demo: c.wantDemo, DisclosurePeriodOverridden: c.wantOverridden}
		if got, ok := listed[c.name]; !ok || got != want {
			t.Errorf("%s in /packages: %+v (listed %v), want %+v", c.name, got, ok, want)
		}
		d, err := s.Package(ctx, "npm", c.name, "1.0.0")
		if err != nil || d.Labels != want {
			t.Errorf("%s package: %v %+v, want %+v", c.name, err, d, want)
		}
		m, err := s.Manifest(ctx, "npm", c.name, "1.0.0", "")
		if err != nil || m.Labels != want {
			t.Errorf("%s manifest: %v %+v, want %+v", c.name, err, m, want)
		}
		items, err := s.Lookup(ctx, []api.PackageKey{{Registry: "npm", Name: c.name, Version: "1.0.0"}, {Registry: "npm", Name: c.name, Version: "9.9.9"}})
		if err != nil || len(items) != 2 || !items[0].Found || items[0].Labels != want || items[1].Found || items[1].Labels.Labelled() {
			t.Errorf("%s lookup: %v %+v, want %+v", c.name, err, items, want)
		}
		if got, ok := byRun[c.run]; !ok || got != want {
			t.Errorf("run %s: %+v (listed %v), want %+v", c.run, got, ok, want)
		}
	}
}

// A run whose later publication is plain still says one of its
// publications was demo: the label belongs to the run's history.
func TestRunLabelledByAnyPublication(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	for _, p := range []*publish.Publication{
		labelledPublication(t, "pub-1", "run-1", "server", t0, true, true),
		labelledPublication(t, "pub-2", "run-1", "server", t0.Add(time.Hour), false, false),
	} {
		if err := s.LoadPublication(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := s.ListRuns(ctx, "", 10)
	if err != nil || len(runs.Items) != 1 || !runs.Items[0].Demo || !runs.Items[0].DisclosurePeriodOverridden {
		t.Fatalf("runs: %v %+v", err, runs)
	}
	// The package's current row is the plain publication's.
	d, err := s.Package(ctx, "npm", "server", "1.0.0")
	if err != nil || d.Labels.Labelled() {
		t.Fatalf("current row of the plain publication: %v %+v", err, d)
	}
}
