package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/s3test"
)

// TestRunOnS3EvidenceMatchesTheDirectory runs the same small pass twice over
// one stand-in registry, once with the evidence store in the data home's
// directory and once in a bucket of a real SeaweedFS opened through
// ATTESTARI_EVIDENCE_URL, and checks the seven run files are the same byte
// for byte once the times and measured durations rundir names are
// normalised (seven), and that every blob records.json cites is in the
// bucket, verified, and nothing was written to the second home's directory.
func TestRunOnS3EvidenceMatchesTheDirectory(t *testing.T) {
	srv := s3test.Start(t)
	w := newWorld(t, 4, true)
	ctx := context.Background()

	fileOpts := w.options(t)
	fileOpts.RunID = "evidence-file"
	ref, err := Run(ctx, fileOpts)
	if err != nil {
		t.Fatal(err)
	}

	bucket := srv.Bucket(t)
	env := map[string]string{
		evstore.EnvURL:       srv.URL(bucket, "evidence"),
		evstore.EnvAccessKey: srv.AccessKey,
		evstore.EnvSecretKey: srv.SecretKey,
	}
	s3home := t.TempDir()
	store, err := evstore.Open(ctx, evstore.FromEnv(func(k string) string { return env[k] }, s3home))
	if err != nil {
		t.Fatal(err)
	}
	if _, isDir := store.(*evidence.Store); isDir {
		t.Fatalf("the URL opened the directory backend: %s", store.Location())
	}
	s3Opts := optionsFor(t, w.srv.URL, s3home, w.cands)
	s3Opts.RunID = "evidence-s3"
	s3Opts.Evidence = store
	got, err := Run(ctx, s3Opts)
	if err != nil {
		t.Fatal(err)
	}
	if ref.Status != rundir.StatusFinished || got.Status != rundir.StatusFinished || ref.Packages != got.Packages {
		t.Fatalf("runs: %+v / %+v", ref, got)
	}

	a, b := seven(t, ref.Dir), seven(t, got.Dir)
	for _, name := range rundir.SevenFiles {
		if a[name] != b[name] {
			t.Errorf("%s differs between the directory and the S3 store:\n%s", name, lineDiff(a[name], b[name]))
		}
	}
	if pa, pb := packageFiles(t, ref.Dir), packageFiles(t, got.Dir); len(pa) != len(pb) || len(pa) != ref.Packages {
		t.Errorf("package files: %d and %d for %d packages", len(pa), len(pb), ref.Packages)
	}

	files, err := rundir.Read(got.Dir)
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	for _, r := range files.Records {
		if r.SHA256 == "" {
			continue
		}
		data, err := store.Get(ctx, r.SHA256)
		if err != nil {
			t.Errorf("record %s %s: its blob is not in the bucket: %v", r.Package.Name, r.Kind, err)
			continue
		}
		if evidence.Sum(data) != r.SHA256 {
			t.Errorf("record %s: blob hashes to %s", r.Package.Name, evidence.Sum(data))
		}
		cited++
	}
	if cited == 0 {
		t.Fatal("records.json cites no blob: the comparison proves nothing")
	}
	if ents, err := os.ReadDir(filepath.Join(s3home, "evidence", "blobs")); err == nil && len(ents) > 0 {
		t.Errorf("the S3 run wrote %d blobs to its home's directory", len(ents))
	}
}
