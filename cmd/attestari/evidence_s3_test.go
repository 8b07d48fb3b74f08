package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/s3test"
)

// TestDemoCycleOnS3Evidence runs the demo cycle (run, decide, publish) with
// ATTESTARI_EVIDENCE_URL naming a bucket of a real SeaweedFS, and the same
// cycle on the data home's directory: every package decides alike, every
// blob the run cites is in the bucket and verifies, and the S3 home's
// directory holds no blob, so each command read and wrote through the URL.
func TestDemoCycleOnS3Evidence(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	verdicts := map[string][]string{}
	for _, backend := range []string{"file", "s3"} {
		home := t.TempDir()
		vars := map[string]string{"ATTESTARI_HOME": home, "ATTESTARI_DEMO_DIR": "../../testdata/demo"}
		if backend == "s3" {
			vars[evstore.EnvURL] = srv.URL(bucket, "demo")
			vars[evstore.EnvAccessKey] = srv.AccessKey
			vars[evstore.EnvSecretKey] = srv.SecretKey
		}
		var out, errb bytes.Buffer
		e := &env{stdout: &out, stderr: &errb, getenv: func(k string) string { return vars[k] }}
		if code := runMain(context.Background(), e, []string{"cycle", "--demo", "--json-logs"}); code != 0 {
			t.Fatalf("%s: cycle --demo exit %d\n%s\n%s", backend, code, out.String(), errb.String())
		}
		runs, err := pipeline.ListRuns(home)
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: runs %v %v", backend, runs, err)
		}
		d, _, err := publish.ReadDecisions(runs[0].Dir)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, p := range d.Packages {
			rows = append(rows, fmt.Sprintf("%s %s %s %v", p.Package.Name, p.Verdict, p.Grade, p.BlockedBy))
		}
		slices.Sort(rows)
		verdicts[backend] = rows
		if pubs, err := publish.List(filepath.Join(home, "publications")); err != nil || len(pubs) != 1 {
			t.Fatalf("%s: publications %d %v", backend, len(pubs), err)
		}
		if backend != "s3" {
			continue
		}
		if ents, err := os.ReadDir(filepath.Join(home, "evidence", "blobs")); err == nil && len(ents) > 0 {
			t.Errorf("the S3 cycle wrote %d blobs to the home's directory", len(ents))
		}
		store, err := evstore.Open(context.Background(), evstore.FromEnv(func(k string) string { return vars[k] }, home))
		if err != nil {
			t.Fatal(err)
		}
		files, err := rundir.Read(runs[0].Dir)
		if err != nil {
			t.Fatal(err)
		}
		cited := 0
		for _, r := range files.Records {
			sha := r.SHA256
			if sha == "" {
				continue
			}
			data, err := store.Get(context.Background(), sha)
			if err != nil || evidence.Sum(data) != sha {
				t.Errorf("blob %s: %v", sha, err)
			}
			cited++
		}
		if cited == 0 {
			t.Fatal("the demo run cites no blob: the check proves nothing")
		}
	}
	if !slices.Equal(verdicts["file"], verdicts["s3"]) || len(verdicts["file"]) == 0 {
		t.Fatalf("the two backends decide differently:\nfile %v\ns3   %v", verdicts["file"], verdicts["s3"])
	}
}
