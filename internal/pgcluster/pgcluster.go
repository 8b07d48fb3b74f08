// Package pgcluster finds or starts the PostgreSQL server Attestari talks to,
// the one way for `make run` and for tests:
//
//  1. DATABASE_URL, when set, is used as it is;
//  2. else a private cluster from local PostgreSQL binaries (initdb and pg_ctl on
//     PATH or under /usr/lib/postgresql/*/bin), listening on loopback only, run as
//     an unprivileged user when the caller is root (PostgreSQL refuses root);
//  3. else a container from testcontainers-go's Postgres module when a Docker
//     engine answers;
//  4. else one error that names the three ways.
//
// It returns a connection string and a stop function. A private cluster it
// started can also be stopped and started again on the same port, and
// frozen with SIGSTOP (control.go), for the drills of database faults. It
// knows nothing of the schema: migrating is package store's job.
package pgcluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Options says where a private cluster lives and how to report progress.
type Options struct {
	// DataDir is the cluster's directory. Empty means a new temporary directory
	// that Stop removes (the tests' case); a set DataDir is kept and reused.
	DataDir string
	// Database is the database to create and connect to (default "attestari").
	Database string
	// Log receives one line per step; nil discards.
	Log func(format string, args ...any)
	// Env overrides os.Getenv (tests).
	Env func(string) string
	// NoContainers disables the testcontainers fallback.
	NoContainers bool
}

// Cluster is a reachable PostgreSQL server.
type Cluster struct {
	// URL is a libpq connection string for the Options.Database database.
	URL string
	// How is "DATABASE_URL", "local binaries" or "container".
	How string
	// Dir is the private cluster's data directory, when there is one.
	Dir  string
	stop func(context.Context) error
	// ctl is set for a cluster Start started from local binaries: what
	// Down, Up, Freeze and Thaw need (control.go).
	ctl *control
}

// Stop stops what Start started. It does nothing for DATABASE_URL or for a
// cluster that was already running when Start found it.
func (c *Cluster) Stop(ctx context.Context) error {
	if c == nil || c.stop == nil {
		return nil
	}
	return c.stop(ctx)
}

// ErrNoPostgres is returned when none of the three ways is available.
var ErrNoPostgres = errors.New("no PostgreSQL available")

// Start returns a reachable server, trying the three ways in order.
func Start(ctx context.Context, opts Options) (*Cluster, error) {
	if opts.Env == nil {
		opts.Env = os.Getenv
	}
	if opts.Log == nil {
		opts.Log = func(string, ...any) {}
	}
	if opts.Database == "" {
		opts.Database = "attestari"
	}
	if raw := opts.Env("DATABASE_URL"); raw != "" {
		if err := ValidateURL(raw); err != nil {
			return nil, err
		}
		return &Cluster{URL: raw, How: "DATABASE_URL"}, nil
	}
	bin, binErr := FindBinaries(opts.Env)
	if binErr == nil {
		return startLocal(ctx, bin, opts)
	}
	if !opts.NoContainers {
		c, err := startContainer(ctx, opts)
		if err == nil {
			return c, nil
		}
		opts.Log("pgcluster: no container: %v", err)
		return nil, fmt.Errorf("%w: %v; and no Docker engine answered (%v). Do one of: set DATABASE_URL=postgres://user:pass@host:5432/db; install PostgreSQL server binaries (Debian: apt-get install -y postgresql); or start a Docker engine", ErrNoPostgres, binErr, err)
	}
	return nil, fmt.Errorf("%w: %v. Do one of: set DATABASE_URL=postgres://user:pass@host:5432/db; install PostgreSQL server binaries (Debian: apt-get install -y postgresql); or start a Docker engine", ErrNoPostgres, binErr)
}

// ValidateURL checks that a DATABASE_URL is a postgres URL or a libpq
// key=value string, and says what is wrong when it is not.
func ValidateURL(raw string) error {
	if strings.HasPrefix(raw, "postgres://") || strings.HasPrefix(raw, "postgresql://") {
		u, err := url.Parse(raw)
		if err != nil {
			return fmt.Errorf("DATABASE_URL is not a valid URL (%v): expected postgres://user:password@host:5432/dbname", redact(err))
		}
		if u.Host == "" && u.Query().Get("host") == "" {
			return fmt.Errorf("DATABASE_URL has no host: expected postgres://user:password@host:5432/dbname")
		}
		return nil
	}
	if strings.Contains(raw, "=") && !strings.Contains(raw, "://") {
		return nil // libpq key=value form; pgx reports field errors itself
	}
	return fmt.Errorf("DATABASE_URL must start with postgres:// or postgresql:// (or be libpq key=value pairs); got a value starting %q", firstN(raw, 12))
}

func redact(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err.Error()
	}
	return "unparseable"
}

func firstN(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Binaries are the PostgreSQL programs a private cluster needs.
type Binaries struct {
	InitDB string
	PgCtl  string
	Dir    string
}

// FindBinaries looks for initdb and pg_ctl on PATH, then under
// /usr/lib/postgresql/*/bin (newest major first).
func FindBinaries(env func(string) string) (Binaries, error) {
	if env == nil {
		env = os.Getenv
	}
	if d := env("ATTESTARI_PG_BIN"); d != "" {
		return binariesIn(d)
	}
	if i, err := exec.LookPath("initdb"); err == nil {
		if p, err := exec.LookPath("pg_ctl"); err == nil {
			ri, _ := filepath.EvalSymlinks(i)
			return Binaries{InitDB: i, PgCtl: p, Dir: filepath.Dir(ri)}, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(a, b int) bool { return majorOf(dirs[a]) > majorOf(dirs[b]) })
	for _, d := range dirs {
		if b, err := binariesIn(d); err == nil {
			return b, nil
		}
	}
	return Binaries{}, errors.New("no PostgreSQL server binaries (initdb, pg_ctl) on PATH or under /usr/lib/postgresql/*/bin")
}

func majorOf(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func binariesIn(d string) (Binaries, error) {
	b := Binaries{InitDB: filepath.Join(d, "initdb"), PgCtl: filepath.Join(d, "pg_ctl"), Dir: d}
	for _, p := range []string{b.InitDB, b.PgCtl} {
		if fi, err := os.Stat(p); err != nil || fi.Mode()&0o111 == 0 {
			return Binaries{}, fmt.Errorf("%s is not an executable", p)
		}
	}
	return b, nil
}

// runAs describes the unprivileged account a cluster runs under when we are root.
type runAs struct {
	uid, gid uint32
	name     string
}

func unprivileged() (*runAs, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if uid == 0 {
			continue
		}
		return &runAs{uid: uint32(uid), gid: uint32(gid), name: name}, nil
	}
	return nil, errors.New("running as root and no unprivileged account (postgres or nobody) exists to run PostgreSQL; create one or set DATABASE_URL")
}

// traversable reports whether every parent of dir can be entered by other users,
// which an unprivileged cluster owner needs.
func traversable(dir string) bool {
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err != nil {
			return false
		}
		if fi.Mode().Perm()&0o001 == 0 {
			return false
		}
		if d == filepath.Dir(d) {
			return true
		}
	}
}

func startLocal(ctx context.Context, bin Binaries, opts Options) (*Cluster, error) {
	as, err := unprivileged()
	if err != nil {
		return nil, err
	}
	temporary := opts.DataDir == ""
	var base string
	if temporary {
		base, err = os.MkdirTemp("", "attestari-pg-")
		if err != nil {
			return nil, fmt.Errorf("make a temporary directory for PostgreSQL: %w", err)
		}
	} else {
		abs, err := filepath.Abs(opts.DataDir)
		if err != nil {
			return nil, err
		}
		base = abs
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", base, err)
		}
		if as != nil && !traversable(base) {
			// The unprivileged owner cannot reach a directory under, say, /root:
			// keep the cluster in a fixed place derived from the requested one.
			sum := sha256.Sum256([]byte(abs))
			base = filepath.Join(os.TempDir(), "attestari-pg-"+hex.EncodeToString(sum[:6]))
			opts.Log("pgcluster: %s is not reachable by user %s; the cluster lives in %s", abs, as.name, base)
		}
		if err := os.MkdirAll(base, 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", base, err)
		}
	}
	if err := os.Chmod(base, 0o755); err != nil {
		return nil, err
	}
	data := filepath.Join(base, "data")
	sock := filepath.Join(base, "sock")
	for _, d := range []string{sock} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		if as != nil {
			_ = os.Chown(d, int(as.uid), int(as.gid))
		}
	}
	cleanup := func() {
		if temporary {
			os.RemoveAll(base)
		}
	}
	run := func(ctx context.Context, name string, args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Env = append(os.Environ(), "LC_ALL=C", "TZ=UTC")
		cmd.Dir = base
		if as != nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: as.uid, Gid: as.gid}}
		}
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		return out.Bytes(), err
	}
	if _, err := os.Stat(filepath.Join(data, "PG_VERSION")); err != nil {
		opts.Log("pgcluster: initdb %s", data)
		if err := os.MkdirAll(data, 0o700); err != nil {
			cleanup()
			return nil, err
		}
		if as != nil {
			_ = os.Chown(data, int(as.uid), int(as.gid))
		}
		if out, err := run(ctx, bin.InitDB, "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"); err != nil {
			cleanup()
			return nil, fmt.Errorf("initdb failed: %v: %s", err, lastLines(out, 5))
		}
	}
	c := &Cluster{How: "local binaries", Dir: base}
	// A server already running on this data directory (another `make run`) is reused as is.
	if port, ok := runningPort(data); ok {
		if out, err := run(ctx, bin.PgCtl, "status", "-D", data); err == nil {
			opts.Log("pgcluster: reusing the server already running on %s (port %d)", data, port)
			c.URL = localURL(port, opts.Database)
			return c, ensureDatabase(ctx, c.URL, opts.Database)
		} else {
			_ = out
		}
	}
	port, err := freePort()
	if err != nil {
		cleanup()
		return nil, fmt.Errorf("find a free loopback port: %w", err)
	}
	logFile := filepath.Join(base, "server.log")
	if as != nil {
		f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err == nil {
			f.Close()
			_ = os.Chown(logFile, int(as.uid), int(as.gid))
		}
	}
	serverOpts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200", port, sock)
	opts.Log("pgcluster: starting PostgreSQL on 127.0.0.1:%d", port)
	if out, err := run(ctx, bin.PgCtl, "start", "-D", data, "-w", "-t", "60", "-l", logFile, "-o", serverOpts); err != nil {
		log, _ := os.ReadFile(logFile)
		cleanup()
		return nil, fmt.Errorf("pg_ctl start failed: %v: %s %s", err, lastLines(out, 3), lastLines(log, 5))
	}
	c.URL = localURL(port, opts.Database)
	c.ctl = &control{data: data, start: func(ctx context.Context) error {
		if out, err := run(ctx, bin.PgCtl, "start", "-D", data, "-w", "-t", "60", "-l", logFile, "-o", serverOpts); err != nil {
			log, _ := os.ReadFile(logFile)
			return fmt.Errorf("pg_ctl start failed: %v: %s %s", err, lastLines(out, 3), lastLines(log, 5))
		}
		return nil
	}, stop: func(ctx context.Context) error {
		if out, err := run(ctx, bin.PgCtl, "stop", "-D", data, "-m", "fast", "-w", "-t", "30"); err != nil {
			return fmt.Errorf("pg_ctl stop: %v: %s", err, lastLines(out, 3))
		}
		return nil
	}}
	c.stop = func(ctx context.Context) error {
		err := c.ctl.shutdown(ctx)
		cleanup()
		return err
	}
	c.ctl.standby = func(ctx context.Context) (*Cluster, error) {
		return startStandby(ctx, bin, as, run, base, port, opts.Database)
	}
	if err := ensureDatabase(ctx, c.URL, opts.Database); err != nil {
		_ = c.Stop(context.Background())
		return nil, err
	}
	return c, nil
}

// runningPort reads the port of a server running on data from postmaster.pid.
func runningPort(data string) (int, bool) {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0, false
	}
	lines := strings.Split(string(b), "\n")
	if len(lines) < 4 {
		return 0, false
	}
	p, err := strconv.Atoi(strings.TrimSpace(lines[3]))
	return p, err == nil
}

func localURL(port int, db string) string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/%s?sslmode=disable", port, db)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

// WithDatabase returns rawURL pointing at database db instead.
func WithDatabase(rawURL, db string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" {
		return rawURL + " dbname=" + db
	}
	u.Path = "/" + db
	return u.String()
}

// waitFor retries f until it succeeds or ctx ends.
func waitFor(ctx context.Context, f func() error) error {
	var err error
	for {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
