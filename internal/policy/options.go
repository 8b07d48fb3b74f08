package policy

import (
	"context"
	"time"

	"github.com/attestari/attestari/internal/rundir"
)

// Options carries what a decision needs besides the run: the clock and the
// code's identity. Every field is optional except Now.
type Options struct {
	Now        func() time.Time
	CodeCommit string
	CodeDirty  bool
	// PromptSHA256 is the SHA-256 of the findings prompt of the deciding code,
	// stamped as reconstructed only when the run header recorded none.
	PromptSHA256 string
	// OpenArtifact opens a stored artifact's bytes and returns a reader of its
	// members by path (internal/artifact wired by cmd/attestari). With it, a
	// capability whose file is not itself a blob is verified against the
	// artifact; without it, such a capability is not_verifiable.
	OpenArtifact func(ctx context.Context, data []byte) (func(path string) ([]byte, bool), error)
	// ContextTags computes the exfiltrate_data context tags at decision time
	// (internal/checks exfil_context). Nil keeps the tags the run recorded.
	ContextTags func(ctx context.Context, f rundir.Finding, s *rundir.Surface, member func(path string) ([]byte, bool)) ([]rundir.ContextTag, error)
	// SharedHostsFromMachine says ContextTags took its shared hosts from
	// the deciding machine because the run's run.json records none (a run
	// written before methodology 2.3.5); every row is then stamped
	// shared_hosts_source "deciding_machine".
	SharedHostsFromMachine bool
}
