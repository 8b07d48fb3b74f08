package pgcluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidateURL(t *testing.T) {
	for _, ok := range []string{"postgres://u@h:5432/db", "postgresql://u:p@h/db?sslmode=disable", "host=/tmp dbname=x"} {
		if err := ValidateURL(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for bad, want := range map[string]string{
		"mysql://u@h/db":     "must start with postgres://",
		"postgres://:x@/db":  "no host",
		"postgres://u@h:%zz": "not a valid URL",
		"just-a-word":        "must start with postgres://",
	} {
		err := ValidateURL(bad)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: want error containing %q, got %v", bad, want, err)
		}
	}
}

func TestNoWayNamesAllThree(t *testing.T) {
	env := func(k string) string {
		if k == "ATTESTARI_PG_BIN" {
			return t.TempDir() // holds no initdb
		}
		return ""
	}
	_, err := Start(context.Background(), Options{Env: env, NoContainers: true})
	if !errors.Is(err, ErrNoPostgres) {
		t.Fatalf("want ErrNoPostgres, got %v", err)
	}
	for _, way := range []string{"DATABASE_URL", "apt-get install -y postgresql", "Docker engine"} {
		if !strings.Contains(err.Error(), way) {
			t.Errorf("the error should name %q: %v", way, err)
		}
	}
}

func TestDatabaseURLWinsAndIsValidated(t *testing.T) {
	env := func(k string) string {
		if k == "DATABASE_URL" {
			return "postgres://u@example.invalid:5432/db"
		}
		return ""
	}
	c, err := Start(context.Background(), Options{Env: env})
	if err != nil || c.How != "DATABASE_URL" || c.URL != "postgres://u@example.invalid:5432/db" {
		t.Fatalf("DATABASE_URL not used as is: %+v %v", c, err)
	}
	if err := c.Stop(context.Background()); err != nil {
		t.Fatal("stopping a server we did not start must do nothing")
	}
	bad := func(k string) string {
		if k == "DATABASE_URL" {
			return "not a url"
		}
		return ""
	}
	if _, err := Start(context.Background(), Options{Env: bad}); err == nil {
		t.Fatal("a malformed DATABASE_URL must be refused with a message")
	}
}

// TestPrivateClusterReused starts a cluster in a fixed directory, then starts
// again on the same directory while it runs: the second start reuses the
// running server and its Stop leaves it running; the first Stop stops it, and
// a third start initialises nothing new.
func TestPrivateClusterReused(t *testing.T) {
	if _, err := FindBinaries(nil); err != nil {
		t.Fatalf("this test needs PostgreSQL binaries (.ci/run installs them): %v", err)
	}
	dir := filepath.Join(mkTemp(t), "pg")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	noEnv := func(string) string { return "" }
	a, err := Start(ctx, Options{DataDir: dir, Env: noEnv, NoContainers: true})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Start(ctx, Options{DataDir: dir, Env: noEnv, NoContainers: true})
	if err != nil {
		a.Stop(ctx)
		t.Fatal(err)
	}
	if a.URL != b.URL {
		t.Errorf("second start should reuse the running server: %s vs %s", a.URL, b.URL)
	}
	if err := b.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := a.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, "data", "PG_VERSION")); err != nil {
		t.Fatalf("a kept cluster's data must survive Stop: %v", err)
	}
	c, err := Start(ctx, Options{DataDir: dir, Env: noEnv, NoContainers: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Stop(ctx)
	if c.Dir != a.Dir {
		t.Errorf("restart used another directory: %s vs %s", c.Dir, a.Dir)
	}
}

// mkTemp makes a directory other users can traverse (t.TempDir is 0700, which
// the unprivileged cluster owner cannot enter when tests run as root).
func mkTemp(t *testing.T) string {
	d, err := os.MkdirTemp("", "pgcluster-test-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(d, 0o755)
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}
