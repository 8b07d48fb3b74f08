package evidence

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/killtest"
)

const (
	killWriterRoot   = "EVIDENCE_KILLED_WRITER_ROOT"
	killWriterMarker = "EVIDENCE_KILLED_WRITER_MARKER"
)

// TestHelperKilledWriter is the child of TestRemoveStaleTempsAfterKill: it
// streams a blob into the store and blocks midway, holding its temporary
// file, until it is killed.
func TestHelperKilledWriter(t *testing.T) {
	root := os.Getenv(killWriterRoot)
	if root == "" {
		return // only ever run as the child
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	r := io.MultiReader(strings.NewReader("the first half of a blob\n"), blockingReader{marker: os.Getenv(killWriterMarker)})
	_, _, err = s.PutReader(context.Background(), r)
	t.Fatalf("the child was not killed: %v", err)
}

// blockingReader writes its marker file once the bytes before it have been
// read, then blocks for ever.
type blockingReader struct{ marker string }

func (b blockingReader) Read([]byte) (int, error) {
	if err := os.WriteFile(b.marker, nil, 0o644); err != nil {
		return 0, err
	}
	select {}
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), tempPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestRemoveStaleTempsAfterKill: a writer killed with SIGKILL midway
// through a blob leaves its temporary file. While another process is still
// writing it (it holds the file's lock), cleaning up leaves it alone even
// when it is old; once that process is dead, the file is removed, and the
// blobs beside it are untouched.
func TestRemoveStaleTempsAfterKill(t *testing.T) {
	root := filepath.Join(t.TempDir(), "evidence")
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	kept, err := s.Put(ctx, []byte("a whole blob\n"))
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "midway")
	child := killtest.Start(t, killtest.TestRun("TestHelperKilledWriter"), killWriterRoot+"="+root, killWriterMarker+"="+marker)
	child.WaitUntil("the middle of its write", 5*time.Millisecond, killtest.Exists(marker))
	blobs := filepath.Join(root, blobsDir)
	if got := temps(t, blobs); len(got) != 1 {
		t.Fatalf("the writer's temporary file: %v", got)
	}
	later := time.Now().Add(2 * StaleTempAge)
	if n, err := s.RemoveStaleTemps(ctx, StaleTempAge, later); err != nil || n != 0 {
		t.Fatalf("a live writer's file was removed: %d %v", n, err)
	}
	if got := temps(t, blobs); len(got) != 1 {
		t.Fatalf("after cleaning with a live writer: %v", got)
	}

	child.Kill()
	// Fresh, the dead writer's file is still kept: its age is what protects
	// a writer that holds no lock.
	if n, err := s.RemoveStaleTemps(ctx, StaleTempAge, time.Now()); err != nil || n != 0 {
		t.Fatalf("a fresh file was removed: %d %v", n, err)
	}
	if n, err := s.RemoveStaleTemps(ctx, StaleTempAge, later); err != nil || n != 1 {
		t.Fatalf("removed %d (%v), want the killed writer's file", n, err)
	}
	if got := temps(t, blobs); len(got) != 0 {
		t.Errorf("left after cleaning: %v", got)
	}
	if _, err := s.Get(ctx, kept); err != nil {
		t.Errorf("the whole blob beside it: %v", err)
	}
}

// TestRemoveStaleTempsChoosesByNameAgeAndLock: only old, unlocked files
// named as this package names its temporary files go, in both directories.
func TestRemoveStaleTempsChoosesByNameAgeAndLock(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	now := time.Now()
	old := now.Add(-2 * StaleTempAge)
	write := func(dir, name string, mtime time.Time) string {
		t.Helper()
		p := filepath.Join(s.Root(), dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write(blobsDir, ".tmp-old", old)
	write(proposalsDir, ".tmp-old-proposal", old)
	write(blobsDir, ".tmp-fresh", now)
	write(blobsDir, "not-a-temp", old)
	held := write(blobsDir, ".tmp-held", old)
	if err := os.Mkdir(filepath.Join(s.Root(), blobsDir, ".tmp-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A writer holding its lock, as createTemp does.
	f, err := os.Open(held)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}

	n, err := s.RemoveStaleTemps(ctx, StaleTempAge, now)
	if err != nil || n != 2 {
		t.Fatalf("removed %d (%v), want 2", n, err)
	}
	for dir, want := range map[string][]string{
		blobsDir:     {".tmp-dir", ".tmp-fresh", ".tmp-held", "not-a-temp"},
		proposalsDir: nil,
	} {
		ents, err := os.ReadDir(filepath.Join(s.Root(), dir))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s after cleaning: %v, want %v", dir, got, want)
		}
	}
}

// TestWriteHoldsItsLockUntilNamed: while Put writes, its temporary file is
// locked, so a cleaner cannot take it; after Put, no temporary file is left.
func TestWriteHoldsItsLockUntilNamed(t *testing.T) {
	s := openTemp(t)
	dir := filepath.Join(s.Root(), blobsDir)
	tmp, err := createTemp(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer tmp.Close()
	other, err := os.Open(tmp.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if err := syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
		t.Fatal("a writer's temporary file is not locked")
	}
	if _, err := s.Put(context.Background(), []byte("blob")); err != nil {
		t.Fatal(err)
	}
	if got := temps(t, dir); len(got) != 1 || filepath.Join(dir, got[0]) != tmp.Name() {
		t.Errorf("temporary files after Put: %v (only the test's own should remain)", got)
	}
}
