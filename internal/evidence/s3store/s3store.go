// Package s3store is the evidence store (evidence.Backend) on an
// S3-compatible object store, through the MinIO client. It keeps the layout
// of the directory backend under a bucket and an optional prefix:
// <prefix>/blobs/<sha256>, <prefix>/proposals/<key id>.json and
// <prefix>/runs/<run id>/<name>.
//
// Its guarantees are the directory backend's, by other means:
//
//   - Every Get re-hashes the bytes and refuses an object that does not
//     match its name (*evidence.CorruptBlobError); GetProposal verifies the
//     record and the blob it names; GetRunObject checks the SHA-256 the
//     object was written with (its x-amz-meta-attestari-sha256).
//   - A write is one PUT of the whole object, and S3 makes a PUT atomic per
//     object: a reader sees the old object or the new one, never part of
//     one. There are no temporary objects, so nothing is left behind by a
//     killed writer and there is nothing for RemoveStaleTemps to do (this
//     backend has none). PutReader spools the stream to an unlinked local
//     temporary file while hashing it (the key is the hash, known only at
//     the end), then PUTs from there; the kernel frees that file when the
//     writer ends, however it ends.
//   - A Put of a blob already stored verifies what is there and leaves it;
//     otherwise it PUTs with If-None-Match: *, so of two workers writing
//     one blob the second's PUT is refused (412) and it verifies the first's
//     instead. A stored object that fails verification is replaced. A
//     server that ignores If-None-Match lets the second PUT replace the
//     first with the same bytes, which cannot corrupt a content-addressed
//     blob. A proposal record is written the same way, then read back, so
//     PutProposal returns what the store holds even on such a server.
//   - Transient failures (network errors, 408, 429, 5xx) are retried by the
//     MinIO client's own loop (exponential backoff with full jitter, capped
//     at one second per wait, Config.MaxRetries attempts); every request
//     carries ctx, so a cancelled context ends a retry loop and a transfer.
//
// Nothing here lists the bucket: every key is computed from a hash or from a
// run object's name. Credentials are never logged and never appear in an
// error or in Location.
package s3store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/attestari/attestari/internal/evidence"
)

// shaMeta is the user metadata key a run object's SHA-256 is written under
// (x-amz-meta-attestari-sha256 on the wire).
const shaMeta = "Attestari-Sha256"

// DefaultMaxRetries is how many times the MinIO client tries a request that
// failed transiently when Config.MaxRetries is zero.
const DefaultMaxRetries = 5

// Config says which bucket to use and how to reach it.
type Config struct {
	// Endpoint is host:port of the S3 API.
	Endpoint string
	// Secure selects HTTPS.
	Secure bool
	// Region is sent in request signatures; empty asks the server.
	Region string
	// Bucket must exist; Open does not create it.
	Bucket string
	// Prefix is prepended to every key (no leading or trailing '/').
	Prefix string
	// AccessKey and SecretKey sign every request.
	AccessKey, SecretKey string
	// MaxRetries bounds the client's attempts per request; zero takes
	// DefaultMaxRetries, one disables retrying.
	MaxRetries int
	// Transport replaces the client's HTTP transport (tests).
	Transport http.RoundTripper
}

// Errors Open returns; classify with errors.Is.
var (
	// ErrNoCredentials: AccessKey or SecretKey is empty.
	ErrNoCredentials = errors.New("s3 evidence store: no credentials")
	// ErrNoBucket: the bucket does not exist at the endpoint.
	ErrNoBucket = errors.New("s3 evidence store: bucket does not exist")
)

// Store is an evidence.Backend on one bucket and prefix. It is safe for
// concurrent use, and by several processes on several machines at once.
type Store struct {
	c      *minio.Client
	bucket string
	prefix string // "" or "p/" (with its trailing slash)
	loc    string
}

var _ evidence.Backend = (*Store)(nil)

// Open connects to the bucket and checks that it exists (one request).
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Endpoint == "" || cfg.Bucket == "" {
		return nil, errors.New("s3 evidence store: endpoint and bucket are required")
	}
	if cfg.AccessKey == "" || cfg.SecretKey == "" {
		return nil, ErrNoCredentials
	}
	if err := validatePrefix(cfg.Prefix); err != nil {
		return nil, err
	}
	retries := cfg.MaxRetries
	if retries <= 0 {
		retries = DefaultMaxRetries
	}
	c, err := minio.New(cfg.Endpoint, &minio.Options{
		Creds:      credentials.NewStaticV4(cfg.AccessKey, cfg.SecretKey, ""),
		Secure:     cfg.Secure,
		Region:     cfg.Region,
		Transport:  cfg.Transport,
		MaxRetries: retries,
	})
	if err != nil {
		return nil, fmt.Errorf("s3 evidence store: client for %s: %w", cfg.Endpoint, err)
	}
	s := &Store{c: c, bucket: cfg.Bucket}
	if cfg.Prefix != "" {
		s.prefix = cfg.Prefix + "/"
	}
	s.loc = "s3://" + cfg.Bucket + "/" + cfg.Prefix
	ok, err := c.BucketExists(ctx, cfg.Bucket)
	if err != nil {
		return nil, fmt.Errorf("s3 evidence store: %s at %s: %w", s.loc, cfg.Endpoint, err)
	}
	if !ok {
		return nil, fmt.Errorf("%w: %q at %s (create it first)", ErrNoBucket, cfg.Bucket, cfg.Endpoint)
	}
	return s, nil
}

// validatePrefix refuses a prefix with empty, "." or ".." segments or a
// leading or trailing slash: every key must be exactly prefix + layout.
func validatePrefix(p string) error {
	if p == "" {
		return nil
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("s3 evidence store: prefix %q: empty, '.' or '..' segment", p)
		}
	}
	return nil
}

// Location is s3://bucket/prefix.
func (s *Store) Location() string { return s.loc }

// Bucket is the bucket the store lives in.
func (s *Store) Bucket() string { return s.bucket }

// Key returns the object key of a layout path (evidence.BlobKey and the
// like): the prefix and the path.
func (s *Store) Key(rel string) string { return s.prefix + rel }

func (s *Store) where(key string) string { return "s3://" + s.bucket + "/" + key }

// Put stores data and returns its SHA-256.
func (s *Store) Put(ctx context.Context, data []byte) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", fmt.Errorf("evidence: put: %w", err)
	}
	sha := evidence.Sum(data)
	if err := s.putBlob(ctx, sha, func() (io.Reader, int64, error) { return bytes.NewReader(data), int64(len(data)), nil }); err != nil {
		return "", fmt.Errorf("evidence: put %s: %w", sha, err)
	}
	return sha, nil
}

// PutReader spools r to an unlinked temporary file while hashing it, then
// stores it under its hash.
func (s *Store) PutReader(ctx context.Context, r io.Reader) (string, int64, error) {
	if err := ctx.Err(); err != nil {
		return "", 0, fmt.Errorf("evidence: put reader: %w", err)
	}
	f, err := os.CreateTemp("", "attestari-s3-put-*")
	if err != nil {
		return "", 0, fmt.Errorf("evidence: put reader: %w", err)
	}
	defer f.Close()
	// Unlinked at once: the bytes live as long as the descriptor, and no
	// name is left behind by a kill.
	if err := os.Remove(f.Name()); err != nil {
		return "", 0, fmt.Errorf("evidence: put reader: %w", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), evidence.ContextReader(ctx, r))
	if err != nil {
		return "", n, fmt.Errorf("evidence: put reader: %w", err)
	}
	sha := hex.EncodeToString(h.Sum(nil))
	open := func() (io.Reader, int64, error) {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, 0, err
		}
		return f, n, nil
	}
	if err := s.putBlob(ctx, sha, open); err != nil {
		return "", n, fmt.Errorf("evidence: put reader %s: %w", sha, err)
	}
	return sha, n, nil
}

// putBlob stores the bytes body yields under blobs/sha unless a verified
// copy is already there. body may be called twice (the conditional PUT, and
// the replacement of a corrupt object).
func (s *Store) putBlob(ctx context.Context, sha string, body func() (io.Reader, int64, error)) error {
	key := s.Key(evidence.BlobKey(sha))
	ok, err := s.blobVerified(ctx, sha)
	if err != nil || ok {
		return err
	}
	created, err := s.put(ctx, key, body, nil, true)
	if err != nil || created {
		return err
	}
	// Another writer stored it between our read and our PUT: verify theirs.
	ok, err = s.blobVerified(ctx, sha)
	if err != nil || ok {
		return err
	}
	_, err = s.put(ctx, key, body, nil, false)
	return err
}

// blobVerified reports whether blobs/sha exists and hashes to sha; a
// missing or corrupt object is false, any other failure an error.
func (s *Store) blobVerified(ctx context.Context, sha string) (bool, error) {
	_, err := s.readBlob(ctx, sha)
	var corrupt *evidence.CorruptBlobError
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, evidence.ErrNotFound), errors.As(err, &corrupt):
		return false, nil
	default:
		return false, err
	}
}

// put writes one object whole. With ifAbsent the PUT carries
// If-None-Match: * and created is false when the server refused it because
// the key exists.
func (s *Store) put(ctx context.Context, key string, body func() (io.Reader, int64, error), meta map[string]string, ifAbsent bool) (created bool, err error) {
	r, n, err := body()
	if err != nil {
		return false, err
	}
	opts := minio.PutObjectOptions{
		ContentType:    "application/octet-stream",
		SendContentMd5: true,
		UserMetadata:   meta,
	}
	if ifAbsent {
		opts.SetMatchETagExcept("*")
	}
	_, err = s.c.PutObject(ctx, s.bucket, key, r, n, opts)
	if err == nil {
		return true, nil
	}
	if ifAbsent && isPreconditionFailed(err) {
		return false, nil
	}
	return false, s.wrap(ctx, key, err)
}

// Get returns the verified bytes of blobs/sha.
func (s *Store) Get(ctx context.Context, sha string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get %s: %w", sha, err)
	}
	if err := evidence.ValidateHash(sha); err != nil {
		return nil, fmt.Errorf("evidence: get: %w", err)
	}
	data, err := s.readBlob(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("evidence: get %s: %w", sha, err)
	}
	return data, nil
}

func (s *Store) readBlob(ctx context.Context, sha string) ([]byte, error) {
	key := s.Key(evidence.BlobKey(sha))
	data, _, err := s.read(ctx, key)
	if err != nil {
		return nil, err
	}
	if got := evidence.Sum(data); got != sha {
		return nil, &evidence.CorruptBlobError{Path: s.where(key), Want: sha, Got: got}
	}
	return data, nil
}

// read returns an object's bytes and user metadata. A missing object is
// evidence.ErrNotFound.
func (s *Store) read(ctx context.Context, key string) ([]byte, map[string]string, error) {
	obj, err := s.c.GetObject(ctx, s.bucket, key, minio.GetObjectOptions{})
	if err != nil {
		return nil, nil, s.wrap(ctx, key, err)
	}
	defer obj.Close()
	// Read first: the first read is the one GET, and the metadata come
	// from its answer. A Stat before it would be a HEAD of its own, and a
	// writer replacing the object between the two would pair one object's
	// metadata with another's bytes.
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(obj); err != nil {
		return nil, nil, s.wrap(ctx, key, err)
	}
	info, err := obj.Stat()
	if err != nil {
		return nil, nil, s.wrap(ctx, key, err)
	}
	return buf.Bytes(), info.UserMetadata, nil
}

// Has reports whether blobs/sha exists (a HEAD; Get verifies).
func (s *Store) Has(ctx context.Context, sha string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("evidence: has: %w", err)
	}
	if err := evidence.ValidateHash(sha); err != nil {
		return false, fmt.Errorf("evidence: has: %w", err)
	}
	key := s.Key(evidence.BlobKey(sha))
	_, err := s.c.StatObject(ctx, s.bucket, key, minio.StatObjectOptions{})
	if err == nil {
		return true, nil
	}
	if err := s.wrap(ctx, key, err); !errors.Is(err, evidence.ErrNotFound) {
		return false, fmt.Errorf("evidence: has %s: %w", sha, err)
	}
	return false, nil
}

// PutProposal stores the proposal blob, then its record if no record is
// there, and returns the SHA-256 of the proposal the stored record names.
func (s *Store) PutProposal(ctx context.Context, key evidence.ProposalKey, proposal []byte) (string, error) {
	if err := key.Validate(); err != nil {
		return "", fmt.Errorf("evidence: put proposal: %w", err)
	}
	sha, err := s.Put(ctx, proposal)
	if err != nil {
		return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
	}
	rec, err := evidence.EncodeProposalRecord(key, sha)
	if err != nil {
		return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
	}
	okey := s.Key(evidence.ProposalKeyPath(key))
	body := func() (io.Reader, int64, error) { return bytes.NewReader(rec), int64(len(rec)), nil }
	// Two rounds at most: the conditional PUT (or the verification of the
	// record another writer put first), then a replacement when the stored
	// record or its blob fails verification.
	for round := 0; round < 2; round++ {
		stored, err := s.storedProposal(ctx, key)
		var corrupt *evidence.CorruptBlobError
		switch {
		case err == nil:
			return stored, nil
		case errors.Is(err, evidence.ErrNotFound) && round == 0:
			if _, err := s.put(ctx, okey, body, nil, true); err != nil {
				return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
			}
			continue // read back what the store holds: ours or a racer's
		case errors.Is(err, evidence.ErrNotFound), errors.As(err, &corrupt):
		default:
			return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
		}
		if _, err := s.put(ctx, okey, body, nil, false); err != nil {
			return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
		}
	}
	return sha, nil
}

// storedProposal returns the proposal SHA-256 the stored record names, after
// verifying the record and the blob.
func (s *Store) storedProposal(ctx context.Context, key evidence.ProposalKey) (string, error) {
	okey := s.Key(evidence.ProposalKeyPath(key))
	raw, _, err := s.read(ctx, okey)
	if err != nil {
		return "", err
	}
	sha, err := evidence.DecodeProposalRecord(s.where(okey), key, raw)
	if err != nil {
		return "", err
	}
	if _, err := s.readBlob(ctx, sha); err != nil {
		if errors.Is(err, evidence.ErrNotFound) {
			// A sound record whose blob is gone is as good as no record.
			return "", &evidence.CorruptBlobError{Path: s.where(okey), Want: key.ID()}
		}
		return "", err
	}
	return sha, nil
}

// GetProposal returns the cached answer for key, verified twice: the record
// must name exactly this key, and the proposal blob must match its hash.
func (s *Store) GetProposal(ctx context.Context, key evidence.ProposalKey) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get proposal: %w", err)
	}
	if err := key.Validate(); err != nil {
		return nil, fmt.Errorf("evidence: get proposal: %w", err)
	}
	okey := s.Key(evidence.ProposalKeyPath(key))
	raw, _, err := s.read(ctx, okey)
	if err != nil {
		return nil, fmt.Errorf("evidence: get proposal %s: %w", key.ID(), err)
	}
	sha, err := evidence.DecodeProposalRecord(s.where(okey), key, raw)
	if err != nil {
		return nil, fmt.Errorf("evidence: get proposal %s: %w", key.ID(), err)
	}
	data, err := s.readBlob(ctx, sha)
	if err != nil {
		return nil, fmt.Errorf("evidence: get proposal %s: %w", key.ID(), err)
	}
	return data, nil
}

// PutRunObject writes runs/<runID>/<name> whole, with its SHA-256 in the
// object's metadata for GetRunObject to check.
func (s *Store) PutRunObject(ctx context.Context, runID, name string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("evidence: put run object: %w", err)
	}
	rel, err := evidence.RunObjectKey(runID, name)
	if err != nil {
		return fmt.Errorf("evidence: put run object: %w", err)
	}
	key := s.Key(rel)
	body := func() (io.Reader, int64, error) { return bytes.NewReader(data), int64(len(data)), nil }
	if _, err := s.put(ctx, key, body, map[string]string{shaMeta: evidence.Sum(data)}, false); err != nil {
		return fmt.Errorf("evidence: put run object %s: %w", rel, err)
	}
	return nil
}

// GetRunObject reads runs/<runID>/<name> back and checks it against the
// SHA-256 it was written with; an object without one, or whose bytes do not
// match it, is a *evidence.CorruptBlobError.
func (s *Store) GetRunObject(ctx context.Context, runID, name string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get run object: %w", err)
	}
	rel, err := evidence.RunObjectKey(runID, name)
	if err != nil {
		return nil, fmt.Errorf("evidence: get run object: %w", err)
	}
	key := s.Key(rel)
	data, meta, err := s.read(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("evidence: get run object %s: %w", rel, err)
	}
	want := metaValue(meta, shaMeta)
	if got := evidence.Sum(data); want != got {
		return nil, fmt.Errorf("evidence: get run object %s: %w", rel, &evidence.CorruptBlobError{Path: s.where(key), Want: want, Got: got})
	}
	return data, nil
}

// metaValue finds a user metadata value whatever case the server returned
// its name in.
func metaValue(meta map[string]string, name string) string {
	for k, v := range meta {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// wrap turns a client error into the package's vocabulary: a missing key is
// evidence.ErrNotFound, and an error after ctx ended wraps ctx's error.
func (s *Store) wrap(ctx context.Context, key string, err error) error {
	if cerr := ctx.Err(); cerr != nil {
		return fmt.Errorf("%s: %w", s.where(key), cerr)
	}
	resp := minio.ToErrorResponse(err)
	switch {
	case resp.Code == "NoSuchKey" || resp.StatusCode == http.StatusNotFound && resp.Code != "NoSuchBucket":
		return fmt.Errorf("%s: %w", s.where(key), evidence.ErrNotFound)
	}
	return fmt.Errorf("%s: %w", s.where(key), err)
}

// isPreconditionFailed reports the server's refusal of If-None-Match: *
// because the key exists (412), or the conflict of two conditional PUTs
// racing (409 ConditionalRequestConflict).
func isPreconditionFailed(err error) bool {
	resp := minio.ToErrorResponse(err)
	return resp.StatusCode == http.StatusPreconditionFailed || resp.Code == "PreconditionFailed" ||
		resp.Code == "ConditionalRequestConflict"
}
