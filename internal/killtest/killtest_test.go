package killtest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

const childEnv = "KILLTEST_CHILD_MARKER"

// TestHelperChild is the child: it writes the marker it is given and waits
// to be killed. Run directly (no marker), it does nothing.
func TestHelperChild(t *testing.T) {
	m := os.Getenv(childEnv)
	if m == "" {
		return
	}
	if err := os.WriteFile(m, []byte("here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Hour)
}

// The child reaches its marker, is killed there, and died of SIGKILL.
func TestStartWaitKill(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "reached")
	c := Start(t, TestRun("TestHelperChild"), childEnv+"="+marker)
	c.WaitUntil("its marker", 5*time.Millisecond, Exists(marker))
	c.Kill()
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("the marker the child wrote: %v", err)
	}
}

// fatalTB records Fatalf instead of ending the test, and stops the caller's
// goroutine as FailNow would.
type fatalTB struct {
	testing.TB
	msg chan string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg <- format
	select {} // WaitUntil must not go on after a fatal failure; park this goroutine
}

func (f *fatalTB) Helper() {}

// A child that exits before the awaited point fails the test at once,
// naming the point, instead of waiting out the deadline.
func TestChildExitingEarlyFails(t *testing.T) {
	c := Start(t, TestRun("TestHelperChild")) // no marker: the child returns at once
	f := &fatalTB{TB: t, msg: make(chan string, 1)}
	c.t = f
	go c.WaitUntil("a marker that never comes", 5*time.Millisecond, func() bool { return false })
	select {
	case m := <-f.msg:
		if m != "child exited before it was killed (%s): %v\n%s" {
			t.Fatalf("failure message %q", m)
		}
	case <-time.After(Deadline):
		t.Fatal("WaitUntil did not fail when the child exited")
	}
}
