package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// PublicationsChannel is the notification channel LoadPublication notifies,
// inside its transaction, with the publication id: listeners hear of a
// publication exactly when it becomes visible.
const PublicationsChannel = "attestari_publications"

// WatchPublications calls changed(true) once it listens on
// PublicationsChannel and again on every notification, and changed(false)
// whenever it stops listening (a lost connection, then ctx ending). While it
// reconnects no notification can be heard, so a caller that caches what it
// reads must not trust the cache between a changed(false) and the next
// changed(true): a publication loaded in between is announced only by that
// changed(true).
//
// It runs on its own connection, outside the pool, until ctx ends; then it
// returns ctx's error. Reconnection waits grow from 100 ms to 5 s while
// connecting fails, and start again from 100 ms after a session that listened.
func (s *Store) WatchPublications(ctx context.Context, changed func(live bool)) error {
	const first = 100 * time.Millisecond
	wait := first
	for {
		listened, err := s.listen(ctx, changed)
		if s.route != nil {
			s.route.live.Store(false) // every read on the primary until heard again
		}
		changed(false)
		if listened {
			wait = first
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if s.watchErr != nil {
			s.watchErr(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait = min(wait*2, 5*time.Second)
	}
}

// heard raises the replicas' floor to the primary's WAL position before a
// listener is told of a change (replica.go); nothing without replicas.
func (s *Store) heard(ctx context.Context, conn *pgx.Conn) error {
	if s.route == nil {
		return nil
	}
	return s.route.heard(ctx, conn)
}

// listen holds one LISTEN session until it fails or ctx ends, and reports
// whether it got as far as listening.
func (s *Store) listen(ctx context.Context, changed func(live bool)) (bool, error) {
	conn, err := pgx.ConnectConfig(ctx, s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return false, fmt.Errorf("watch publications: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{PublicationsChannel}.Sanitize()); err != nil {
		return false, fmt.Errorf("watch publications: listen: %w", err)
	}
	if err := s.heard(ctx, conn); err != nil {
		return false, err
	}
	changed(true)
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return true, ctx.Err()
			}
			return true, fmt.Errorf("watch publications: %w", err)
		}
		if err := s.heard(ctx, conn); err != nil {
			if ctx.Err() != nil {
				return true, ctx.Err()
			}
			return true, err
		}
		changed(true)
	}
}
