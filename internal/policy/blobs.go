package policy

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/vocab"
)

// Blobs is what the policy needs of the evidence store: the bytes stored
// under a SHA-256. *evidence.Store satisfies it; tests pass a map.
type Blobs interface {
	Get(ctx context.Context, sha string) ([]byte, error)
}

// ErrBlobNotFound is returned (wrapped) by DirBlobs and MapBlobs for a hash
// with no blob. The policy also recognises evidence.ErrNotFound and
// fs.ErrNotExist.
var ErrBlobNotFound = errors.New("blob not found")

// MapBlobs is an in-memory Blobs keyed by hex SHA-256, for tests and
// benchmarks. It does not verify: the policy re-hashes every blob it reads.
type MapBlobs map[string][]byte

// Get returns the blob stored under sha.
func (m MapBlobs) Get(_ context.Context, sha string) ([]byte, error) {
	b, ok := m[sha]
	if !ok {
		return nil, fmt.Errorf("blob %s: %w", sha, ErrBlobNotFound)
	}
	return b, nil
}

// Put stores b under its SHA-256 and returns the hash.
func (m MapBlobs) Put(b []byte) string {
	sha := vocab.SHA256Hex(b)
	m[sha] = b
	return sha
}

// DirBlobs reads blobs from a directory of files named by their SHA-256 (the
// layout of evidence/blobs/), read-only, such as a fixture's evidence. Use
// *evidence.Store for the data home.
type DirBlobs string

// Get returns the file named sha under the directory. The hash is validated
// first, so it can never name a path outside the directory.
func (d DirBlobs) Get(_ context.Context, sha string) ([]byte, error) {
	if err := evidence.ValidateHash(sha); err != nil {
		return nil, fmt.Errorf("blob %q: %w", sha, err)
	}
	b, err := os.ReadFile(filepath.Join(string(d), sha))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blob %s: %w", sha, ErrBlobNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", sha, err)
	}
	return b, nil
}

// blobOutcome names why a blob could not be used, as recorded on rows.
const (
	blobMissing    = "blob_missing"
	blobCorrupt    = "blob_corrupt"
	blobMalformed  = "blob_hash_malformed"
	blobUnreadable = "blob_unreadable"
)

// classifyBlobErr maps a Blobs error to a recorded outcome.
func classifyBlobErr(err error) string {
	var corrupt *evidence.CorruptBlobError
	switch {
	case errors.Is(err, ErrBlobNotFound), errors.Is(err, evidence.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return blobMissing
	case errors.As(err, &corrupt):
		return blobCorrupt
	case errors.Is(err, evidence.ErrMalformedHash):
		return blobMalformed
	default:
		return blobUnreadable
	}
}

// blobCache reads each blob once per package and re-hashes it, whatever the
// store promises: a decision never rests on bytes that do not match their name.
type blobCache struct {
	blobs Blobs
	data  map[string][]byte
	errs  map[string]blobErr
}

type blobErr struct {
	outcome string
	err     error
}

func (e blobErr) Error() string { return e.outcome + ": " + e.err.Error() }
func (e blobErr) Unwrap() error { return e.err }

func newBlobCache(b Blobs) *blobCache {
	return &blobCache{blobs: b, data: map[string][]byte{}, errs: map[string]blobErr{}}
}

func (c *blobCache) reset() {
	clear(c.data)
	clear(c.errs)
}

// get returns the verified bytes of sha, or a blobErr naming the outcome. A
// cancelled context is returned as itself, so Decide stops instead of
// recording a reason.
func (c *blobCache) get(ctx context.Context, sha string) ([]byte, error) {
	if b, ok := c.data[sha]; ok {
		return b, nil
	}
	if e, ok := c.errs[sha]; ok {
		return nil, e
	}
	if c.blobs == nil {
		e := blobErr{outcome: blobMissing, err: errors.New("no evidence store configured")}
		c.errs[sha] = e
		return nil, e
	}
	b, err := c.blobs.Get(ctx, sha)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, ctxErr
		}
		e := blobErr{outcome: classifyBlobErr(err), err: err}
		c.errs[sha] = e
		return nil, e
	}
	if got := vocab.SHA256Hex(b); got != sha {
		e := blobErr{outcome: blobCorrupt, err: fmt.Errorf("blob %s hashes to %s", sha, got)}
		c.errs[sha] = e
		return nil, e
	}
	c.data[sha] = b
	return b, nil
}
