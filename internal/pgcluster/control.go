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
	// standby starts a streaming standby of this server (standby.go); nil
	// on a standby itself.
	standby func(context.Context) (*Cluster, error)

	mu     sync.Mutex
	down   bool  // stopped by Down, not yet started by Up
	frozen []int // the processes Freeze stopped, the postmaster first
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
// Each backend is its own session leader (PostgreSQL's child processes call
// setsid), so signalling the postmaster's group would miss them: the
// postmaster is stopped first, so it forks nothing more, then each of its
// children.
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
	if len(ctl.frozen) != 0 {
		return nil
	}
	pid, err := postmasterPID(ctl.data)
	if err != nil {
		return fmt.Errorf("pgcluster: freeze: %w", err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		return fmt.Errorf("pgcluster: freeze: %w", err)
	}
	ctl.frozen = []int{pid}
	kids, err := children(pid)
	if err != nil {
		_ = ctl.thawLocked()
		return fmt.Errorf("pgcluster: freeze: %w", err)
	}
	for _, k := range kids {
		// A child that exited meanwhile (ESRCH) has nothing left to freeze.
		if err := syscall.Kill(k, syscall.SIGSTOP); err == nil {
			ctl.frozen = append(ctl.frozen, k)
		} else if !errors.Is(err, syscall.ESRCH) {
			_ = ctl.thawLocked()
			return fmt.Errorf("pgcluster: freeze %d: %w", k, err)
		}
	}
	return nil
}

// children lists the processes whose parent is pid, from /proc.
func children(pid int) ([]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range ents {
		k, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue // gone since ReadDir
		}
		// "pid (comm) state ppid ...": comm may hold spaces and parentheses,
		// so the fields are counted from the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, k)
		}
	}
	return out, nil
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
	var errs []error
	for _, pid := range ctl.frozen {
		if err := syscall.Kill(pid, syscall.SIGCONT); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("pgcluster: thaw %d: %w", pid, err))
		}
	}
	ctl.frozen = nil
	return errors.Join(errs...)
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
