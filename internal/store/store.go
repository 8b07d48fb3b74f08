// Package store is the only importer of pgx and of the sqlc-generated code
// (internal/store/internal/dbq): it owns the connection pool, the migrations
// runner, transactions and the conversion of rows to the project's types.
// Nothing outside it writes SQL. A lookup that matches no row fails with
// vocab.ErrNotFound, a read with vocab.ErrUnavailable when the database
// cannot be reached and vocab.ErrTimeout when it did not answer in time
// (faults.go): the failure kinds of internal/vocab, so callers classify
// database faults with errors.Is and never by pgx's types or texts.
package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/attestari/attestari/internal/store/internal/dbq"
	"github.com/attestari/attestari/internal/vocab"
)

// Store is a pool of connections and the queries over it.
type Store struct {
	pool *pgxpool.Pool
	// q runs the reads through reads (faults.go), which classifies their
	// errors and retries a read a dead connection failed; writers use
	// q.WithTx on their own transaction.
	q *dbq.Queries
	// watchErr hears why WatchPublications lost its connection (Options.WatchError).
	watchErr func(error)
	// route sends reads to the read replicas that have caught up (replica.go); nil without replicas.
	route *router
}

// Options tunes the pool.
type Options struct {
	MaxConns int32
	// StatementTimeout bounds every statement on the pool's connections
	// (0: 5s; negative: none). It is what bounds the API's database work;
	// the writers (migrations, the loader, Analyze) lift it for their own
	// transaction, since a large load or index build may take longer.
	StatementTimeout time.Duration
	// WatchError, when set, is told why WatchPublications lost its
	// connection before it reconnects (for the server's log).
	WatchError func(error)
	// ReplicaURLs are physical standbys of the primary (url) that serve
	// the reads of a Store that also runs WatchPublications: a read runs
	// on one only while it has replayed the primary's WAL up to the last
	// notification heard (replica.go). Empty: every read on the primary.
	ReplicaURLs []string
	// ReplicaWarn, when set, is told when a replica is marked unreachable
	// (with the cause) and when it answers again (cause nil), for the
	// server's log (replica_health.go); replica counts from 1.
	ReplicaWarn func(msg string, replica int, cause error)
}

// Open connects to the database at url, checking it answers, and to each
// of opts.ReplicaURLs (replica.go).
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	pool, err := openPool(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	s := &Store{pool: pool, q: dbq.New(reads{pool: pool}), watchErr: opts.WatchError}
	if len(opts.ReplicaURLs) > 0 {
		r, err := openReplicas(ctx, pool, opts.ReplicaURLs, opts)
		if err != nil {
			pool.Close()
			return nil, err
		}
		s.route = r
		s.q = dbq.New(reads{pool: pool, route: r})
	}
	return s, nil
}

// openPool opens one pool with opts and checks the database answers.
func openPool(ctx context.Context, url string, opts Options) (*pgxpool.Pool, error) {
	pool, host, err := newPool(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	if err := ping(ctx, pool, host); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// ping checks the database behind pool answers, within ten seconds.
func ping(ctx context.Context, pool *pgxpool.Pool, host string) error {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		return fmt.Errorf("connect to %s: %w", host, err)
	}
	return nil
}

// newPool builds one pool with opts; it connects lazily, so an error is a
// URL that cannot be read or a configuration pgx refuses, never a server
// that does not answer.
func newPool(ctx context.Context, url string, opts Options) (*pgxpool.Pool, string, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message masks a password; the form expected is what the
		// operator needs to read first.
		return nil, "", fmt.Errorf("the database URL cannot be read (%w): expected postgres://user:password@host:5432/dbname, or libpq key=value pairs", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.ConnConfig.RuntimeParams["application_name"] = "attestari"
	switch {
	case opts.StatementTimeout == 0:
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = "5000"
	case opts.StatementTimeout > 0:
		cfg.ConnConfig.RuntimeParams["statement_timeout"] = strconv.FormatInt(opts.StatementTimeout.Milliseconds(), 10)
	}
	recycle(cfg)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, "", fmt.Errorf("open pool: %w", err)
	}
	return pool, cfg.ConnConfig.Host, nil
}

// Pooled connections are checked and recycled so that one a restart left
// dead costs no client an error: a connection idle for more than a second
// is pinged before it is handed out (pgxpool's rule, pinned here so an
// upgrade cannot drop it), idle ones are closed after idleFor, and the
// health check that closes them runs every healthEvery. What the ping cannot
// catch (a connection used again within the second) the read path catches
// and retries once on a fresh connection (reads, faults.go).
const (
	pingIdleAfter = time.Second
	idleFor       = 5 * time.Minute
	healthEvery   = 15 * time.Second
)

func recycle(cfg *pgxpool.Config) {
	cfg.ShouldPing = func(_ context.Context, p pgxpool.ShouldPingParams) bool { return p.IdleDuration > pingIdleAfter }
	cfg.MaxConnIdleTime = idleFor
	cfg.HealthCheckPeriod = healthEvery
}

// Close releases the pool.
func (s *Store) Close() {
	if s.route != nil {
		s.route.close()
	}
	s.pool.Close()
}

// Ping checks that the database answers a query now.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.pool.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping database: %w", err)
	}
	return nil
}

// inTx runs f in one transaction, committed only when f returns nil.
func (s *Store) inTx(ctx context.Context, f func(q *dbq.Queries, tx pgx.Tx) error) error {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{})
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	// Writers are not bound by the readers' statement timeout.
	if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
		return fmt.Errorf("lift statement timeout: %w", err)
	}
	if err := f(s.q.WithTx(tx), tx); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// notFound turns pgx.ErrNoRows into ErrNotFound, the one place that does.
func notFound(err error) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return vocab.ErrNotFound
	}
	return err
}

// Analyze refreshes the planner's statistics. A large load (a first
// publication, a backfill) changes the tables' sizes by orders of magnitude;
// until autovacuum catches up the planner may choose scans that make every
// lookup slow, so a loader of many rows calls this after committing.
func (s *Store) Analyze(ctx context.Context) error {
	return s.inTx(ctx, func(_ *dbq.Queries, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "ANALYZE"); err != nil {
			return fmt.Errorf("analyze: %w", err)
		}
		return nil
	})
}
