package pgcluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
)

// StartStandby starts a physical streaming standby of c, a private cluster
// this process started from local binaries: pg_basebackup -R copies c's
// data directory into a directory of the standby's own (under c's) and
// writes the connection back to c, and the standby runs with hot_standby
// on its own loopback port, so it answers reads while it replays. Its URL
// names the same database as c's. Stop stops it and removes its directory;
// PauseReplay and ResumeReplay hold and release its replay (tests of what a
// reader of a lagging replica sees). Anything else is ErrNotControllable.
func (c *Cluster) StartStandby(ctx context.Context) (*Cluster, error) {
	ctl, err := c.control()
	if err != nil || ctl.standby == nil {
		return nil, ErrNotControllable
	}
	return ctl.standby(ctx)
}

var standbys atomic.Int64

func startStandby(ctx context.Context, bin Binaries, as *runAs, run func(context.Context, string, ...string) ([]byte, error), base string, primaryPort int, db string) (*Cluster, error) {
	dir := filepath.Join(base, "standby-"+strconv.FormatInt(standbys.Add(1), 10))
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{dir, sock} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
		if as != nil {
			_ = os.Chown(d, int(as.uid), int(as.gid))
		}
	}
	fail := func(err error) (*Cluster, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	bb := filepath.Join(bin.Dir, "pg_basebackup")
	if out, err := run(ctx, bb, "-h", "127.0.0.1", "-p", strconv.Itoa(primaryPort), "-U", "postgres", "-D", data, "-R", "-X", "stream", "-c", "fast", "--no-sync"); err != nil {
		return fail(fmt.Errorf("pg_basebackup failed: %v: %s", err, lastLines(out, 5)))
	}
	port, err := freePort()
	if err != nil {
		return fail(fmt.Errorf("find a free loopback port: %w", err))
	}
	logFile := filepath.Join(dir, "server.log")
	if as != nil {
		if f, err := os.OpenFile(logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
			f.Close()
			_ = os.Chown(logFile, int(as.uid), int(as.gid))
		}
	}
	serverOpts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -c unix_socket_directories=%s -c hot_standby=on -c fsync=off -c max_connections=200", port, sock)
	start := func(ctx context.Context) error {
		if out, err := run(ctx, bin.PgCtl, "start", "-D", data, "-w", "-t", "60", "-l", logFile, "-o", serverOpts); err != nil {
			log, _ := os.ReadFile(logFile)
			return fmt.Errorf("pg_ctl start (standby) failed: %v: %s %s", err, lastLines(out, 3), lastLines(log, 5))
		}
		return nil
	}
	if err := start(ctx); err != nil {
		return fail(err)
	}
	c := &Cluster{URL: localURL(port, db), How: "local binaries (standby)", Dir: dir}
	c.ctl = &control{data: data, start: start, stop: func(ctx context.Context) error {
		if out, err := run(ctx, bin.PgCtl, "stop", "-D", data, "-m", "fast", "-w", "-t", "30"); err != nil {
			return fmt.Errorf("pg_ctl stop (standby): %v: %s", err, lastLines(out, 3))
		}
		return nil
	}}
	c.stop = func(ctx context.Context) error {
		err := c.ctl.shutdown(ctx)
		os.RemoveAll(dir)
		return err
	}
	return c, nil
}

// PauseReplay holds a standby's replay (pg_wal_replay_pause): it keeps
// receiving the primary's WAL and answering reads, from the state it had
// replayed. It returns once the server reports replay paused.
func (c *Cluster) PauseReplay(ctx context.Context) error {
	if err := c.standbyExec(ctx, "SELECT pg_wal_replay_pause()"); err != nil {
		return err
	}
	return waitFor(ctx, func() error {
		var state string
		if err := c.standbyQuery(ctx, "SELECT pg_get_wal_replay_pause_state()", &state); err != nil {
			return err
		}
		if state != "paused" {
			return fmt.Errorf("replay is %s", state)
		}
		return nil
	})
}

// ResumeReplay releases a replay PauseReplay held.
func (c *Cluster) ResumeReplay(ctx context.Context) error {
	return c.standbyExec(ctx, "SELECT pg_wal_replay_resume()")
}

func (c *Cluster) standbyExec(ctx context.Context, sql string) error {
	var v any
	return c.standbyQuery(ctx, sql, &v)
}

func (c *Cluster) standbyQuery(ctx context.Context, sql string, dest any) error {
	if c == nil || c.ctl == nil || c.ctl.standby != nil {
		return ErrNotControllable
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, c.URL)
	if err != nil {
		return fmt.Errorf("pgcluster: connect to the standby: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := conn.QueryRow(ctx, sql).Scan(dest); err != nil {
		return fmt.Errorf("pgcluster: %s: %w", sql, err)
	}
	return nil
}
