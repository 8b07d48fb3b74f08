package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
)

// TestWatchPublicationsHearsEveryCommittedLoad: the watcher says it listens,
// then hears a load only once it commits, and says it stopped when its
// context ends.
//
// Not parallel: it installs the package-wide load hook.
func TestWatchPublicationsHearsEveryCommittedLoad(t *testing.T) {
	s := dbtest.Open(t)
	events := make(chan bool, 16)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.WatchPublications(ctx, func(live bool) { events <- live }) }()
	next := func(what string) bool {
		t.Helper()
		select {
		case v := <-events:
			return v
		case <-time.After(30 * time.Second):
			t.Fatalf("no event: %s", what)
			return false
		}
	}
	if !next("listening") {
		t.Fatal("first event is not live")
	}
	// A load that fails inside its transaction notifies nobody; the next
	// good load does. Notifications arrive in commit order, so a stray one
	// from the failed load would show as one event too many before the stop.
	boom := errors.New("injected")
	store.SetLoadHook(t, func(stage string) error {
		if stage == "end" {
			return boom
		}
		return nil
	})
	if err := s.LoadPublication(ctx, storetest.Publication("pub-bad", "run-bad", t0)); !errors.Is(err, boom) {
		t.Fatalf("want the injected failure, got %v", err)
	}
	store.SetLoadHook(t, nil)
	if err := s.LoadPublication(ctx, storetest.Publication("pub-1", "run-1", t0)); err != nil {
		t.Fatal(err)
	}
	if !next("load") {
		t.Fatal("a load was announced as not live")
	}
	// Loading the same publication again changes nothing and says nothing.
	if err := s.LoadPublication(ctx, storetest.Publication("pub-1", "run-1", t0)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if next("stop") {
		t.Fatal("an event besides the one committed load was heard before the stop")
	}
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("returned %v, want context.Canceled", err)
	}
}
