// Package evidence owns the content-addressed blob store under
// $ATTESTARI_HOME/evidence: every artifact and every structured upstream
// response a finding may cite is stored at blobs/<sha256>, and the
// analyzer's proposals are cached under proposals/ by (analyzer, prompt
// SHA-256, evidence SHA-256). Run objects (a run's named files, for workers
// that share the store) live under runs/<run id>/<name>.
//
// Backend is the interface the product stores through; *Store, the
// directory of this file, is one implementation, and package
// internal/evidence/s3store (an S3-compatible object store) the other.
// Both keep the same layout and the same guarantees (Backend's comment).
//
// Every read re-hashes the bytes and refuses a blob whose hash does not match
// its name (methodology §7: a finding cites a hash, so a blob that no longer
// has that hash must never be used silently). Writes are atomic (temp file in
// the same directory, fsync, rename, fsync of the directory) so a crash or
// kill -9 leaves either the whole blob or none, and two writers of the same
// blob, in one process or several, cannot corrupt it.
//
// A write interrupted by a kill leaves its temporary file (".tmp-*" beside
// the blobs or the proposal records); it is never read, since only a rename
// gives a file a hash name. Each writer holds an exclusive flock on its
// temporary file from creation until the file has its final name, and the
// kernel drops that lock when the writer dies. RemoveStaleTemps, which the
// pipeline calls when a run starts, removes a temporary file only when it is
// at least StaleTempAge old and its lock can be taken, so a write still in
// progress in this process or in another sharing the store (even one of a
// build that takes no lock, thanks to the age) is never disturbed.
//
// The package must not interpret blobs (it knows bytes, not packages),
// touch the network or the database, or delete anything it did not create:
// RemoveStaleTemps deletes only files named as its own temporary files.
package evidence

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Directory names under the store root; DESIGN.md fixes the layout.
const (
	blobsDir     = "blobs"
	proposalsDir = "proposals"
	// tempPrefix marks files that are still being written. A rename is the
	// only way a file loses it, so a reader never sees a partial blob under a
	// hash name; temp files a killed writer left behind are inert until
	// RemoveStaleTemps removes them.
	tempPrefix = ".tmp-"
)

// ErrNotFound is returned (wrapped) when no blob or proposal is stored under
// the requested hash or key. Test with errors.Is.
var ErrNotFound = errors.New("not found in evidence store")

// ErrMalformedHash is returned (wrapped) when a hash parameter is not 64
// lowercase hexadecimal digits. Hashes arrive from run files and, later, API
// parameters; refusing anything else also keeps a hash from ever naming a
// path outside the store.
var ErrMalformedHash = errors.New("malformed sha256: want 64 lowercase hex digits")

// CorruptBlobError reports a stored file whose content no longer matches
// the hash it is stored under. For a proposal record, Want is the key hash
// the record is filed under and Got the hash of the key the record holds
// (empty when the record cannot be parsed).
type CorruptBlobError struct {
	Path string // the file that failed verification
	Want string // the hash the file is named by
	Got  string // the hash of what the file holds
}

func (e *CorruptBlobError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("evidence: corrupt %s: want sha256 %s, content unreadable", e.Path, e.Want)
	}
	return fmt.Sprintf("evidence: corrupt %s: want sha256 %s, got %s", e.Path, e.Want, e.Got)
}

// Store is a content-addressed blob store rooted at a directory. It is safe
// for concurrent use by goroutines and by separate processes sharing the
// directory.
type Store struct {
	root string
}

// Open opens (creating if needed) the store rooted at root, normally
// $ATTESTARI_HOME/evidence.
func Open(root string) (*Store, error) {
	if root == "" {
		return nil, errors.New("evidence: open: empty root")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("evidence: open %q: %w", root, err)
	}
	for _, d := range []string{abs, filepath.Join(abs, blobsDir), filepath.Join(abs, proposalsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("evidence: open %q: %w", root, err)
		}
	}
	return &Store{root: abs}, nil
}

// Root returns the absolute directory the store is rooted at.
func (s *Store) Root() string { return s.root }

// ValidateHash returns nil when h is 64 lowercase hexadecimal digits and an
// error wrapping ErrMalformedHash otherwise.
func ValidateHash(h string) error {
	if len(h) != sha256.Size*2 {
		return fmt.Errorf("%w: %q has %d characters", ErrMalformedHash, truncateForError(h), len(h))
	}
	for i := 0; i < len(h); i++ {
		c := h[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return fmt.Errorf("%w: %q has %q at offset %d", ErrMalformedHash, truncateForError(h), c, i)
		}
	}
	return nil
}

// truncateForError keeps a hostile parameter from filling a log line.
func truncateForError(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Sum returns the lowercase hex SHA-256 of data: the name Put stores it under.
func Sum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Path returns the file a blob with hash sha is (or would be) stored at.
func (s *Store) Path(sha string) (string, error) {
	if err := ValidateHash(sha); err != nil {
		return "", fmt.Errorf("evidence: path: %w", err)
	}
	return s.blobPath(sha), nil
}

func (s *Store) blobPath(sha string) string {
	return filepath.Join(s.root, blobsDir, sha)
}

// Put stores data and returns its SHA-256 in lowercase hex. Storing bytes
// that are already present is cheap and leaves the stored file alone unless
// it fails verification, in which case it is replaced.
func (s *Store) Put(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("evidence: put: %w", err)
	}
	sha := Sum(data)
	if ok, err := s.verified(sha); err != nil {
		return "", fmt.Errorf("evidence: put %s: %w", sha, err)
	} else if ok {
		return sha, nil
	}
	if err := writeAtomic(filepath.Join(s.root, blobsDir), sha, bytes.NewReader(data), nil); err != nil {
		return "", fmt.Errorf("evidence: put %s: %w", sha, err)
	}
	return sha, nil
}

// PutReader streams r into the store without holding it in memory and
// returns its SHA-256 and length. The caller bounds r.
func (s *Store) PutReader(ctx context.Context, r io.Reader) (string, int64, error) {
	if err := ctx.Err(); err != nil {
		return "", 0, fmt.Errorf("evidence: put reader: %w", err)
	}
	dir := filepath.Join(s.root, blobsDir)
	tmp, err := createTemp(dir)
	if err != nil {
		return "", 0, fmt.Errorf("evidence: put reader: %w", err)
	}
	tmpName := tmp.Name()
	defer tmp.Close()        // last: the lock is held until the temporary name is gone
	defer os.Remove(tmpName) // no-op after a successful rename

	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(tmp, h), ctxReader{ctx, r})
	if err == nil {
		err = sealTemp(tmp)
	}
	if err != nil {
		return "", n, fmt.Errorf("evidence: put reader: %w", err)
	}
	sha := hex.EncodeToString(h.Sum(nil))
	if ok, err := s.verified(sha); err != nil {
		return "", n, fmt.Errorf("evidence: put reader %s: %w", sha, err)
	} else if ok {
		return sha, n, nil
	}
	if err := renameAndSyncDir(tmpName, filepath.Join(dir, sha)); err != nil {
		return "", n, fmt.Errorf("evidence: put reader %s: %w", sha, err)
	}
	return sha, n, nil
}

// ContextReader returns r read until ctx ends: every Read first checks ctx,
// so a long copy of a hostile or slow stream stops when the context does.
// Both backends' PutReader copy through it.
func ContextReader(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

// ctxReader stops a long copy when the context ends.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}

// verified reports whether a blob named sha exists and hashes to sha. A
// stored file that fails verification reports false so the caller rewrites
// it; any other I/O error is returned.
func (s *Store) verified(sha string) (bool, error) {
	_, err := s.read(sha)
	var corrupt *CorruptBlobError
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, ErrNotFound), errors.As(err, &corrupt):
		return false, nil
	default:
		return false, err
	}
}

// Get returns the bytes stored under sha after checking that they hash to
// sha. A missing blob is ErrNotFound (errors.Is); a blob whose bytes do not
// match is a *CorruptBlobError (errors.As).
func (s *Store) Get(ctx context.Context, sha string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get %s: %w", truncateForError(sha), err)
	}
	if err := ValidateHash(sha); err != nil {
		return nil, fmt.Errorf("evidence: get: %w", err)
	}
	data, err := s.read(sha)
	if err != nil {
		return nil, fmt.Errorf("evidence: get %s: %w", sha, err)
	}
	return data, nil
}

func (s *Store) read(sha string) ([]byte, error) {
	p := s.blobPath(sha)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("blob %s: %w", sha, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	if got := Sum(data); got != sha {
		return nil, &CorruptBlobError{Path: p, Want: sha, Got: got}
	}
	return data, nil
}

// Has reports whether a blob is stored under sha. It does not verify the
// bytes (Get does); it exists so callers can skip a download cheaply.
func (s *Store) Has(ctx context.Context, sha string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("evidence: has: %w", err)
	}
	if err := ValidateHash(sha); err != nil {
		return false, fmt.Errorf("evidence: has: %w", err)
	}
	fi, err := os.Stat(s.blobPath(sha))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("evidence: has %s: %w", sha, err)
	}
	return fi.Mode().IsRegular(), nil
}

// writeAtomic writes r to dir/name through a temp file in dir. When
// noReplace is non-nil the final step is a hard link instead of a rename, so
// an existing file wins; noReplace is then called to decide whether that
// existing file should be replaced after all (it failed verification).
func writeAtomic(dir, name string, r io.Reader, noReplace func() (replace bool, err error)) error {
	tmp, err := createTemp(dir)
	if err != nil {
		return err
	}
	tmpName := tmp.Name()
	defer tmp.Close()        // last: the lock is held until the temporary name is gone
	defer os.Remove(tmpName) // no-op after a successful rename or link
	if _, err := io.Copy(tmp, r); err != nil {
		return err
	}
	if err := sealTemp(tmp); err != nil {
		return err
	}
	final := filepath.Join(dir, name)
	if noReplace != nil {
		err := os.Link(tmpName, final)
		if err == nil {
			return syncDir(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
		replace, err := noReplace()
		if err != nil || !replace {
			return err
		}
	}
	return renameAndSyncDir(tmpName, final)
}

// createTemp creates a temporary file in dir and takes an exclusive flock
// on it, which the writer holds (the file stays open) until the file has its
// final name or is removed. The kernel drops the lock when the writer dies,
// so RemoveStaleTemps can tell a live writer's file from a killed one's.
func createTemp(dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, tempPrefix+"*")
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return f, nil
}

// sealTemp makes a temp file's bytes durable before it gets its final
// name, so a crash after the rename cannot leave an empty or partial blob.
// The file stays open: its lock must outlive the rename.
func sealTemp(f *os.File) error {
	// Blobs are immutable once named; read-only mode guards against an
	// accidental in-place edit. Rename and unlink still work (they need
	// the directory's permission, not the file's).
	if err := f.Chmod(0o444); err != nil {
		return err
	}
	return f.Sync()
}

func renameAndSyncDir(from, to string) error {
	if err := os.Rename(from, to); err != nil {
		return err
	}
	return syncDir(filepath.Dir(to))
}

// syncDir makes a rename durable: without it the new directory entry can be
// lost on power failure even though the file's bytes were synced.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	serr := d.Sync()
	cerr := d.Close()
	if serr != nil {
		return serr
	}
	return cerr
}

// hashOf is a small helper for the proposal key; sha256 is the only hash
// the store uses.
func hashOf(parts ...[]byte) string {
	var h hash.Hash = sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
