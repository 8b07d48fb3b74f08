package store

import (
	"context"
	"io/fs"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/internal/store/internal/dbq"
)

// MigrateFS applies migrations from another file system (tests of the runner).
func MigrateFS(ctx context.Context, s *Store, fsys fs.FS, dir string) (MigrateResult, error) {
	ms, err := loadMigrations(fsys, dir)
	if err != nil {
		return MigrateResult{}, err
	}
	return s.migrate(ctx, ms)
}

// TableExists reports whether a table of that name exists.
func TableExists(ctx context.Context, s *Store, name string) (bool, error) {
	var ok bool
	err := s.pool.QueryRow(ctx, "SELECT to_regclass($1) IS NOT NULL", name).Scan(&ok)
	return ok, err
}

// Prepare prepares q on one connection and releases it (tests of the queries).
func Prepare(ctx context.Context, s *Store, name, q string) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	_, err = conn.Conn().Prepare(ctx, name, q)
	return err
}

// SetLoadHook installs a hook called between the loader's stages (see
// loadHook) and removes it when the test ends.
func SetLoadHook(t interface{ Cleanup(func()) }, f func(stage string) error) {
	loadHook = f
	t.Cleanup(func() { loadHook = nil })
}

// RowCounts counts the rows of every table the loader writes.
func RowCounts(ctx context.Context, s *Store) (map[string]int, error) {
	out := map[string]int{}
	for _, tbl := range []string{"runs", "publications", "package_versions", "current_versions", "tools", "findings",
		"capabilities", "evidence", "appeal_statuses", "gate_map", "version_diffs"} {
		var n int
		if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+tbl).Scan(&n); err != nil {
			return nil, err
		}
		out[tbl] = n
	}
	return out, nil
}

// CompareVersions exposes the version order.
var CompareVersions = compareVersions

// Sleep runs pg_sleep on the pool, as a read would.
func Sleep(ctx context.Context, s *Store, d time.Duration) error {
	_, err := s.pool.Exec(ctx, "SELECT pg_sleep($1)", d.Seconds())
	return err
}

// SleepInTx runs pg_sleep inside a writer's transaction.
func SleepInTx(ctx context.Context, s *Store, d time.Duration) error {
	return s.inTx(ctx, func(_ *dbq.Queries, tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT pg_sleep($1)", d.Seconds())
		return err
	})
}

// Explain returns the plan of q with args on one connection with
// sequential scans disabled: a scan the query cannot avoid still shows as
// "Seq Scan", so a plan that shows one names a missing or unusable index.
func Explain(ctx context.Context, s *Store, q string, args ...any) (string, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		return "", err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SET LOCAL enable_seqscan = off"); err != nil {
		return "", err
	}
	rows, err := tx.Query(ctx, "EXPLAIN "+q, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return "", err
		}
		b.WriteString(line + "\n")
	}
	return b.String(), rows.Err()
}

// TerminateListeners ends the server sessions listening on
// PublicationsChannel, as a restart or a network cut would, and says how
// many it ended.
func TerminateListeners(ctx context.Context, s *Store) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
		WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE 'LISTEN%'`).Scan(&n)
	return n, err
}

// SetWatchError sets what WatchPublications tells when it loses its
// connection (Options.WatchError on a store opened by a test helper).
func SetWatchError(s *Store, f func(error)) { s.watchErr = f }

// SleepRead runs pg_sleep through the read path (classified, retried).
func SleepRead(ctx context.Context, s *Store, d time.Duration) error {
	_, err := reads{pool: s.pool}.Exec(ctx, "SELECT pg_sleep($1)", d.Seconds())
	return err
}

// PoolConns is the number of connections the pool holds.
func PoolConns(s *Store) int { return int(s.pool.Stat().TotalConns()) }

// readSleepSQL is one statement text, so pgx caches it as a prepared
// statement on every connection that ran it.
const readSleepSQL = "SELECT pg_sleep($1::float8)::text"

// ReadRows runs readSleepSQL through the read path's Query and reads its rows.
func ReadRows(ctx context.Context, s *Store, d time.Duration) error {
	rows, err := reads{pool: s.pool}.Query(ctx, readSleepSQL, d.Seconds())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
	}
	return rows.Err()
}

// ReadRow runs readSleepSQL through the read path's QueryRow.
func ReadRow(ctx context.Context, s *Store, d time.Duration) error {
	var out string
	return reads{pool: s.pool}.QueryRow(ctx, readSleepSQL, d.Seconds()).Scan(&out)
}

// LockTable holds an ACCESS EXCLUSIVE lock on table from a connection of
// its own until unlock is called: every read of the table waits for it, as
// reads wait behind a database too busy to answer.
func LockTable(ctx context.Context, s *Store, table string) (unlock func(), err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		conn.Release()
		return nil, err
	}
	_, err = tx.Exec(ctx, "SET LOCAL statement_timeout = 0")
	if err == nil {
		_, err = tx.Exec(ctx, "LOCK TABLE "+pgx.Identifier{table}.Sanitize()+" IN ACCESS EXCLUSIVE MODE")
	}
	if err != nil {
		_ = tx.Rollback(ctx)
		conn.Release()
		return nil, err
	}
	return func() { _ = tx.Rollback(context.WithoutCancel(ctx)); conn.Release() }, nil
}

// Exec runs one statement (tests of a migration over rows loaded before it).
func Exec(ctx context.Context, s *Store, sql string) error {
	_, err := s.pool.Exec(ctx, sql)
	return err
}
