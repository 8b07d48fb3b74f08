package store

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"sort"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/attestari/attestari/db"
)

// Migration is one numbered file of db/migrations.
type Migration struct {
	Version int
	Name    string
	SQL     string
}

var migrationName = regexp.MustCompile(`^(\d{4})_([a-z0-9_]+)\.sql$`)

// Migrations lists the embedded migrations in order, refusing a malformed name
// or a duplicate number.
func Migrations() ([]Migration, error) { return loadMigrations(db.Migrations, "migrations") }

func loadMigrations(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []Migration
	seen := map[int]string{}
	for _, e := range entries {
		m := migrationName.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("migration file %q: name must be NNNN_words.sql", e.Name())
		}
		v, _ := strconv.Atoi(m[1])
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %q and %q share number %d", prev, e.Name(), v)
		}
		seen[v] = e.Name()
		b, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Version < out[j].Version })
	return out, nil
}

// MigrateResult says what Migrate did.
type MigrateResult struct {
	Applied []string
	Current int
	// RiverApplied and RiverCurrent are the same for River's own schema
	// (the job queue's tables), which River's migrator applies after ours.
	RiverApplied []string
	RiverCurrent int
}

// Migrate applies every migration not yet applied, each in its own
// transaction together with its row in schema_migrations, so a migration that
// fails halfway leaves nothing of itself behind. Concurrent callers serialise
// on an advisory lock.
//
// Then River's migrator (rivermigrate, line "main") brings River's tables
// (river_job, river_leader, river_queue, ...) to the version the linked
// River needs, one version a transaction, under the same lock. River records its
// versions in its own river_migration table and never touches ours; ours
// never name its tables. Both are no-ops when current.
func (s *Store) Migrate(ctx context.Context) (MigrateResult, error) {
	ms, err := Migrations()
	if err != nil {
		return MigrateResult{}, err
	}
	res, err := s.migrate(ctx, ms)
	if err != nil {
		return res, err
	}
	return s.migrateRiver(ctx, res)
}

func (s *Store) migrateRiver(ctx context.Context, res MigrateResult) (MigrateResult, error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate river: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return res, fmt.Errorf("migrate river: take lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	m, err := rivermigrate.New(riverpgxv5.New(s.pool), nil)
	if err != nil {
		return res, fmt.Errorf("migrate river: %w", err)
	}
	// One version a transaction: a version that adds an enum value and one
	// that uses it cannot share one (River's 006 does both).
	var applied []rivermigrate.MigrateVersion
	var have []rivermigrate.Migration
	for {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return res, fmt.Errorf("migrate river: begin: %w", err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("migrate river: lift statement timeout: %w", err)
		}
		// MigrateTx is deprecated because several versions in one
		// transaction can fail; one step a transaction is what Migrate does,
		// here on the connection holding our lock, with the statement
		// timeout lifted (a large river_job's index builds pass 5 s).
		//lint:ignore SA1019 one version per transaction, as Migrate itself runs them
		r, err := m.MigrateTx(ctx, tx, rivermigrate.DirectionUp, &rivermigrate.MigrateOpts{MaxSteps: 1})
		if err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("a River migration failed and was rolled back, nothing of it applied: %w", err)
		}
		if have, err = m.ExistingVersionsTx(ctx, tx); err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("migrate river: read versions: %w", err)
		}
		if err := tx.Commit(ctx); err != nil {
			return res, fmt.Errorf("migrate river: commit: %w", err)
		}
		if len(r.Versions) == 0 {
			break
		}
		applied = append(applied, r.Versions...)
	}
	for _, v := range applied {
		res.RiverApplied = append(res.RiverApplied, fmt.Sprintf("river %03d %s", v.Version, v.Name))
	}
	for _, v := range have {
		res.RiverCurrent = max(res.RiverCurrent, v.Version)
	}
	return res, nil
}

const migrationLock = 0x617474657374 // "attest"

func (s *Store) migrate(ctx context.Context, ms []Migration) (MigrateResult, error) {
	var res MigrateResult
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return res, fmt.Errorf("migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", migrationLock); err != nil {
		return res, fmt.Errorf("migrate: take lock: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLock)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return res, fmt.Errorf("migrate: create schema_migrations: %w", err)
	}
	applied := map[int]bool{}
	rows, err := conn.Query(ctx, "SELECT version FROM schema_migrations")
	if err != nil {
		return res, fmt.Errorf("migrate: read schema_migrations: %w", err)
	}
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return res, fmt.Errorf("migrate: read schema_migrations: %w", err)
	}
	for _, v := range vs {
		applied[int(v)] = true
		if int(v) > res.Current {
			res.Current = int(v)
		}
	}
	for _, m := range ms {
		if applied[m.Version] {
			continue
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			return res, fmt.Errorf("migrate %s: begin: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL statement_timeout = 0"); err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("migrate %s: lift statement timeout: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("migration %s failed and was rolled back, nothing of it applied: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.Version, m.Name); err != nil {
			_ = tx.Rollback(ctx)
			return res, fmt.Errorf("migrate %s: record: %w", m.Name, err)
		}
		if err := tx.Commit(ctx); err != nil {
			return res, fmt.Errorf("migrate %s: commit: %w", m.Name, err)
		}
		res.Applied = append(res.Applied, m.Name)
		res.Current = m.Version
	}
	return res, nil
}
