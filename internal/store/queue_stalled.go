package store

import (
	"context"
	"fmt"

	"github.com/attestari/attestari/internal/store/internal/dbq"
	"github.com/attestari/attestari/internal/vocab"
)

// QueueRunsStalled lists, in run id order after after, at most limit
// queued runs that are not finished and whose wave being examined has no
// package pending: each must have its wave's finish job queued or running,
// and internal/queue's sweep enqueues it again when it has none (a finish
// job River discarded).
func (s *Store) QueueRunsStalled(ctx context.Context, after string, limit int) ([]string, error) {
	ids, err := s.q.QueueRunsStalledPage(ctx, dbq.QueueRunsStalledPageParams{Status: vocab.QueueRunQueued, After: after, Lim: int32(limit)})
	if err != nil {
		return nil, fmt.Errorf("queued runs: list those with no package pending: %w", err)
	}
	return ids, nil
}
