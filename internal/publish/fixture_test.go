package publish_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
)

// TestEvidenceUnpublishableFixture publishes the evidence_unpublishable
// fixture of analysis/fixtures/reason_codes: decided F, its evidence carries
// personal data, so publication withholds its findings and refuses it with
// exactly that code.
func TestEvidenceUnpublishableFixture(t *testing.T) {
	src := "../../analysis/fixtures/reason_codes/evidence_unpublishable"
	var want struct {
		Code, Package, Verdict string
		BlockedBy              []string `json:"blocked_by"`
	}
	b, err := os.ReadFile(filepath.Join(src, "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "run")
	copyTree(t, src, dir)
	blobs := policy.DirBlobs(filepath.Join(dir, "evidence", "blobs"))
	ctx := context.Background()
	decided := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	d, err := policy.Decide(ctx, dir, blobs, policy.Options{Now: func() time.Time { return decided }})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Packages) != 1 || d.Packages[0].Grade != "F" {
		t.Fatalf("the fixture must decide to F before publication: %+v", d.Packages)
	}
	if err := policy.WriteDecisions(dir, d); err != nil {
		t.Fatal(err)
	}
	if _, err := publish.Notices(ctx, dir, d, decided, publish.NoticeOptions{Blobs: blobs}); err != nil {
		t.Fatal(err)
	}
	res, err := publish.Publish(ctx, publish.Options{
		RunDir: dir, Home: filepath.Join(t.TempDir(), "publications"), Blobs: blobs, Demo: true,
		Now: func() time.Time { return decided.Add(31 * 24 * time.Hour) },
	})
	if err != nil {
		t.Fatal(err)
	}
	p := res.Publication
	if len(p.Packages) != 1 {
		t.Fatalf("packages: %d", len(p.Packages))
	}
	got := p.Packages[0]
	if got.Package.Key() != want.Package || got.Verdict != want.Verdict || !slices.Equal(got.BlockedBy, want.BlockedBy) {
		t.Fatalf("published %s %s %v, want %s %s %v", got.Package.Key(), got.Verdict, got.BlockedBy, want.Package, want.Verdict, want.BlockedBy)
	}
	if len(p.Findings) != 0 {
		t.Fatalf("a withheld finding was published: %+v", p.Findings)
	}
	for sha, blob := range p.Blobs {
		if hits := publish.ScanPersonalData(blob); len(hits) > 0 {
			t.Fatalf("published blob %s carries personal data: %+v", sha, hits)
		}
	}
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
