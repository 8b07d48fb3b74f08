package store_test

import (
	"context"
	"testing"

	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

// TestRiverMigrationsTwiceIsNoOp: the migration step brings River's schema
// up from nothing beside ours, and a second run applies nothing of either.
func TestRiverMigrationsTwiceIsNoOp(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	// The template is migrated: take River's schema down to nothing with
	// its own migrator, to start from none.
	m, err := rivermigrate.New(riverpgxv5.New(s.Pool()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionDown, &rivermigrate.MigrateOpts{TargetVersion: -1}); err != nil {
		t.Fatal(err)
	}
	first, err := s.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Applied) != 0 || len(first.RiverApplied) == 0 || first.RiverCurrent == 0 {
		t.Fatalf("from no River schema: %+v", first)
	}
	second, err := s.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Applied) != 0 || len(second.RiverApplied) != 0 || second.RiverCurrent != first.RiverCurrent {
		t.Fatalf("a second migration must apply nothing: %+v (first %+v)", second, first)
	}
	ms, _ := store.Migrations()
	if second.Current != ms[len(ms)-1].Version {
		t.Fatalf("our migrations at %d, want %d", second.Current, ms[len(ms)-1].Version)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, "SELECT count(*) FROM river_job").Scan(&n); err != nil || n != 0 {
		t.Fatalf("river_job after migration: %d, %v", n, err)
	}
}
