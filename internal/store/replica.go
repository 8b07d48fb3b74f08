package store

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Read replicas (Options.ReplicaURLs). The reads of Store.q run on a
// replica only while that replica is known to have replayed everything the
// API has been told of; otherwise they run on the primary. The rule is
// exact, not a guess at replication lag:
//
//   - NOTIFY is not replayed to a physical standby, so WatchPublications
//     listens on the primary. Postgres delivers a notification only after
//     the loader's commit record was inserted into the WAL, so when one is
//     heard the primary's WAL insert position, pg_current_wal_insert_lsn(),
//     read then on the listening connection, is at or past the end of that
//     commit record. That position becomes the floor every replica read
//     must have replayed (router.want). It is the insert position, not
//     pg_current_wal_lsn() (the write position): with synchronous_commit
//     off the commit record may still sit in the WAL buffers when the
//     notification is heard, the write position is then before it (even
//     before all of the load), and a paused or lagging standby that
//     replayed up to it would pass for caught up while it shows the
//     publication's predecessor; a standby cannot replay past the insert
//     position without having replayed the commit. The loader's payload is
//     unchanged (the publication id): a position read inside the loader's
//     transaction would lie before its own commit record, and a standby
//     that replayed up to it could still not show the publication.
//   - Each replica's pg_last_wal_replay_lsn() is polled while it is below the
//     floor; a replica is used only once it reports a position at or past it.
//     Replay only moves forward, so a reported position is a lower bound.
//   - Until then, and whenever the primary's channel is not heard (a lost
//     LISTEN connection), reads go to the primary: it is the state the
//     notification announced, so no answer after a notification is older
//     than it. There is no wait and no 503 for a lagging replica: the
//     primary answers exactly, and carries the reads while replay catches up.
//
// The floor is set before the notification is passed on (changed(true)),
// so the manifest cache, cleared then, is refilled only from the primary or
// a caught-up replica; a fill that began before is dropped by its
// generation (internal/httpapi/manifestcache.go).
type router struct {
	primary  *pgxpool.Pool
	replicas []*replica
	next     atomic.Uint32
	live     atomic.Bool   // the primary's channel is heard
	want     atomic.Uint64 // the WAL position (bytes from 0/0) replicas must have replayed
	stop     context.CancelFunc
	done     chan struct{}
	// warn hears a replica marked unreachable and answering again
	// (Options.ReplicaWarn); nil says nothing.
	warn func(msg string, replica int, err error)
}

type replica struct {
	pool     *pgxpool.Pool
	n        int           // its place in Options.ReplicaURLs, from 1
	replayed atomic.Uint64 // the last position it reported replaying (0: none yet)
	health   health        // reachability (replica_health.go)
}

// replayPoll is how often a replica behind the floor is asked where its
// replay is.
const replayPoll = 25 * time.Millisecond

// openReplicas opens a pool per URL, with the primary's options, and starts
// the poller. Every replica must answer now.
func openReplicas(ctx context.Context, primary *pgxpool.Pool, urls []string, opts Options) (*router, error) {
	r := &router{primary: primary, done: make(chan struct{}), warn: opts.ReplicaWarn}
	var silent []int // replicas that did not answer at start
	var causes []error
	for i, u := range urls {
		p, host, err := newPool(ctx, u, opts)
		if err != nil {
			// A URL that cannot be read is the operator's mistake: say so
			// at start, as for the primary.
			r.closePools()
			return nil, fmt.Errorf("read replica %d: %w", i+1, err)
		}
		r.replicas = append(r.replicas, &replica{pool: p, n: i + 1})
		if err := ping(ctx, p, host); err != nil {
			silent, causes = append(silent, i), append(causes, err)
		}
	}
	// A replica that does not answer at start is not a reason to refuse
	// to serve: the primary answers every read. It starts unreachable, and
	// the poller probes it after the back-off like any replica that died
	// (replica_health.go).
	for k, i := range silent {
		r.markDown(r.replicas[i], causes[k])
	}
	pctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.stop = cancel
	go r.poll(pctx)
	return r, nil
}

func (r *router) closePools() {
	for _, rep := range r.replicas {
		rep.pool.Close()
	}
}

func (r *router) close() {
	if r.stop != nil {
		r.stop()
		<-r.done
	}
	r.closePools()
}

// pick is the pool the next read runs on, and its replica (nil: the
// primary).
func (r *router) pick() (*pgxpool.Pool, *replica) {
	if !r.live.Load() {
		return r.primary, nil
	}
	want := r.want.Load()
	n := uint32(len(r.replicas))
	start := r.next.Add(1)
	for i := range n {
		rep := r.replicas[(start+i)%n]
		if v := rep.replayed.Load(); v != 0 && v >= want && rep.health.usable() {
			return rep.pool, rep
		}
	}
	return r.primary, nil
}

// raise moves the floor up to at (never down).
func (r *router) raise(at uint64) {
	for {
		old := r.want.Load()
		if at <= old || r.want.CompareAndSwap(old, at) {
			return
		}
	}
}

// poll asks each replica behind the floor where its replay is, probes each
// replica in use once a healthCheck, and an unreachable one once its
// back-off has passed (replica_health.go).
func (r *router) poll(ctx context.Context) {
	defer close(r.done)
	t := time.NewTicker(replayPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		want, now := r.want.Load(), time.Now()
		for _, rep := range r.replicas {
			behind := rep.replayed.Load() < want || rep.replayed.Load() == 0
			if (behind && !rep.health.isDown()) || rep.health.due(now) {
				r.probe(ctx, rep)
			}
		}
	}
}

// The positions as bytes from 0/0, which compare as numbers.
const (
	replayLSNSQL  = "SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), '0/0')::bigint"
	currentLSNSQL = "SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), '0/0')::bigint"
)

// heard is called on the primary's listening connection when it starts to
// listen and on every notification, before the listener is told: it reads
// the primary's WAL insert position and makes it the replicas' floor.
func (r *router) heard(ctx context.Context, conn *pgx.Conn) error {
	var at int64
	if err := conn.QueryRow(ctx, currentLSNSQL).Scan(&at); err != nil {
		return fmt.Errorf("watch publications: read the primary's WAL position: %w", err)
	}
	r.raise(uint64(at))
	r.live.Store(true)
	return nil
}

// routed is r on the pool this read runs on.
func (r reads) routed() reads {
	if r.route == nil {
		return r
	}
	pool, rep := r.route.pick()
	return reads{pool: pool, route: r.route, rep: rep}
}
