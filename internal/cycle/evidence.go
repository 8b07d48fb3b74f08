package cycle

import (
	"context"
	"path/filepath"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evstore"
)

// OpenEvidence opens the store a run cites: the run's own evidence/ when it
// carries one (EvidenceRoot: a demo or fixture run), else the store c names
// (ATTESTARI_EVIDENCE_URL through evstore; a zero c is home/evidence, the
// directory every home has always had).
func OpenEvidence(ctx context.Context, c evstore.Config, home, runDir string) (evidence.Backend, error) {
	if root := EvidenceRoot(home, runDir); root != filepath.Join(home, "evidence") {
		return evidence.Open(root)
	}
	if c.URL == "" {
		return evidence.Open(filepath.Join(home, "evidence"))
	}
	return evstore.Open(ctx, c)
}
