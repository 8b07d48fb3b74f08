package store

import (
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/attestari/attestari/internal/vocab"
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
	if got, _ := r.pick(); got != primary {
		t.Fatal("a replica was read before the channel was heard")
	}
	r.raise(150)
	r.live.Store(true)
	for range 4 {
		if got, _ := r.pick(); got != primary {
			t.Fatal("a replica behind the floor was read")
		}
	}
	r.replicas[1].replayed.Store(150)
	for range 4 {
		if got, _ := r.pick(); got != p2 {
			t.Fatal("the caught-up replica was not the one read")
		}
	}
	r.replicas[0].replayed.Store(200)
	seen := map[*pgxpool.Pool]bool{}
	for range 4 {
		p, _ := r.pick()
		seen[p] = true
	}
	if !seen[p1] || !seen[p2] || seen[primary] {
		t.Fatalf("two caught-up replicas share the reads: %v", seen)
	}
	r.raise(120)
	if r.want.Load() != 150 {
		t.Fatalf("the floor went down to %d", r.want.Load())
	}
	r.live.Store(false)
	if got, _ := r.pick(); got != primary {
		t.Fatal("a replica was read while the channel was not heard")
	}
}

// TestRouterSkipsAnUnreachableReplica: a caught-up replica marked
// unreachable is not read (the other one, then the primary, is), its state
// says so, a failure while it is down does not move its probe, each failed
// probe doubles the wait up to the cap, and the first probe that answers
// makes it eligible again; one that answers as not a standby is never read.
func TestRouterSkipsAnUnreachableReplica(t *testing.T) {
	primary, p1, p2 := &pgxpool.Pool{}, &pgxpool.Pool{}, &pgxpool.Pool{}
	r := &router{primary: primary, replicas: []*replica{{pool: p1, n: 1}, {pool: p2, n: 2}}}
	r.raise(100)
	r.live.Store(true)
	r.replicas[0].replayed.Store(100)
	r.replicas[1].replayed.Store(100)
	now := time.Now()
	h := &r.replicas[0].health
	if !h.failed(now) || h.failed(now.Add(time.Second)) {
		t.Fatal("a replica's first failure must mark it down, and only the first")
	}
	for range 4 {
		if got, rep := r.pick(); got != p2 || rep != r.replicas[1] {
			t.Fatal("an unreachable replica was read")
		}
	}
	if got := strings.Join(r.states(), " "); got != vocab.ReplicaUnreachable+" "+vocab.ReplicaCaughtUp {
		t.Fatalf("states %q", got)
	}
	if h.due(now) || !h.due(now.Add(backoffMin)) {
		t.Fatal("a replica just marked down is probed again only after the back-off")
	}
	var waits []time.Duration
	for range 8 {
		h.probeFailed(now)
		waits = append(waits, h.nextProbe.Sub(now))
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] < waits[i-1] || waits[i] > backoffMax {
			t.Fatalf("back-off waits %v: want non-decreasing, at most %v", waits, backoffMax)
		}
	}
	if waits[len(waits)-1] != backoffMax || waits[0] != 2*backoffMin {
		t.Fatalf("back-off waits %v: want from %v doubling to %v", waits, 2*backoffMin, backoffMax)
	}
	r.replicas[1].health.failed(now)
	if got, rep := r.pick(); got != primary || rep != nil {
		t.Fatal("with every replica unreachable, reads must go to the primary")
	}
	if !h.answered(now, true) {
		t.Fatal("a down replica that answers must say it recovered")
	}
	seen := map[*pgxpool.Pool]bool{}
	for range 4 {
		p, _ := r.pick()
		seen[p] = true
	}
	if !seen[p1] || seen[p2] || seen[primary] {
		t.Fatalf("after the first replica answered again: %v; want it alone", seen)
	}
	h.answered(now, false)
	if got, _ := r.pick(); got != primary || r.states()[0] != vocab.ReplicaNotStandby {
		t.Fatalf("a replica not in recovery was read, or not reported: %v", r.states())
	}
}
