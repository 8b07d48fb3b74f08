// Package storetest is the contract of evidence.Backend as one table of
// behaviours, run against every backend: the directory (internal/evidence's
// tests) and the S3-compatible object store (internal/evidence/s3store's
// tests, against a real SeaweedFS). A backend passes when it behaves
// identically in each row; only the way a test damages a stored object
// behind the store's back differs (Harness.Overwrite).
//
// It is for tests only.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
)

// Harness is how the table reaches one backend.
type Harness struct {
	// Open returns a fresh, empty store.
	Open func(t *testing.T) evidence.Backend
	// Overwrite replaces the object at the layout key rel (evidence.BlobKey,
	// evidence.ProposalKeyPath, evidence.RunObjectKey) with data, bypassing
	// the store, as bit rot or a careless edit would.
	Overwrite func(t *testing.T, b evidence.Backend, rel string, data []byte)
	// RunObjectsVerified says the backend checks a run object's bytes on
	// read (the object store keeps each one's SHA-256 beside it; a directory
	// holds the bytes alone, renamed whole into place).
	RunObjectsVerified bool
}

// Run runs every behaviour as a subtest; RunObjectCorrupt only for a
// backend with RunObjectsVerified.
func Run(t *testing.T, h Harness) {
	for _, c := range cases {
		if c.name == "RunObjectCorrupt" && !h.RunObjectsVerified {
			continue
		}
		t.Run(c.name, func(t *testing.T) { c.run(t, h) })
	}
}

var cases = []struct {
	name string
	run  func(t *testing.T, h Harness)
}{
	{"RoundTrip", roundTrip},
	{"CorruptBlobRefused", corruptBlobRefused},
	{"NotFound", notFound},
	{"ConcurrentPutsOfOneBlob", concurrentPuts},
	{"ProposalRecords", proposalRecords},
	{"ProposalRecordCorrupt", proposalRecordCorrupt},
	{"ConcurrentProposals", concurrentProposals},
	{"RunObjects", runObjects},
	{"RunObjectCorrupt", runObjectCorrupt},
	{"ContextCancelled", contextCancelled},
	{"PutReaderCancelledMidStream", putReaderCancelled},
}

func roundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for _, data := range [][]byte{[]byte("hello evidence\n"), {}, bytes.Repeat([]byte{0, 0xff, 'x'}, 300_001)} {
		sha, err := s.Put(ctx, data)
		if err != nil {
			t.Fatal(err)
		}
		if sha != evidence.Sum(data) {
			t.Fatalf("Put returned %s, want the SHA-256 %s", sha, evidence.Sum(data))
		}
		got, err := s.Get(ctx, sha)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("Get(%s) = %d bytes, %v; want the %d stored", sha, len(got), err, len(data))
		}
		if ok, err := s.Has(ctx, sha); !ok || err != nil {
			t.Fatalf("Has(%s) = %v, %v after Put", sha, ok, err)
		}
		// Storing the same bytes again is a no-op with the same answer.
		if again, err := s.Put(ctx, data); again != sha || err != nil {
			t.Fatalf("second Put = %s, %v; want %s", again, err, sha)
		}
	}
	data := []byte(strings.Repeat("streamed bytes ", 70_000))
	sha, n, err := s.PutReader(ctx, bytes.NewReader(data))
	if err != nil || sha != evidence.Sum(data) || n != int64(len(data)) {
		t.Fatalf("PutReader = %s, %d, %v; want %s, %d", sha, n, err, evidence.Sum(data), len(data))
	}
	if got, err := s.Get(ctx, sha); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after PutReader = %d bytes, %v", len(got), err)
	}
	if loc := s.Location(); loc == "" {
		t.Fatal("Location is empty")
	}
}

func corruptBlobRefused(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	data := []byte("the bytes a finding cites")
	sha, err := s.Put(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	h.Overwrite(t, s, evidence.BlobKey(sha), []byte("the bytes a finding cites, edited"))
	_, err = s.Get(ctx, sha)
	var corrupt *evidence.CorruptBlobError
	if !errors.As(err, &corrupt) || corrupt.Want != sha || corrupt.Got != evidence.Sum([]byte("the bytes a finding cites, edited")) {
		t.Fatalf("Get of a corrupted blob = %v; want a CorruptBlobError naming both hashes", err)
	}
	if errors.Is(err, evidence.ErrNotFound) {
		t.Fatal("a corrupt blob must not read as a missing one")
	}
	// Storing the right bytes again repairs it.
	if _, err := s.Put(ctx, data); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Get(ctx, sha); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after the repairing Put = %q, %v", got, err)
	}
	// So does PutReader.
	h.Overwrite(t, s, evidence.BlobKey(sha), nil)
	if _, err := s.Get(ctx, sha); !errors.As(err, &corrupt) {
		t.Fatalf("Get of an emptied blob = %v; want CorruptBlobError", err)
	}
	if got, _, err := s.PutReader(ctx, bytes.NewReader(data)); err != nil || got != sha {
		t.Fatalf("PutReader = %s, %v", got, err)
	}
	if got, err := s.Get(ctx, sha); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after the repairing PutReader = %q, %v", got, err)
	}
}

func notFound(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	absent := evidence.Sum([]byte("never stored"))
	if _, err := s.Get(ctx, absent); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("Get of an absent blob = %v; want ErrNotFound", err)
	}
	if ok, err := s.Has(ctx, absent); ok || err != nil {
		t.Fatalf("Has of an absent blob = %v, %v", ok, err)
	}
	key := proposalKey("absent")
	if _, err := s.GetProposal(ctx, key); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("GetProposal of an absent key = %v; want ErrNotFound", err)
	}
	if _, err := s.GetRunObject(ctx, "run-1", "run.json"); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("GetRunObject of an absent object = %v; want ErrNotFound", err)
	}
	for _, bad := range []string{"", "../etc/passwd", strings.ToUpper(absent), absent + "0"} {
		if _, err := s.Get(ctx, bad); !errors.Is(err, evidence.ErrMalformedHash) {
			t.Errorf("Get(%q) = %v; want ErrMalformedHash", bad, err)
		}
		if _, err := s.Has(ctx, bad); !errors.Is(err, evidence.ErrMalformedHash) {
			t.Errorf("Has(%q) = %v; want ErrMalformedHash", bad, err)
		}
	}
}

func concurrentPuts(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	data := bytes.Repeat([]byte("one blob, many writers "), 50_000)
	want := evidence.Sum(data)
	const writers = 8
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var sha string
			var err error
			if i%2 == 0 {
				sha, err = s.Put(ctx, data)
			} else {
				sha, _, err = s.PutReader(ctx, bytes.NewReader(data))
			}
			if err == nil && sha != want {
				err = fmt.Errorf("writer %d got %s", i, sha)
			}
			errs[i] = err
		}()
	}
	// Readers racing the writers see the whole blob or none.
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				got, err := s.Get(ctx, want)
				if err == nil && !bytes.Equal(got, data) {
					t.Errorf("a reader saw %d bytes that are not the blob", len(got))
				}
				if err != nil && !errors.Is(err, evidence.ErrNotFound) {
					t.Errorf("a reader racing the writers: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.Get(ctx, want); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("Get after concurrent Puts = %d bytes, %v", len(got), err)
	}
}

func proposalKey(label string) evidence.ProposalKey {
	return evidence.ProposalKey{
		Analyzer:       "test-analyzer/" + label,
		PromptSHA256:   evidence.Sum([]byte("prompt " + label)),
		EvidenceSHA256: evidence.Sum([]byte("evidence " + label)),
	}
}

func proposalRecords(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	key := proposalKey("records")
	first := []byte(`{"findings":[]}`)
	sha, err := s.PutProposal(ctx, key, first)
	if err != nil || sha != evidence.Sum(first) {
		t.Fatalf("PutProposal = %s, %v; want %s", sha, err, evidence.Sum(first))
	}
	if got, err := s.GetProposal(ctx, key); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("GetProposal = %q, %v", got, err)
	}
	// The proposal bytes are an ordinary blob, citable by hash.
	if got, err := s.Get(ctx, sha); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("Get of the proposal blob = %q, %v", got, err)
	}
	// The first answer is kept; a later one learns which is held.
	second := []byte(`{"findings":[{"span":[0,1]}]}`)
	if got, err := s.PutProposal(ctx, key, second); err != nil || got != sha {
		t.Fatalf("second PutProposal = %s, %v; want the first answer's %s", got, err, sha)
	}
	if got, err := s.GetProposal(ctx, key); err != nil || !bytes.Equal(got, first) {
		t.Fatalf("GetProposal after a second put = %q, %v; want the first answer", got, err)
	}
	// Another key is another record.
	other := proposalKey("records-other")
	if _, err := s.GetProposal(ctx, other); !errors.Is(err, evidence.ErrNotFound) {
		t.Fatalf("GetProposal of another key = %v; want ErrNotFound", err)
	}
	bad := key
	bad.PromptSHA256 = "not-a-hash"
	if _, err := s.PutProposal(ctx, bad, first); !errors.Is(err, evidence.ErrMalformedHash) {
		t.Fatalf("PutProposal with a malformed key = %v; want ErrMalformedHash", err)
	}
	if _, err := s.GetProposal(ctx, bad); !errors.Is(err, evidence.ErrMalformedHash) {
		t.Fatalf("GetProposal with a malformed key = %v; want ErrMalformedHash", err)
	}
}

func proposalRecordCorrupt(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	key := proposalKey("corrupt")
	answer := []byte(`{"findings":[]}`)
	if _, err := s.PutProposal(ctx, key, answer); err != nil {
		t.Fatal(err)
	}
	var corrupt *evidence.CorruptBlobError
	// A record that does not parse.
	h.Overwrite(t, s, evidence.ProposalKeyPath(key), []byte("{not json"))
	if _, err := s.GetProposal(ctx, key); !errors.As(err, &corrupt) {
		t.Fatalf("GetProposal of an unparsable record = %v; want CorruptBlobError", err)
	}
	// A well-formed record filed under this key that names another key.
	other := proposalKey("corrupt-other")
	rec, err := evidence.EncodeProposalRecord(other, evidence.Sum(answer))
	if err != nil {
		t.Fatal(err)
	}
	h.Overwrite(t, s, evidence.ProposalKeyPath(key), rec)
	if _, err := s.GetProposal(ctx, key); !errors.As(err, &corrupt) || corrupt.Got != other.ID() {
		t.Fatalf("GetProposal of a record for another key = %v; want CorruptBlobError naming it", err)
	}
	// A PutProposal replaces a record that fails verification.
	fresh := []byte(`{"findings":["fresh"]}`)
	if got, err := s.PutProposal(ctx, key, fresh); err != nil || got != evidence.Sum(fresh) {
		t.Fatalf("PutProposal over a bad record = %s, %v; want the fresh answer", got, err)
	}
	if got, err := s.GetProposal(ctx, key); err != nil || !bytes.Equal(got, fresh) {
		t.Fatalf("GetProposal after the repair = %q, %v", got, err)
	}
	// A sound record whose blob was damaged fails too: both are verified.
	h.Overwrite(t, s, evidence.BlobKey(evidence.Sum(fresh)), []byte("damaged"))
	if _, err := s.GetProposal(ctx, key); !errors.As(err, &corrupt) {
		t.Fatalf("GetProposal with a damaged blob = %v; want CorruptBlobError", err)
	}
}

func concurrentProposals(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	key := proposalKey("race")
	const writers = 6
	got := make([]string, writers)
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = s.PutProposal(ctx, key, fmt.Appendf(nil, `{"writer":%d}`, i))
		}()
	}
	wg.Wait()
	held, err := s.GetProposal(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	for i := range writers {
		if errs[i] != nil {
			t.Fatalf("writer %d: %v", i, errs[i])
		}
		if got[i] != evidence.Sum(held) {
			t.Fatalf("writer %d was told %s is held; the store holds %s (%q)", i, got[i], evidence.Sum(held), held)
		}
	}
}

func runObjects(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	if err := s.PutRunObject(ctx, "run-1", "run.json", []byte(`{"status":"running"}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRunObject(ctx, "run-1", "packages/0123abcd.json", []byte(`{"pkg":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRunObject(ctx, "run-2", "run.json", []byte(`{"other":true}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ run, name, want string }{
		{"run-1", "run.json", `{"status":"running"}`},
		{"run-1", "packages/0123abcd.json", `{"pkg":1}`},
		{"run-2", "run.json", `{"other":true}`},
	} {
		if got, err := s.GetRunObject(ctx, c.run, c.name); err != nil || string(got) != c.want {
			t.Fatalf("GetRunObject(%s, %s) = %q, %v; want %q", c.run, c.name, got, err, c.want)
		}
	}
	// A rewrite replaces the object whole, and an empty object is an object.
	if err := s.PutRunObject(ctx, "run-1", "run.json", []byte(`{"status":"finished"}`)); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRunObject(ctx, "run-1", "run.json"); err != nil || string(got) != `{"status":"finished"}` {
		t.Fatalf("GetRunObject after a rewrite = %q, %v", got, err)
	}
	if err := s.PutRunObject(ctx, "run-1", "empty", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRunObject(ctx, "run-1", "empty"); err != nil || len(got) != 0 {
		t.Fatalf("GetRunObject of an empty object = %q, %v", got, err)
	}
	for _, bad := range [][2]string{{"../x", "run.json"}, {"run-1", "../run-2/run.json"}, {"run-1", "/abs"}, {"run-1", ""}} {
		if err := s.PutRunObject(ctx, bad[0], bad[1], []byte("x")); !errors.Is(err, evidence.ErrBadRunObject) {
			t.Errorf("PutRunObject(%q, %q) = %v; want ErrBadRunObject", bad[0], bad[1], err)
		}
		if _, err := s.GetRunObject(ctx, bad[0], bad[1]); !errors.Is(err, evidence.ErrBadRunObject) {
			t.Errorf("GetRunObject(%q, %q) = %v; want ErrBadRunObject", bad[0], bad[1], err)
		}
	}
	// Writers racing on one name leave one of their objects whole; readers
	// see a whole object each time.
	versions := make([][]byte, 6)
	for i := range versions {
		versions[i] = bytes.Repeat([]byte{byte('a' + i)}, 200_000+i)
	}
	var wg sync.WaitGroup
	for i := range versions {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.PutRunObject(ctx, "run-3", "summary.json", versions[i]); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			got, err := s.GetRunObject(ctx, "run-3", "summary.json")
			if err == nil && !isOneOf(got, versions) {
				t.Errorf("a reader saw a mixed or partial object (%d bytes)", len(got))
			}
			if err != nil && !errors.Is(err, evidence.ErrNotFound) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := s.GetRunObject(ctx, "run-3", "summary.json")
	if err != nil || !isOneOf(got, versions) {
		t.Fatalf("after racing writers: %d bytes, %v; want one writer's object whole", len(got), err)
	}
}

func isOneOf(b []byte, of [][]byte) bool {
	for _, o := range of {
		if bytes.Equal(b, o) {
			return true
		}
	}
	return false
}

func runObjectCorrupt(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	if err := s.PutRunObject(ctx, "run-1", "results.json", []byte("[1,2,3]")); err != nil {
		t.Fatal(err)
	}
	rel, err := evidence.RunObjectKey("run-1", "results.json")
	if err != nil {
		t.Fatal(err)
	}
	h.Overwrite(t, s, rel, []byte("[1,2,4]"))
	var corrupt *evidence.CorruptBlobError
	if _, err := s.GetRunObject(ctx, "run-1", "results.json"); !errors.As(err, &corrupt) {
		t.Fatalf("GetRunObject of a damaged object = %v; want CorruptBlobError", err)
	}
}

func contextCancelled(t *testing.T, h Harness) {
	s := h.Open(t)
	stored, err := s.Put(context.Background(), []byte("stored before the cancel"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	key := proposalKey("cancel")
	calls := map[string]func() error{
		"Put":          func() error { _, err := s.Put(ctx, []byte("x")); return err },
		"PutReader":    func() error { _, _, err := s.PutReader(ctx, strings.NewReader("x")); return err },
		"Get":          func() error { _, err := s.Get(ctx, stored); return err },
		"Has":          func() error { _, err := s.Has(ctx, stored); return err },
		"PutProposal":  func() error { _, err := s.PutProposal(ctx, key, []byte("x")); return err },
		"GetProposal":  func() error { _, err := s.GetProposal(ctx, key); return err },
		"PutRunObject": func() error { return s.PutRunObject(ctx, "run-1", "run.json", []byte("x")) },
		"GetRunObject": func() error { _, err := s.GetRunObject(ctx, "run-1", "run.json"); return err },
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context = %v; want context.Canceled", name, err)
		}
	}
	if ok, err := s.Has(context.Background(), evidence.Sum([]byte("x"))); ok || err != nil {
		t.Fatalf("a cancelled Put stored its blob (Has = %v, %v)", ok, err)
	}
}

// cancellingReader yields n bytes, then cancels the context and keeps
// yielding: the store must notice and stop.
type cancellingReader struct {
	n      int
	cancel context.CancelFunc
}

func (r *cancellingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		r.cancel()
	}
	for i := range p {
		p[i] = 'z'
	}
	r.n -= len(p)
	return len(p), nil
}

func putReaderCancelled(t *testing.T, h Harness) {
	s := h.Open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &cancellingReader{n: 1 << 20, cancel: cancel}
	_, _, err := s.PutReader(ctx, io.LimitReader(r, 64<<20))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("PutReader cancelled mid-stream = %v; want context.Canceled", err)
	}
	// Nothing the store names was written: the full stream's hash and the
	// first megabyte's are both absent.
	for _, n := range []int{64 << 20, 1 << 20} {
		sha := evidence.Sum(bytes.Repeat([]byte{'z'}, n))
		if ok, err := s.Has(context.Background(), sha); ok || err != nil {
			t.Fatalf("a cancelled PutReader left a blob of %d bytes (Has = %v, %v)", n, ok, err)
		}
	}
}
