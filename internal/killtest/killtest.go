// Package killtest starts the running test binary again as a child process,
// waits until the child reaches a point the test names, and kills it there
// with SIGKILL: the shape every "killed mid-write" test of the project
// shares (publish, load, evidence cleanup, the pipeline's resume, the
// queue's finisher). It is imported by tests only.
package killtest

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Deadline is how long a child may take, by default, to reach the point
// WaitUntil awaits.
const Deadline = 2 * time.Minute

// Child is a test binary started again as a child process.
type Child struct {
	// Deadline is how long WaitUntil waits (Deadline unless set).
	Deadline time.Duration

	t      testing.TB
	cmd    *exec.Cmd
	out    bytes.Buffer
	exited chan error
}

// Start runs the test binary (os.Args[0]) with args, its environment the
// test's own plus env; the child's standard output and error are kept for
// the failure messages. A child that is still running when the test ends is
// killed.
func Start(t testing.TB, args []string, env ...string) *Child {
	t.Helper()
	c := &Child{Deadline: Deadline, t: t, exited: make(chan error, 1)}
	c.cmd = exec.Command(os.Args[0], args...)
	c.cmd.Env = append(os.Environ(), env...)
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.out
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { c.exited <- c.cmd.Wait() }()
	t.Cleanup(func() { _ = c.cmd.Process.Kill() })
	return c
}

// TestRun is the argument list that runs test function name alone in the
// child, with a timeout of its own.
func TestRun(name string) []string {
	return []string{"-test.run=^" + name + "$", "-test.timeout=5m"}
}

// Output is what the child has written so far.
func (c *Child) Output() string { return c.out.String() }

// WaitUntil polls reached every poll until it holds. It fails the test if
// the child exits first, or if c.Deadline passes (the child is killed then);
// what names the point awaited, for the message.
func (c *Child) WaitUntil(what string, poll time.Duration, reached func() bool) {
	c.t.Helper()
	deadline := time.After(c.Deadline)
	for {
		select {
		case err := <-c.exited:
			c.exited <- err
			c.t.Fatalf("child exited before it was killed (%s): %v\n%s", what, err, c.Output())
		case <-deadline:
			_ = c.cmd.Process.Kill()
			c.t.Fatalf("child never reached %s\n%s", what, c.Output())
		case <-time.After(poll):
			if reached() {
				return
			}
		}
	}
}

// Kill sends SIGKILL and waits for the child, failing the test unless the
// child died of it.
func (c *Child) Kill() {
	c.t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		c.t.Fatal(err)
	}
	if err := <-c.exited; err == nil || !strings.Contains(err.Error(), "killed") {
		c.t.Fatalf("child did not die by SIGKILL: %v\n%s", err, c.Output())
	}
}

// Exists is a WaitUntil condition: path exists (a marker file the child
// writes when it reaches the point).
func Exists(path string) func() bool {
	return func() bool {
		_, err := os.Stat(path)
		return err == nil
	}
}
