package evidence

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "evidence"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// corrupt overwrites a stored (read-only) file in place, as bit rot or a
// careless edit would.
func corrupt(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestPutGetRoundTrip(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	data := []byte("hello evidence\n")
	sha, err := s.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	// Known SHA-256 of the bytes above, so the name is the content hash and
	// not some other digest.
	if want := Sum(data); sha != want {
		t.Fatalf("Put returned %s, want %s", sha, want)
	}
	got, err := s.Get(ctx, sha)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, want %q", got, data)
	}
	p, err := s.Path(sha)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(s.Root(), "blobs", sha); p != want {
		t.Fatalf("Path = %s, want %s", p, want)
	}
	if ok, err := s.Has(ctx, sha); err != nil || !ok {
		t.Fatalf("Has = %v, %v; want true", ok, err)
	}
	// Idempotent: a second Put of the same bytes returns the same name.
	sha2, err := s.Put(ctx, data)
	if err != nil || sha2 != sha {
		t.Fatalf("second Put = %s, %v", sha2, err)
	}
	assertNoTempFiles(t, s)
}

func TestSumKnownVector(t *testing.T) {
	// SHA-256("abc") from FIPS 180-2.
	if got, want := Sum([]byte("abc")), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"; got != want {
		t.Fatalf("Sum(abc) = %s, want %s", got, want)
	}
}

func TestGetMissingIsErrNotFound(t *testing.T) {
	s := openTemp(t)
	_, err := s.Get(context.Background(), Sum([]byte("never stored")))
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get missing: err = %v, want ErrNotFound", err)
	}
	ok, err := s.Has(context.Background(), Sum([]byte("never stored")))
	if err != nil || ok {
		t.Fatalf("Has missing = %v, %v", ok, err)
	}
}

func TestGetCorruptBlob(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	data := []byte("original bytes")
	sha, err := s.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := s.Path(sha)
	bad := []byte("tampered bytes")
	corrupt(t, p, bad)

	_, err = s.Get(ctx, sha)
	var ce *CorruptBlobError
	if !errors.As(err, &ce) {
		t.Fatalf("Get corrupt: err = %v, want *CorruptBlobError", err)
	}
	if ce.Path != p || ce.Want != sha || ce.Got != Sum(bad) {
		t.Fatalf("CorruptBlobError = %+v, want path %s want %s got %s", ce, p, sha, Sum(bad))
	}
	if errors.Is(err, ErrNotFound) {
		t.Fatal("a corrupt blob must not look like a missing one")
	}

	// Putting the right bytes again repairs the blob.
	if _, err := s.Put(ctx, data); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, sha); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("after repair Get = %q, %v", got, err)
	}
}

func TestMalformedHashes(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	good := Sum([]byte("x"))
	for _, h := range []string{
		"",
		"abc",
		strings.ToUpper(good),
		good[:63],
		good + "0",
		good[:63] + "g",
		"../../../../../../etc/passwd",
		"../blobs/" + good[:55],
		good[:62] + "/x",
		good[:63] + "\x00",
	} {
		if err := ValidateHash(h); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("ValidateHash(%q) = %v, want ErrMalformedHash", h, err)
		}
		if _, err := s.Get(ctx, h); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("Get(%q) = %v, want ErrMalformedHash", h, err)
		}
		if _, err := s.Has(ctx, h); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("Has(%q) = %v, want ErrMalformedHash", h, err)
		}
		if _, err := s.Path(h); !errors.Is(err, ErrMalformedHash) {
			t.Errorf("Path(%q) = %v, want ErrMalformedHash", h, err)
		}
	}
	if err := ValidateHash(good); err != nil {
		t.Fatalf("ValidateHash(good) = %v", err)
	}
}

func TestPutReader(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	data := bytes.Repeat([]byte("0123456789abcdef"), 100_000) // 1.6 MB, several copy buffers
	sha, n, err := s.PutReader(ctx, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if sha != Sum(data) || n != int64(len(data)) {
		t.Fatalf("PutReader = %s, %d; want %s, %d", sha, n, Sum(data), len(data))
	}
	got, err := s.Get(ctx, sha)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after PutReader: %v", err)
	}
	// Same content again: no error, nothing left behind.
	if sha2, _, err := s.PutReader(ctx, bytes.NewReader(data)); err != nil || sha2 != sha {
		t.Fatalf("second PutReader = %s, %v", sha2, err)
	}
	assertNoTempFiles(t, s)
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("upstream reset")
	}
	n := min(len(p), f.n)
	f.n -= n
	return n, nil
}

func TestPutReaderFailureLeavesNothing(t *testing.T) {
	s := openTemp(t)
	_, _, err := s.PutReader(context.Background(), &failingReader{n: 10_000})
	if err == nil || !strings.Contains(err.Error(), "upstream reset") {
		t.Fatalf("PutReader err = %v, want the reader's error", err)
	}
	entries, err := os.ReadDir(filepath.Join(s.Root(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("blobs dir after failed write holds %d entries, want 0", len(entries))
	}
}

func TestCanceledContext(t *testing.T) {
	s := openTemp(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Put(ctx, []byte("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with canceled ctx: %v", err)
	}
	if _, err := s.Get(ctx, Sum([]byte("x"))); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with canceled ctx: %v", err)
	}
	if _, _, err := s.PutReader(ctx, strings.NewReader("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("PutReader with canceled ctx: %v", err)
	}
}

// TestConcurrentWritersSameBlob has many goroutines store the same bytes
// (and a few different ones) at once, while readers read them: every read
// must see the whole blob or ErrNotFound, never a partial one.
func TestConcurrentWritersSameBlob(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	shared := bytes.Repeat([]byte("shared blob "), 50_000)
	sharedSHA := Sum(shared)

	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 5 {
				sha, err := s.Put(ctx, shared)
				if err != nil {
					errs <- err
					return
				}
				if sha != sharedSHA {
					errs <- fmt.Errorf("Put returned %s", sha)
				}
				own := []byte(fmt.Sprintf("writer %d blob %d", i, j))
				if _, err := s.Put(ctx, own); err != nil {
					errs <- err
				}
				got, err := s.Get(ctx, sharedSHA)
				if err != nil {
					errs <- fmt.Errorf("Get during writes: %w", err)
					continue
				}
				if !bytes.Equal(got, shared) {
					errs <- errors.New("Get returned different bytes")
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	entries, err := os.ReadDir(filepath.Join(s.Root(), "blobs"))
	if err != nil {
		t.Fatal(err)
	}
	if want := 1 + 32*5; len(entries) != want {
		t.Fatalf("blobs dir holds %d entries, want %d", len(entries), want)
	}
	assertNoTempFiles(t, s)
}

// TestConcurrentProcessesSameBlob runs this test binary as several writer
// processes sharing one store; the blob must end whole and verified.
func TestConcurrentProcessesSameBlob(t *testing.T) {
	root := filepath.Join(t.TempDir(), "evidence")
	if _, err := Open(root); err != nil {
		t.Fatal(err)
	}
	var cmds []*exec.Cmd
	for range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcessWriter$")
		cmd.Env = append(os.Environ(), "EVIDENCE_HELPER_ROOT="+root)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
		t.Cleanup(func() {
			if t.Failed() {
				t.Log(out.String())
			}
		})
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer process: %v", err)
		}
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	data := helperBlob()
	got, err := s.Get(context.Background(), Sum(data))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("after concurrent processes: %v", err)
	}
	assertNoTempFiles(t, s)
}

func helperBlob() []byte { return bytes.Repeat([]byte("cross-process blob\n"), 200_000) }

// TestHelperProcessWriter is the child of TestConcurrentProcessesSameBlob;
// run directly it does nothing.
func TestHelperProcessWriter(t *testing.T) {
	root := os.Getenv("EVIDENCE_HELPER_ROOT")
	if root == "" {
		return
	}
	s, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	data := helperBlob()
	for range 20 {
		if _, err := s.Put(context.Background(), data); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Get(context.Background(), Sum(data)); err != nil && !errors.Is(err, ErrNotFound) {
			t.Fatal(err)
		}
	}
}

func TestOpenRejectsEmptyRoot(t *testing.T) {
	if _, err := Open(""); err == nil {
		t.Fatal("Open(\"\") succeeded")
	}
	// A root that is a file cannot hold blobs.
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(f); err == nil {
		t.Fatal("Open(file) succeeded")
	}
}

func assertNoTempFiles(t *testing.T, s *Store) {
	t.Helper()
	for _, d := range []string{"blobs", "proposals"} {
		entries, err := os.ReadDir(filepath.Join(s.Root(), d))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), tempPrefix) {
				t.Errorf("temp file left behind: %s/%s", d, e.Name())
			}
		}
	}
}
