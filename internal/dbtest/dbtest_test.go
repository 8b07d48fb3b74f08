package dbtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

const helperEnv = "DBTEST_HELPER_FREEZE_AND_DIE"

// TestDeadBinaryLeavesNoFrozenCluster: a test binary that ends while its
// private cluster is frozen and without running its cleanups (here
// os.Exit; go test's -timeout ends a binary the same way) leaves no server
// behind: the sentinel thaws and stops it and removes its directory.
func TestDeadBinaryLeavesNoFrozenCluster(t *testing.T) {
	if os.Getenv(helperEnv) == "1" {
		c := Private(t)
		if err := c.Freeze(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(c.Dir + "/data/postmaster.pid")
		if err != nil {
			t.Fatal(err)
		}
		pm, _, _ := strings.Cut(string(b), "\n")
		fmt.Printf("DIR=%s\nPM=%s\n", c.Dir, pm)
		os.Exit(3)
	}
	cmd := osexec.Command(os.Args[0], "-test.run=^TestDeadBinaryLeavesNoFrozenCluster$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1")
	out, err := cmd.Output()
	if ee, ok := err.(*osexec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Fatalf("the helper should freeze its cluster and exit 3: %v\n%s", err, out)
	}
	var dir string
	pm := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "DIR="); ok {
			dir = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "PM="); ok {
			pm, _ = strconv.Atoi(v)
		}
	}
	if dir == "" || pm <= 1 {
		t.Fatalf("the helper did not say where its cluster was:\n%s", out)
	}
	state := func() string {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pm) + "/stat")
		if err != nil {
			return "gone"
		}
		if i := bytes.LastIndexByte(b, ')'); i >= 0 && len(b) > i+2 {
			return string(b[i+2 : i+3])
		}
		return "?"
	}
	// A bound on waiting for the sentinel (it polls every second and stops
	// the server with an immediate shutdown), not a measure of it.
	for end := time.Now().Add(90 * time.Second); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		if _, err := os.Stat(dir); os.IsNotExist(err) && state() == "gone" {
			return
		}
	}
	t.Fatalf("90 s after the binary died, its cluster is still there: postmaster %d state %s, directory %s", pm, state(), dir)
}
