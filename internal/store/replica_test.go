package store

import (
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
)

// TestRouterPicksOnlyCaughtUpReplicas: reads go to the primary while the
// channel is not heard, and to a replica only once it reported replaying
// at or past the floor the last notification set; the floor never goes
// down.
func TestRouterPicksOnlyCaughtUpReplicas(t *testing.T) {
	primary, p1, p2 := &pgxpool.Pool{}, &pgxpool.Pool{}, &pgxpool.Pool{}
	r := &router{primary: primary, replicas: []*replica{{pool: p1}, {pool: p2}}}
	r.replicas[0].replayed.Store(100)
	r.replicas[1].replayed.Store(100)
	if got := r.pick(); got != primary {
		t.Fatal("a replica was read before the channel was heard")
	}
	r.raise(150)
	r.live.Store(true)
	for range 4 {
		if got := r.pick(); got != primary {
			t.Fatal("a replica behind the floor was read")
		}
	}
	r.replicas[1].replayed.Store(150)
	for range 4 {
		if got := r.pick(); got != p2 {
			t.Fatal("the caught-up replica was not the one read")
		}
	}
	r.replicas[0].replayed.Store(200)
	seen := map[*pgxpool.Pool]bool{}
	for range 4 {
		seen[r.pick()] = true
	}
	if !seen[p1] || !seen[p2] || seen[primary] {
		t.Fatalf("two caught-up replicas share the reads: %v", seen)
	}
	r.raise(120)
	if r.want.Load() != 150 {
		t.Fatalf("the floor went down to %d", r.want.Load())
	}
	r.live.Store(false)
	if got := r.pick(); got != primary {
		t.Fatal("a replica was read while the channel was not heard")
	}
}
