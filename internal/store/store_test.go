package store_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	res, err := s.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := store.Migrations()
	if len(res.Applied) != 0 || res.Current != ms[len(ms)-1].Version {
		t.Fatalf("template was migrated, a second migrate must apply nothing: %+v", res)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestFailedMigrationLeavesNothing(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	ctx := context.Background()
	bad := fstest.MapFS{
		"m/0900_half.sql": {Data: []byte("CREATE TABLE half_applied (x int); SELECT no_such_function();")},
	}
	_, err := store.MigrateFS(ctx, s, bad, "m")
	if err == nil || !strings.Contains(err.Error(), "rolled back") {
		t.Fatalf("want a rolled-back error, got %v", err)
	}
	exists, err := store.TableExists(ctx, s, "half_applied")
	if err != nil {
		t.Fatal(err)
	}
	if exists {
		t.Fatal("a failed migration left its first statement applied")
	}
}

func TestMigrationNamesAreChecked(t *testing.T) {
	t.Parallel()
	s := dbtest.Open(t)
	_, err := store.MigrateFS(context.Background(), s, fstest.MapFS{"m/one.sql": {Data: []byte("SELECT 1")}}, "m")
	if err == nil || !strings.Contains(err.Error(), "NNNN_words.sql") {
		t.Fatalf("want a naming error, got %v", err)
	}
}

func TestStatementTimeoutBoundsReadsNotWriters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := store.Open(ctx, dbtest.URL(t), store.Options{MaxConns: 2, StatementTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := store.Sleep(ctx, s, time.Second); err == nil || !strings.Contains(err.Error(), "statement timeout") {
		t.Fatalf("a read longer than the timeout: %v", err)
	}
	if err := store.SleepInTx(ctx, s, 300*time.Millisecond); err != nil {
		t.Fatalf("a writer's transaction is not bound by it: %v", err)
	}
}
