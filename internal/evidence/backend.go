package evidence

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Backend is everything the product stores outside a run directory's
// working files, behind one interface with two implementations: *Store (a
// directory, the layout of every existing home) and package
// internal/evidence/s3store (an S3-compatible object store). Package
// internal/evstore opens the one ATTESTARI_EVIDENCE_URL names.
//
// It holds three kinds of thing, each with the same guarantees on both
// backends:
//
//   - content-addressed blobs (blobs/<sha256>): every Get re-hashes the bytes
//     and refuses a blob that no longer matches its name (*CorruptBlobError);
//     a Put of bytes already stored verifies what is there and leaves it,
//     replacing it only when it fails verification, so two writers of one
//     blob never corrupt it;
//   - proposal records (proposals/<key id>.json) by (analyzer, prompt
//     SHA-256, evidence SHA-256): the first answer stored under a key is
//     kept, and both the record and the proposal blob it names are verified
//     on every read;
//   - named run objects (runs/<run id>/<name>): a run's files, written whole
//     and read back whole. A reader sees the previous object or the new one,
//     never part of either. They are addressed by name only: the names a run
//     has are known from package rundir and the run's own index, so nothing
//     lists a directory or a bucket to find them.
//
// A missing blob, record or run object is ErrNotFound (errors.Is). Every
// method takes ctx first and stops when it ends. Implementations are safe
// for concurrent use by goroutines and by processes sharing the store.
type Backend interface {
	Blobs
	Proposals
	RunObjects
	// Location names the store for logs and errors: a file:// URL or an
	// s3://bucket/prefix URL, never a credential.
	Location() string
}

// Blobs is the content-addressed part of a Backend.
type Blobs interface {
	// Put stores data and returns its SHA-256 in lowercase hex.
	Put(ctx context.Context, data []byte) (string, error)
	// PutReader streams r into the store and returns its SHA-256 and
	// length. The caller bounds r.
	PutReader(ctx context.Context, r io.Reader) (string, int64, error)
	// Get returns the bytes stored under sha after checking that they hash
	// to sha.
	Get(ctx context.Context, sha string) ([]byte, error)
	// Has reports whether a blob is stored under sha, without reading it
	// (Get verifies); it lets a caller skip a download cheaply.
	Has(ctx context.Context, sha string) (bool, error)
}

// Proposals is the analyzer's answer cache (DESIGN.md decision 5).
type Proposals interface {
	// PutProposal caches an answer under key and returns the SHA-256 of
	// the proposal blob the cache holds: the first answer stored under the
	// key, which may not be this one.
	PutProposal(ctx context.Context, key ProposalKey, proposal []byte) (string, error)
	// GetProposal returns the cached answer for key, verified.
	GetProposal(ctx context.Context, key ProposalKey) ([]byte, error)
}

// RunObjects are a run's named files in the shared store, so workers on
// several machines can write a run's per-package results and one of them
// can assemble the run. runID follows the run-id rule of package pipeline;
// name is one or more segments joined by '/' (ValidateRunObject).
type RunObjects interface {
	// PutRunObject writes data whole under runs/<runID>/<name>, replacing
	// any object of that name atomically.
	PutRunObject(ctx context.Context, runID, name string, data []byte) error
	// GetRunObject reads runs/<runID>/<name> back; a missing object is
	// ErrNotFound.
	GetRunObject(ctx context.Context, runID, name string) ([]byte, error)
}

// Both backends implement Backend.
var _ Backend = (*Store)(nil)

// Layout: the key (relative path) of each kind of thing under the store's
// root, the same on both backends.
const runsDir = "runs"

// BlobKey is the key a blob with hash sha is stored under, relative to the
// store's root ("blobs/<sha>"). The caller has validated sha.
func BlobKey(sha string) string { return blobsDir + "/" + sha }

// ProposalKeyPath is the key a proposal record for k is stored under,
// relative to the store's root ("proposals/<key id>.json").
func ProposalKeyPath(k ProposalKey) string { return proposalsDir + "/" + k.ID() + ".json" }

// RunObjectKey is the key of a run object, relative to the store's root
// ("runs/<runID>/<name>"), after ValidateRunObject.
func RunObjectKey(runID, name string) (string, error) {
	if err := ValidateRunObject(runID, name); err != nil {
		return "", err
	}
	return runsDir + "/" + runID + "/" + name, nil
}

// ErrBadRunObject is returned (wrapped) for a run id or object name that
// breaks ValidateRunObject's rule.
var ErrBadRunObject = errors.New("evidence: malformed run id or run object name")

// runSegmentRe is one segment of a run id or object name: the run-id rule
// of package pipeline. A segment cannot start with '.', so no name is "."
// or "..", and none collides with this package's temporary files.
var runSegmentRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)

// maxRunObjectSegments bounds a name's depth (packages/<file> is two).
const maxRunObjectSegments = 4

// ValidateRunObject checks a run id (one segment) and an object name (one to
// four segments joined by '/'), each segment a letter or digit followed by
// up to 127 letters, digits, '.', '_' or '-'. Nothing else can name a key,
// so a name never leaves runs/<runID>/ on either backend.
func ValidateRunObject(runID, name string) error {
	if !runSegmentRe.MatchString(runID) {
		return fmt.Errorf("%w: run id %q", ErrBadRunObject, truncateForError(runID))
	}
	segs := strings.Split(name, "/")
	if len(segs) > maxRunObjectSegments {
		return fmt.Errorf("%w: name %q has more than %d segments", ErrBadRunObject, truncateForError(name), maxRunObjectSegments)
	}
	for _, s := range segs {
		if !runSegmentRe.MatchString(s) {
			return fmt.Errorf("%w: name %q", ErrBadRunObject, truncateForError(name))
		}
	}
	return nil
}

// EncodeProposalRecord is the exact bytes of the record filed under key that
// names the proposal blob proposalSHA: the same on both backends, so a store
// copied from one to the other reads back alike.
func EncodeProposalRecord(key ProposalKey, proposalSHA string) ([]byte, error) {
	rec, err := json.Marshal(proposalRecord{ProposalKey: key, ProposalSHA256: proposalSHA})
	if err != nil {
		return nil, err
	}
	return append(rec, '\n'), nil
}

// DecodeProposalRecord reads the record stored at where (a path or URL, for
// the error) for key and returns the SHA-256 of the proposal blob it names.
// A record that does not parse strictly, or names another key, is a
// *CorruptBlobError.
func DecodeProposalRecord(where string, key ProposalKey, raw []byte) (string, error) {
	var rec proposalRecord
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil || len(bytes.TrimSpace(raw[dec.InputOffset():])) != 0 {
		return "", &CorruptBlobError{Path: where, Want: key.ID()}
	}
	if rec.ProposalKey.Validate() != nil || ValidateHash(rec.ProposalSHA256) != nil {
		return "", &CorruptBlobError{Path: where, Want: key.ID()}
	}
	if got := rec.ProposalKey.ID(); got != key.ID() {
		return "", &CorruptBlobError{Path: where, Want: key.ID(), Got: got}
	}
	return rec.ProposalSHA256, nil
}

// Location returns the store's file:// URL.
func (s *Store) Location() string { return "file://" + filepath.ToSlash(s.root) }

// PutRunObject writes data to <root>/runs/<runID>/<name> through a temporary
// file in the same directory, synced and renamed into place (the directory
// is synced too), so a reader sees the old file or the new one.
func (s *Store) PutRunObject(ctx context.Context, runID, name string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("evidence: put run object: %w", err)
	}
	key, err := RunObjectKey(runID, name)
	if err != nil {
		return fmt.Errorf("evidence: put run object: %w", err)
	}
	p := filepath.Join(s.root, filepath.FromSlash(key))
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("evidence: put run object %s: %w", key, err)
	}
	if err := writeAtomic(dir, filepath.Base(p), bytes.NewReader(data), nil); err != nil {
		return fmt.Errorf("evidence: put run object %s: %w", key, err)
	}
	return nil
}

// GetRunObject reads <root>/runs/<runID>/<name>.
func (s *Store) GetRunObject(ctx context.Context, runID, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get run object: %w", err)
	}
	key, err := RunObjectKey(runID, name)
	if err != nil {
		return nil, fmt.Errorf("evidence: get run object: %w", err)
	}
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(key)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("evidence: get run object %s: %w", key, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("evidence: get run object %s: %w", key, err)
	}
	return data, nil
}
