package store

import (
	"context"
	"io/fs"
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
