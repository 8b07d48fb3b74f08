package pgcluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// ErrNotControllable is returned by Down, Up, Freeze and Thaw on a cluster
// this process did not start from local binaries (DATABASE_URL, a container,
// a server that was already running): stopping or freezing a server others
// use is never what a test means.
var ErrNotControllable = errors.New("pgcluster: only a private cluster started here from local binaries can be stopped, started or frozen")

// control is what stopping, starting and freezing a private cluster needs
// while its data directory and port stay the same, so clients configured
// with its URL reconnect to the same address: the drills of database faults
// (internal/dbtest.Private) are made of these.
type control struct {
	data        string
	start, stop func(context.Context) error

	mu     sync.Mutex
	down   bool // stopped by Down, not yet started by Up
	frozen int  // the process group Freeze stopped (0: none)
}

func (c *Cluster) control() (*control, error) {
	if c == nil || c.ctl == nil {
		return nil, ErrNotControllable
	}
	return c.ctl, nil
}

// Down stops the server (a fast shutdown: sessions are told 57P01 and
// closed) and keeps its data, so Up can start it again on the same port.
// A frozen server is thawed first, since a stopped process cannot shut down.
func (c *Cluster) Down(ctx context.Context) error {
	ctl, err := c.control()
	if err != nil {
		return err
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if ctl.down {
		return nil
	}
	if err := ctl.thawLocked(); err != nil {
		return err
	}
	if err := ctl.stop(ctx); err != nil {
		return err
	}
	ctl.down = true
	return nil
}

// Up starts a server Down stopped, on the same port and data directory.
func (c *Cluster) Up(ctx context.Context) error {
	ctl, err := c.control()
	if err != nil {
		return err
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if !ctl.down {
		return nil
	}
	if err := ctl.start(ctx); err != nil {
		return err
	}
	ctl.down = false
	return nil
}

// Freeze stops every process of the server with SIGSTOP: its sockets stay
// open and the kernel still accepts connections, but nothing answers and no
// statement_timeout can fire. It is the fault a hung host or a stalled disk
// looks like from a client. Thaw (or Stop, or Down) resumes it.
//
// pg_ctl starts the postmaster as a session leader, so its process group is
// the whole server (backends and auxiliary processes inherit it); Freeze
// refuses when that does not hold rather than signal the wrong group.
func (c *Cluster) Freeze() error {
	ctl, err := c.control()
	if err != nil {
		return err
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	if ctl.down {
		return errors.New("pgcluster: freeze: the server is down")
	}
	if ctl.frozen != 0 {
		return nil
	}
	pid, err := postmasterPID(ctl.data)
	if err != nil {
		return fmt.Errorf("pgcluster: freeze: %w", err)
	}
	if pgid, err := syscall.Getpgid(pid); err != nil || pgid != pid {
		return fmt.Errorf("pgcluster: freeze: postmaster %d does not lead its own process group (group %d, %v)", pid, pgid, err)
	}
	if err := syscall.Kill(-pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("pgcluster: freeze: %w", err)
	}
	ctl.frozen = pid
	return nil
}

// Thaw resumes a server Freeze stopped; it does nothing otherwise.
func (c *Cluster) Thaw() error {
	ctl, err := c.control()
	if err != nil {
		return err
	}
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	return ctl.thawLocked()
}

func (ctl *control) thawLocked() error {
	if ctl.frozen == 0 {
		return nil
	}
	if err := syscall.Kill(-ctl.frozen, syscall.SIGCONT); err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("pgcluster: thaw: %w", err)
	}
	ctl.frozen = 0
	return nil
}

// shutdown is Stop's part: thaw, then stop unless Down already did.
func (ctl *control) shutdown(ctx context.Context) error {
	ctl.mu.Lock()
	defer ctl.mu.Unlock()
	thawErr := ctl.thawLocked()
	if ctl.down {
		return thawErr
	}
	if err := ctl.stop(ctx); err != nil {
		return errors.Join(thawErr, err)
	}
	ctl.down = true
	return thawErr
}

// postmasterPID reads the server's process id, the first line of postmaster.pid.
func postmasterPID(data string) (int, error) {
	b, err := os.ReadFile(filepath.Join(data, "postmaster.pid"))
	if err != nil {
		return 0, err
	}
	first, _, _ := strings.Cut(string(b), "\n")
	pid, err := strconv.Atoi(strings.TrimSpace(first))
	if err != nil || pid <= 1 {
		return 0, fmt.Errorf("postmaster.pid does not start with a process id: %q", first)
	}
	return pid, nil
}
