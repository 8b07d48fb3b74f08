package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
)

// TestPullThenDecide: a finished run put into a store that is not the
// home's own (a file:// store elsewhere; the S3 case is
// internal/queue's TestFinishedRunPulledFromS3) is pulled into an empty
// home byte for byte and decided there; a run the store lacks is refused
// with what to do.
func TestPullThenDecide(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "run")
	copyDir(t, "../../analysis/fixtures/reason_codes/partial_description", src)
	if err := os.WriteFile(filepath.Join(src, pipeline.CandidatesCopy), []byte("{\"candidates\": []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	storeDir := t.TempDir()
	store, err := evidence.Open(storeDir)
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := os.ReadDir(filepath.Join(src, "evidence", "blobs"))
	if err != nil || len(blobs) == 0 {
		t.Fatalf("fixture blobs: %d, %v", len(blobs), err)
	}
	for _, b := range blobs {
		data, err := os.ReadFile(filepath.Join(src, "evidence", "blobs", b.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Put(ctx, data); err != nil {
			t.Fatal(err)
		}
	}
	id, err := pipeline.PutRunObjects(ctx, store, src)
	if err != nil {
		t.Fatal(err)
	}

	home := t.TempDir()
	vars := map[string]string{"ATTESTARI_HOME": home, evstore.EnvURL: "file://" + storeDir}
	cli := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}
		return runMain(ctx, e, args), out.String(), errb.String()
	}
	if code, out, errs := cli("pull", id); code != 0 || !strings.Contains(out, "pulled") {
		t.Fatalf("pull: exit %d\n%s\n%s", code, out, errs)
	}
	for _, name := range pipeline.RunObjectNames() {
		want, _ := os.ReadFile(filepath.Join(src, name))
		got, err := os.ReadFile(filepath.Join(home, "runs", id, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: pulled bytes differ from the run's (%v)", name, err)
		}
	}
	code, out, errs := cli("decide", "--json", id)
	if code != 0 {
		t.Fatalf("decide of the pulled run: exit %d\n%s", code, errs)
	}
	var counts struct{ Reasons map[string]int }
	if err := json.Unmarshal([]byte(out), &counts); err != nil {
		t.Fatal(err)
	}
	if len(counts.Reasons) != 1 || counts.Reasons["partial_description"] != 1 {
		t.Fatalf("the pulled run decides %v; the fixture means exactly partial_description", counts.Reasons)
	}
	if code, _, errs := cli("pull", "20990101T000000Z"); code == 0 || !strings.Contains(errs, "holds no finished run") {
		t.Fatalf("pull of a run the store lacks: exit %d, %s", code, errs)
	}
}
