package store

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/attestari/attestari/internal/vocab"
)

// A replica that dies after catching up would still pass the floor test
// (router.pick): its last reported replay position only grows. So a replica
// also carries its health. A read on a replica that fails to reach it
// (vocab.ErrUnavailable: refused, reset, shut down) marks it unreachable and
// runs again on the primary at once (reads.retry, faults.go), so the client
// gets the primary's answer, never the replica's failure; and the poller
// probes every replica it uses once a healthCheck, so a replica that stops
// answering (a frozen host, where a read would only end at its deadline) is
// marked unreachable within a probe's timeout, before more reads are sent.
// An unreachable replica is not read; after a back-off (from backoffMin,
// doubling on each failed probe up to backoffMax) the poller probes it
// again, and the first probe that answers with a replay position makes it
// eligible again (and still only once at or past the floor). The primary is
// always correct, so falling back costs only its load.

const (
	// healthCheck is how often a replica in use is probed.
	healthCheck = time.Second
	// probeTimeout bounds one probe.
	probeTimeout = time.Second
	backoffMin   = 250 * time.Millisecond
	backoffMax   = 10 * time.Second
)

// health is one replica's reachability.
type health struct {
	mu         sync.Mutex
	down       bool
	fails      int       // failed probes since it was marked down
	nextProbe  time.Time // when the poller probes it next
	notStandby bool      // the last answer said it is not in recovery
	// unusable mirrors down || notStandby for pick, which runs on every
	// read and takes no lock.
	unusable atomic.Bool
}

// usable says whether reads may go to the replica as far as its health goes.
func (h *health) usable() bool { return !h.unusable.Load() }

// sync updates unusable; h.mu is held.
func (h *health) sync() { h.unusable.Store(h.down || h.notStandby) }

// failed marks the replica unreachable (from now, for the back-off); a
// replica already down keeps its schedule.
func (h *health) failed(now time.Time) (first bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.down {
		return false
	}
	h.down, h.fails, h.nextProbe = true, 0, now.Add(backoffMin)
	h.sync()
	return true
}

// probeFailed pushes a down replica's next probe back, doubling the wait.
func (h *health) probeFailed(now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.down {
		h.down, h.fails = true, 0
		h.sync()
	}
	h.fails++
	d := backoffMin << min(h.fails, 6)
	h.nextProbe = now.Add(min(d, backoffMax))
}

// answered records a probe that reached the replica; standby says whether
// it is in recovery.
func (h *health) answered(now time.Time, standby bool) (recovered bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	recovered = h.down
	h.down, h.fails, h.notStandby = false, 0, !standby
	h.sync()
	h.nextProbe = now.Add(healthCheck)
	return recovered
}

// due says whether the poller should probe the replica now: a down one
// after its back-off, one in use every healthCheck.
func (h *health) due(now time.Time) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return !now.Before(h.nextProbe)
}

func (h *health) isDown() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.down
}

// probe asks rep where its replay is and records what it hears.
func (r *router) probe(ctx context.Context, rep *replica) {
	qctx, cancel := context.WithTimeout(ctx, probeTimeout)
	var at *int64
	err := rep.pool.QueryRow(qctx, replayLSNSQL).Scan(&at)
	cancel()
	now := time.Now()
	if err != nil {
		if ctx.Err() != nil {
			return
		}
		if rep.health.isDown() {
			rep.health.probeFailed(now)
		} else {
			r.markDown(rep, err)
		}
		return
	}
	// NULL: not a standby (or not yet replaying); its state cannot be
	// compared with the primary's, so it is not used.
	standby := at != nil && *at > 0
	if standby {
		rep.replayed.Store(uint64(*at))
	}
	if rep.health.answered(now, standby) && r.warn != nil {
		r.warn("read replica answers again; reads go to it once it has replayed the primary's position", rep.n, nil)
	}
}

// markDown takes rep out of the reads after a failure to reach it.
func (r *router) markDown(rep *replica, cause error) {
	if !rep.health.failed(time.Now()) {
		return
	}
	// Its pooled connections are as dead; the next probe opens a new one.
	rep.pool.Reset()
	if r.warn != nil {
		r.warn("read replica unreachable; reads go to the primary until it answers again", rep.n, cause)
	}
}

// states is each replica's state, in the order of Options.ReplicaURLs.
func (r *router) states() []string {
	want := r.want.Load()
	out := make([]string, len(r.replicas))
	for i, rep := range r.replicas {
		rep.health.mu.Lock()
		down, notStandby := rep.health.down, rep.health.notStandby
		rep.health.mu.Unlock()
		switch v := rep.replayed.Load(); {
		case down:
			out[i] = vocab.ReplicaUnreachable
		case notStandby:
			out[i] = vocab.ReplicaNotStandby
		case v != 0 && v >= want:
			out[i] = vocab.ReplicaCaughtUp
		default:
			out[i] = vocab.ReplicaBehind
		}
	}
	return out
}

// ReplicaStates is the state of each read replica (vocab.Replica*), in the
// order they were configured; nil without replicas. GET /readyz reports it.
func (s *Store) ReplicaStates() []string {
	if s.route == nil {
		return nil
	}
	return s.route.states()
}
