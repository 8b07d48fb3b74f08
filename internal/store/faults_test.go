package store_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// warm makes n pooled connections by holding n reads at once.
func warm(t *testing.T, s *store.Store, n int) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() { errs <- store.Sleep(context.Background(), s, 200*time.Millisecond) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("warm the pool: %v", err)
		}
	}
	if got := store.PoolConns(s); got != n {
		t.Fatalf("want %d pooled connections before the restart, have %d", n, got)
	}
}

// readAll runs n reads at once and returns their errors.
func readAll(s *store.Store, n int) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_, errs[i] = s.ListRuns(ctx, "", 10)
		})
	}
	wg.Wait()
	return errs
}

// TestFirstReadsAfterRestart restarts the server under a pool whose every
// connection was open before: the first reads after it must all succeed,
// whether they come at once (the stale connections were used less than the
// ping threshold ago) or after a pause (pgxpool pings them first).
func TestFirstReadsAfterRestart(t *testing.T) {
	t.Parallel()
	c := dbtest.Private(t)
	const n = 8
	s, err := store.Open(context.Background(), c.URL, store.Options{MaxConns: n})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for _, pause := range []time.Duration{0, 1500 * time.Millisecond} {
		warm(t, s, n)
		if err := c.Down(ctx); err != nil {
			t.Fatal(err)
		}
		if err := c.Up(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(pause)
		for i, err := range readAll(s, n) {
			if err != nil {
				t.Errorf("pause %v: read %d after the restart failed: %v", pause, i, err)
			}
		}
	}
}

// TestOutageIsUnavailable: with the server down, a read fails with
// ErrUnavailable (the API's 503), not an unclassified error; once it is up
// again reads succeed without reopening the store.
func TestOutageIsUnavailable(t *testing.T) {
	t.Parallel()
	c := dbtest.Private(t)
	s, err := store.Open(context.Background(), c.URL, store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	warm(t, s, 4)
	if err := c.Down(ctx); err != nil {
		t.Fatal(err)
	}
	for i, err := range readAll(s, 6) {
		if !errors.Is(err, vocab.ErrUnavailable) {
			t.Errorf("read %d during the outage: want vocab.ErrUnavailable, got %v", i, err)
		}
	}
	if err := c.Up(ctx); err != nil {
		t.Fatal(err)
	}
	for i, err := range readAll(s, 6) {
		if err != nil {
			t.Errorf("read %d after the outage: %v", i, err)
		}
	}
}

// TestFrozenReadEndsAtTheDeadline: a frozen server answers nothing and no
// statement_timeout fires; the caller's deadline ends the read as
// ErrTimeout, and after a thaw the pool serves again.
func TestFrozenReadEndsAtTheDeadline(t *testing.T) {
	t.Parallel()
	c := dbtest.Private(t)
	s, err := store.Open(context.Background(), c.URL, store.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	warm(t, s, 4)
	if err := c.Freeze(); err != nil {
		t.Fatal(err)
	}
	defer c.Thaw()
	for i, err := range readAllWithin(s, 6, 500*time.Millisecond) {
		if !errors.Is(err, vocab.ErrTimeout) {
			t.Errorf("read %d while frozen: want vocab.ErrTimeout, got %v", i, err)
		}
	}
	if err := c.Thaw(); err != nil {
		t.Fatal(err)
	}
	for i, err := range readAll(s, 6) {
		if err != nil {
			t.Errorf("read %d after the thaw: %v", i, err)
		}
	}
}

// TestStatementTimeoutIsTimeout: a statement the server cancels for its
// statement_timeout is ErrTimeout, not ErrUnavailable (the server is there;
// the work was too long).
func TestStatementTimeoutIsTimeout(t *testing.T) {
	t.Parallel()
	s, err := store.Open(context.Background(), dbtest.URL(t), store.Options{MaxConns: 2, StatementTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = store.SleepRead(context.Background(), s, time.Second)
	if !errors.Is(err, vocab.ErrTimeout) || errors.Is(err, vocab.ErrUnavailable) {
		t.Fatalf("want vocab.ErrTimeout only, got %v", err)
	}
}

func readAllWithin(s *store.Store, n int, d time.Duration) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			defer cancel()
			_, errs[i] = s.ListRuns(ctx, "", 10)
		})
	}
	wg.Wait()
	return errs
}

// TestPreparedReadsAfterRestart: a statement pgx had prepared on a
// connection reports the connection's death on the first row, not from
// Query; that read (Query, then Next) and a QueryRow are tried again on a
// new connection too.
func TestPreparedReadsAfterRestart(t *testing.T) {
	t.Parallel()
	c := dbtest.Private(t)
	const n = 6
	s, err := store.Open(context.Background(), c.URL, store.Options{MaxConns: n})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	for name, read := range map[string]func(context.Context, *store.Store, time.Duration) error{"rows": store.ReadRows, "row": store.ReadRow} {
		// n reads held at once: each connection runs, so prepares, the statement.
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				if err := read(ctx, s, 200*time.Millisecond); err != nil {
					t.Errorf("%s: warm: %v", name, err)
				}
			})
		}
		wg.Wait()
		if err := c.Down(ctx); err != nil {
			t.Fatal(err)
		}
		if err := c.Up(ctx); err != nil {
			t.Fatal(err)
		}
		for range n {
			wg.Go(func() {
				if err := read(ctx, s, 0); err != nil {
					t.Errorf("%s: read after the restart: %v", name, err)
				}
			})
		}
		wg.Wait()
	}
}
