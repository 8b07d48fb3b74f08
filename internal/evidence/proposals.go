package evidence

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// ProposalKey identifies one analyzer call: which analyzer answered, the
// SHA-256 of the prompt bytes it was given, and the SHA-256 of the evidence
// it read (DESIGN.md decision 5). The same key always yields the cached
// answer, which is what makes a rerun over unchanged inputs byte-identical
// and free.
type ProposalKey struct {
	Analyzer       string `json:"analyzer"`
	PromptSHA256   string `json:"prompt_sha256"`
	EvidenceSHA256 string `json:"evidence_sha256"`
}

// Validate checks that the key can be stored: a non-empty analyzer id
// without control characters and two well-formed hashes.
func (k ProposalKey) Validate() error {
	if k.Analyzer == "" {
		return errors.New("proposal key: empty analyzer")
	}
	if !utf8.ValidString(k.Analyzer) {
		return errors.New("proposal key: analyzer is not valid UTF-8")
	}
	if strings.IndexFunc(k.Analyzer, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		return fmt.Errorf("proposal key: analyzer %q contains a control character", truncateForError(k.Analyzer))
	}
	if err := ValidateHash(k.PromptSHA256); err != nil {
		return fmt.Errorf("proposal key: prompt: %w", err)
	}
	if err := ValidateHash(k.EvidenceSHA256); err != nil {
		return fmt.Errorf("proposal key: evidence: %w", err)
	}
	return nil
}

// ID is the hash a proposal is filed under. The NUL separators and the
// version label keep two different keys from ever encoding to the same bytes.
func (k ProposalKey) ID() string {
	return hashOf([]byte("attestari-proposal-key-v1\x00"), []byte(k.Analyzer), []byte{0},
		[]byte(k.PromptSHA256), []byte{0}, []byte(k.EvidenceSHA256))
}

// proposalRecord is the file at proposals/<key id>.json. The proposal bytes
// themselves are an ordinary blob, so they are verified like every other
// blob and can be cited by hash.
type proposalRecord struct {
	ProposalKey
	ProposalSHA256 string `json:"proposal_sha256"`
}

func (s *Store) proposalPath(k ProposalKey) string {
	return filepath.Join(s.root, proposalsDir, k.ID()+".json")
}

// PutProposal caches an analyzer's answer under key and returns the SHA-256
// of the proposal blob the cache holds. The first answer stored under a key
// is kept: a later PutProposal (two workers missed the cache at once) leaves
// it in place and returns the stored blob's hash, so a caller that must use
// exactly what the cache holds can compare. A stored record that fails
// verification is replaced.
func (s *Store) PutProposal(ctx context.Context, key ProposalKey, proposal []byte) (string, error) {
	if err := key.Validate(); err != nil {
		return "", fmt.Errorf("evidence: put proposal: %w", err)
	}
	sha, err := s.Put(ctx, proposal)
	if err != nil {
		return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
	}
	rec, err := EncodeProposalRecord(key, sha)
	if err != nil {
		return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
	}

	stored := sha
	replaceIfBad := func() (bool, error) {
		existing, err := s.readProposalRecord(key)
		var corrupt *CorruptBlobError
		switch {
		case err == nil:
			stored = existing.ProposalSHA256
			if _, err := s.read(stored); err != nil {
				// The record is sound but its blob is gone or corrupt:
				// the new record (whose blob was just written) replaces it.
				stored = sha
				return true, nil
			}
			return false, nil
		case errors.As(err, &corrupt), errors.Is(err, ErrNotFound):
			return true, nil
		default:
			return false, err
		}
	}
	dir := filepath.Join(s.root, proposalsDir)
	if err := writeAtomic(dir, key.ID()+".json", bytes.NewReader(rec), replaceIfBad); err != nil {
		return "", fmt.Errorf("evidence: put proposal %s: %w", key.ID(), err)
	}
	return stored, nil
}

// GetProposal returns the cached answer for key, verified twice: the record
// must name exactly this key, and the proposal blob must match its hash.
// A miss is ErrNotFound; a record or blob that fails verification is a
// *CorruptBlobError.
func (s *Store) GetProposal(ctx context.Context, key ProposalKey) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("evidence: get proposal: %w", err)
	}
	if err := key.Validate(); err != nil {
		return nil, fmt.Errorf("evidence: get proposal: %w", err)
	}
	rec, err := s.readProposalRecord(key)
	if err != nil {
		return nil, fmt.Errorf("evidence: get proposal %s: %w", key.ID(), err)
	}
	data, err := s.read(rec.ProposalSHA256)
	if err != nil {
		return nil, fmt.Errorf("evidence: get proposal %s: %w", key.ID(), err)
	}
	return data, nil
}

func (s *Store) readProposalRecord(key ProposalKey) (proposalRecord, error) {
	p := s.proposalPath(key)
	raw, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return proposalRecord{}, fmt.Errorf("proposal %s: %w", key.ID(), ErrNotFound)
	}
	if err != nil {
		return proposalRecord{}, err
	}
	sha, err := DecodeProposalRecord(p, key, raw)
	if err != nil {
		return proposalRecord{}, err
	}
	rec := proposalRecord{ProposalKey: key, ProposalSHA256: sha}
	return rec, nil
}
