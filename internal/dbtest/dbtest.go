// Package dbtest gives tests a real PostgreSQL: one server per test binary
// (started through package pgcluster, the same helper `make run` uses), one
// migrated template database, and one fresh database per test cloned from it,
// so tests stay isolated and can run in parallel. A drill of database
// faults gets a server of its own instead (Private), which it may stop,
// restart and freeze.
//
// It is for tests only. It never skips: when no PostgreSQL can be had, the
// test fails with pgcluster's message naming the three ways to provide one.
package dbtest

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
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

// Private starts a PostgreSQL server of the test's own and returns it with
// one migrated, empty database at its URL. The test may stop, restart and
// freeze it (pgcluster's Down, Up, Freeze and Thaw) without touching the
// server the other tests share. It is always a private cluster from local
// binaries, even under DATABASE_URL: a server named there is used by others,
// and a container cannot be frozen from here. At cleanup, whatever the test
// did and however it ended (a failure, a panic in the test), the server is
// thawed and stopped and its directory removed; and should the binary die
// without its cleanups (go test's -timeout, a signal), a sentinel process
// does the same once the binary is gone (watchOver).
func Private(t testing.TB) *pgcluster.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c, err := pgcluster.Start(ctx, pgcluster.Options{
		Env: func(k string) string {
			if k == "DATABASE_URL" {
				return ""
			}
			return os.Getenv(k)
		},
		NoContainers: true,
	})
	if err != nil {
		t.Fatalf("dbtest: a private PostgreSQL for a fault drill needs local server binaries: %v", err)
	}
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Stop(sctx); err != nil {
			t.Errorf("dbtest: stop the private cluster: %v", err)
		}
	})
	if err := watchOver(c); err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	s, err := store.Open(ctx, c.URL, store.Options{MaxConns: 2})
	if err != nil {
		t.Fatalf("dbtest: open the private cluster: %v", err)
	}
	defer s.Close()
	if _, err := s.Migrate(ctx); err != nil {
		t.Fatalf("dbtest: migrate the private cluster: %v", err)
	}
	return c
}

// sentinelScript waits for the test binary ($1) to end, then thaws and
// stops the cluster in $2 if it still runs, and removes $2. Each backend is
// a session leader of its own, so the postmaster's children are signalled
// one by one (pgrep -P), as pgcluster.Freeze stops them.
const sentinelScript = `while [ -d /proc/$1 ]; do sleep 1; done
pm=$(head -1 "$2/data/postmaster.pid" 2>/dev/null)
if [ -n "$pm" ]; then
  kill -CONT "$pm" $(pgrep -P "$pm") 2>/dev/null
  if [ "$(id -u)" = 0 ]; then
    runuser -u "$(stat -c %U "$2/data")" -- "$3" stop -D "$2/data" -m immediate -w -t 30
  else
    "$3" stop -D "$2/data" -m immediate -w -t 30
  fi
fi
rm -rf "$2"
`

// watchOver starts a sentinel process that outlives the test binary: when
// the binary ends without its cleanups (killed by go test's -timeout, a
// signal, os.Exit), the private cluster is thawed and stopped all the same,
// rather than left frozen for good. After a normal cleanup it finds nothing
// to do.
func watchOver(c *pgcluster.Cluster) error {
	bin, err := pgcluster.FindBinaries(nil)
	if err != nil {
		return err
	}
	// The sentinel removes the directory at the end: only ever the
	// temporary one pgcluster made for this cluster.
	if !filepath.IsAbs(c.Dir) || !strings.HasPrefix(filepath.Base(c.Dir), "attestari-pg-") {
		return fmt.Errorf("the private cluster has no directory to watch over: %q", c.Dir)
	}
	cmd := osexec.Command("/bin/sh", "-c", sentinelScript, "sentinel", strconv.Itoa(os.Getpid()), c.Dir, bin.PgCtl)
	// Its own session, so a signal to the test's process group spares it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the private cluster's sentinel: %w", err)
	}
	go func() { _ = cmd.Wait() }() // reaped if it ends first (it should not)
	return nil
}
