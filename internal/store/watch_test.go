package store_test

import (
	"context"
	"errors"
	"sync"
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
	next := func(what string) bool { t.Helper(); return nextEvent(t, events, what) }
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

// TestWatchPublicationsSurvivesALostConnection: when the listening session
// is cut, the watcher says it stopped listening (so a cache stops trusting
// itself), connects again, says it listens again, and hears the next load.
func TestWatchPublicationsSurvivesALostConnection(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	events := make(chan bool, 16)
	var reasons []error
	var mu sync.Mutex
	store.SetWatchError(s, func(err error) { mu.Lock(); reasons = append(reasons, err); mu.Unlock() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.WatchPublications(ctx, func(live bool) { events <- live }) }()
	next := func(what string) bool { t.Helper(); return nextEvent(t, events, what) }
	if !next("listening") {
		t.Fatal("first event is not live")
	}
	// The LISTEN statement may still be the session's last query a moment
	// after the event; wait until the session shows.
	deadline := time.Now().Add(30 * time.Second)
	for {
		n, err := store.TerminateListeners(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no listening session found to cut")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if next("cut") {
		t.Fatal("a cut connection was not announced as not live")
	}
	if !next("reconnected") {
		t.Fatal("the watcher did not listen again")
	}
	if err := s.LoadPublication(ctx, storetest.Publication("pub-1", "run-1", t0)); err != nil {
		t.Fatal(err)
	}
	if !next("load after reconnect") {
		t.Fatal("a load after the reconnect was not heard")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reasons) == 0 {
		t.Fatal("the lost connection's error was not reported")
	}
}

// nextEvent waits for the watcher's next call, failing the test after 30 s.
func nextEvent(t *testing.T, events <-chan bool, what string) bool {
	t.Helper()
	select {
	case v := <-events:
		return v
	case <-time.After(30 * time.Second):
		t.Fatalf("no event: %s", what)
		return false
	}
}
