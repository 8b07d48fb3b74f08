package publish

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/killtest"
	"github.com/attestari/attestari/internal/policy"
)

// killChildEnv carries the child's configuration to the re-executed test binary.
const killChildEnv = "ATTESTARI_PUBLISH_KILL_CHILD"

type killChildConfig struct {
	RunDir, Home, Blobs string
	Now                 time.Time
	// Marker is written when the child is midway through Write; the child
	// then blocks until it is killed.
	Marker string
}

// TestHelperKilledPublish is the child: it publishes and blocks inside
// Write, after packages.json is in the temporary directory.
func TestHelperKilledPublish(t *testing.T) {
	raw := os.Getenv(killChildEnv)
	if raw == "" {
		return // only ever run as the child of TestKillDuringPublication
	}
	var cfg killChildConfig
	if err := json.Unmarshal([]byte(raw), &cfg); err != nil {
		t.Fatal(err)
	}
	writeStep = func(name string) error {
		if name == PackagesFile {
			if err := os.WriteFile(cfg.Marker, nil, 0o644); err != nil {
				return err
			}
			select {} // wait for SIGKILL
		}
		return nil
	}
	_, err := Publish(context.Background(), Options{RunDir: cfg.RunDir, Home: cfg.Home, Blobs: policy.DirBlobs(cfg.Blobs), Now: func() time.Time { return cfg.Now }})
	t.Fatalf("the child was not killed: %v", err)
}

// TestKillDuringPublication: a publisher killed with SIGKILL midway through
// writing leaves the earlier publication exactly as it was and nothing at the
// new address; the next publication succeeds.
func TestKillDuringPublication(t *testing.T) {
	r := standardRun(t)
	r.decideAndNotice()
	first := r.publish(day31)
	before := snapshot(t, first.Dir)

	blobs := filepath.Join(t.TempDir(), "blobs")
	if err := os.MkdirAll(blobs, 0o755); err != nil {
		t.Fatal(err)
	}
	for sha, b := range r.blobs {
		if err := os.WriteFile(filepath.Join(blobs, sha), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := killChildConfig{RunDir: r.dir, Home: r.home(), Blobs: blobs, Now: day31.Add(time.Hour), Marker: filepath.Join(t.TempDir(), "midway")}
	env, _ := json.Marshal(cfg)
	child := killtest.Start(t, killtest.TestRun("TestHelperKilledPublish"), killChildEnv+"="+string(env))
	child.WaitUntil("the middle of Write", 5*time.Millisecond, killtest.Exists(cfg.Marker))
	// While the child lives, its temporary directory is its own, however old.
	if n, err := RemoveStaleTemps(context.Background(), r.home(), StaleTempAge, time.Now().Add(2*StaleTempAge)); err != nil || n != 0 {
		t.Fatalf("a live publisher's temporary directory was removed: %d %v", n, err)
	}
	child.Kill()

	// The kill left Write's temporary directory, half written, and nothing
	// at the new publication's address.
	ents, err := os.ReadDir(r.home())
	if err != nil {
		t.Fatal(err)
	}
	var tmp, pubs []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			tmp = append(tmp, e.Name())
		} else {
			pubs = append(pubs, e.Name())
		}
	}
	if len(tmp) != 1 || len(pubs) != 1 || pubs[0] != first.ID {
		t.Fatalf("after the kill: publications %v, temporary %v", pubs, tmp)
	}
	if _, err := os.Stat(filepath.Join(r.home(), tmp[0], PackagesFile)); err != nil {
		t.Errorf("the child was not midway: %v", err)
	}
	hs, err := List(r.home())
	if err != nil || len(hs) != 1 || hs[0].ID != first.ID {
		t.Fatalf("list after the kill: %v %+v", err, hs)
	}
	after := snapshot(t, first.Dir)
	if len(after) != len(before) {
		t.Fatalf("the earlier publication has %d files, had %d", len(after), len(before))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Errorf("the earlier publication's %s changed", name)
		}
	}
	if _, err := Read(first.Dir); err != nil {
		t.Errorf("the earlier publication does not read whole: %v", err)
	}
	second := r.publish(day31.Add(2 * time.Hour))
	if second.ID != first.ID+".2" || second.Supersedes != first.ID {
		t.Errorf("after the kill: %s supersedes %q", second.ID, second.Supersedes)
	}
	// The next publish removed what the killed one left.
	if _, err := os.Stat(filepath.Join(r.home(), tmp[0])); !os.IsNotExist(err) {
		t.Errorf("the killed publisher's temporary directory %s is still there: %v", tmp[0], err)
	}
}

// TestRemoveStaleTempDirs: only old, unlocked directories named as Write
// names its temporary directories go; a fresh one, a locked one, a
// publication and a file are left.
func TestRemoveStaleTempDirs(t *testing.T) {
	home := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * StaleTempAge)
	mk := func(name string, mtime time.Time) string {
		t.Helper()
		p := filepath.Join(home, name)
		if err := os.MkdirAll(filepath.Join(p, EvidenceDir), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(".tmp-run-1-old", old)
	mk(".tmp-run-1-fresh", now)
	mk("run-1", old)
	held := mk(".tmp-run-1-held", old)
	if err := os.WriteFile(filepath.Join(home, ".tmp-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(held, old, old); err != nil {
		t.Fatal(err)
	}
	lock, err := lockDir(held)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	n, err := RemoveStaleTemps(context.Background(), home, StaleTempAge, now)
	if err != nil || n != 1 {
		t.Fatalf("removed %d (%v), want 1", n, err)
	}
	ents, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if want := []string{".tmp-file", ".tmp-run-1-fresh", ".tmp-run-1-held", "run-1"}; !slices.Equal(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
}
