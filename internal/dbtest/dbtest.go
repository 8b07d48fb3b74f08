// Package dbtest gives tests a real PostgreSQL: one server per test binary
// (started through package pgcluster, the same helper `make run` uses), one
// migrated template database, and one fresh database per test cloned from it,
// so tests stay isolated and can run in parallel.
//
// It is for tests only. It never skips: when no PostgreSQL can be had, the
// test fails with pgcluster's message naming the three ways to provide one.
package dbtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/store"
)

const templateName = "attestari_template"

var (
	once     sync.Once
	cluster  *pgcluster.Cluster
	startErr error
	counter  atomic.Int64
)

// Main runs the tests of a package and stops the shared server afterwards.
// Use it from TestMain: func TestMain(m *testing.M) { os.Exit(dbtest.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	if cluster != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := cluster.Stop(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "dbtest: stop:", err)
		}
	}
	return code
}

func start() {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cluster, startErr = pgcluster.Start(ctx, pgcluster.Options{Database: templateName})
	if startErr != nil {
		return
	}
	// Under DATABASE_URL the database named there may be shared: build our own
	// template beside it.
	adminURL := pgcluster.WithDatabase(cluster.URL, "postgres")
	if cluster.How == "DATABASE_URL" {
		if err := exec(ctx, adminURL, "DROP DATABASE IF EXISTS "+templateName+" WITH (FORCE)", "CREATE DATABASE "+templateName); err != nil {
			startErr = err
			return
		}
	}
	turl := pgcluster.WithDatabase(cluster.URL, templateName)
	s, err := store.Open(ctx, turl, store.Options{MaxConns: 2})
	if err != nil {
		startErr = err
		return
	}
	if _, err := s.Migrate(ctx); err != nil {
		s.Close()
		startErr = fmt.Errorf("migrate the template database: %w", err)
		return
	}
	s.Close()
	startErr = exec(ctx, adminURL, "ALTER DATABASE "+templateName+" WITH is_template true")
}

func exec(ctx context.Context, url string, stmts ...string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for _, s := range stmts {
		if _, err := conn.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	return nil
}

// URL returns the connection string of a new, migrated, empty database that
// is dropped when the test ends.
func URL(t testing.TB) string {
	t.Helper()
	once.Do(start)
	if startErr != nil {
		t.Fatalf("dbtest: no PostgreSQL for tests: %v", startErr)
	}
	name := fmt.Sprintf("t_%d_%d", os.Getpid(), counter.Add(1))
	ctx := context.Background()
	adminURL := pgcluster.WithDatabase(cluster.URL, "postgres")
	if err := exec(ctx, adminURL, "CREATE DATABASE "+name+" TEMPLATE "+templateName); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	t.Cleanup(func() {
		if err := exec(context.Background(), adminURL, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Logf("dbtest: drop %s: %v", name, err)
		}
	})
	return pgcluster.WithDatabase(cluster.URL, name)
}

// Open returns a Store on a new database (see URL), closed when the test ends.
func Open(t testing.TB) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), URL(t), store.Options{MaxConns: 4})
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}
