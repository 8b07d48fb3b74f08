package queue_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
)

// BenchmarkQueuePassProcesses is BenchmarkQueuePass with processes: the
// built `attestari` binary (go build of ./cmd/attestari into the
// benchmark's temporary directory, or $ATTESTARI_BIN) against the same
// stand-in registry and one PostgreSQL. The same command as
// BenchmarkQueuePass runs it ('QueuePass' matches both):
//
//	ATTESTARI_QB_PACKAGES=100 go test -count=1 -run '^$' -bench 'QueuePass|QueueJobs' -benchtime 1x -timeout 30m ./internal/queue/
//
// Baselines: `attestari run --concurrency 1` and `--concurrency 2` (one
// process, wall from its start to its exit; one unmeasured run first, for
// the file system's caches). Queued: k = 1, 2, 4 `attestari worker
// --workers 1` processes are started and wait until each says it drains
// the queue; the wall runs from the start of `attestari run --queue` to the
// run's row saying finished (the finish job assembled the seven files).
// Each k runs with River's default fetch cadence (pNw) and with
// --fetch-cooldown 5ms (pNwf5ms). Reported: packages/s, packages/s per
// worker process, and queue overhead per job: worker time per job (k x wall
// / N) minus the --concurrency 1 time per package.
func BenchmarkQueuePassProcesses(b *testing.B) {
	n := benchPackages()
	f := benchFixture(b, n)
	bin := attestariBinary(b)
	dbURL := dbtest.URL(b)
	st, err := store.Open(context.Background(), dbURL, store.Options{MaxConns: 4})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(st.Close)
	env := func(home string) []string {
		return append(os.Environ(), "ATTESTARI_HOME="+home, "ATTESTARI_NPM_REGISTRY="+f.url, "ATTESTARI_PYPI_URL="+f.url,
			"ATTESTARI_DATABASE_URL="+dbURL)
	}
	run := func(home string, args ...string) time.Duration {
		cmd := exec.Command(bin, args...)
		cmd.Env = env(home)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("attestari %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return time.Since(start)
	}
	b.Logf("load average at the start: %s", loadAvg())
	run(b.TempDir(), "run", "--concurrency", "1", "--candidates", f.candidates, "--run-id", "warm")
	for range b.N {
		single := run(b.TempDir(), "run", "--concurrency", "1", "--candidates", f.candidates, "--run-id", "single")
		perPkg := single.Seconds() / float64(n)
		b.ReportMetric(float64(n)/single.Seconds(), "p_single_pkg/s")
		b.ReportMetric(perPkg*1000, "p_single_ms/pkg")
		c2 := run(b.TempDir(), "run", "--concurrency", "2", "--candidates", f.candidates, "--run-id", "single2")
		b.ReportMetric(float64(n)/c2.Seconds(), "p_single_c2_pkg/s")
		for _, r := range []struct {
			k        int
			cooldown string
			tag      string
		}{{1, "0s", "p1w"}, {2, "0s", "p2w"}, {4, "0s", "p4w"}, {1, "5ms", "p1wf5ms"}, {2, "5ms", "p2wf5ms"}, {4, "5ms", "p4wf5ms"}} {
			id := fmt.Sprintf("%s-%d", r.tag, time.Now().UnixNano())
			home := b.TempDir()
			stop := workerProcesses(b, bin, env(home), r.k, r.cooldown)
			start := time.Now()
			run(home, "run", "--queue", "--candidates", f.candidates, "--run-id", id)
			benchWaitFinished(b, st, id)
			wall := time.Since(start)
			stop()
			if c, err := st.QueueResultCount(context.Background(), id); err != nil || c != n {
				b.Fatalf("%s: %d results, %v; want %d", r.tag, c, err, n)
			}
			rate := float64(n) / wall.Seconds()
			b.ReportMetric(rate, r.tag+"_pkg/s")
			b.ReportMetric(rate/float64(r.k), r.tag+"_pkg/s/worker")
			b.ReportMetric((float64(r.k)*wall.Seconds()/float64(n)-perPkg)*1000, r.tag+"_overhead_ms/job")
			b.ReportMetric(rate/(float64(n)/single.Seconds()), r.tag+"_x_single")
		}
	}
	b.Logf("load average at the end: %s", loadAvg())
}

// attestariBinary is $ATTESTARI_BIN, or ./cmd/attestari built now.
func attestariBinary(b *testing.B) string {
	b.Helper()
	if p := os.Getenv("ATTESTARI_BIN"); p != "" {
		return p
	}
	out := filepath.Join(b.TempDir(), "attestari")
	cmd := exec.Command("go", "build", "-o", out, "github.com/attestari/attestari/cmd/attestari")
	if msg, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, msg)
	}
	return out
}

// workerProcesses starts k `attestari worker --workers 1` processes and
// returns once each has said it drains its queue; stop sends SIGTERM and
// waits for them.
func workerProcesses(b *testing.B, bin string, env []string, k int, cooldown string) (stop func()) {
	b.Helper()
	var cmds []*exec.Cmd
	for i := range k {
		cmd := exec.Command(bin, "worker", "--workers", "1", "--fetch-cooldown", cooldown)
		cmd.Env = env
		logf, err := os.Create(filepath.Join(b.TempDir(), fmt.Sprintf("worker%d.log", i)))
		if err != nil {
			b.Fatal(err)
		}
		cmd.Stderr = logf
		out, err := cmd.StdoutPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		ready := make(chan struct{})
		go func() {
			sc := bufio.NewScanner(out)
			said := false
			for sc.Scan() {
				if !said && strings.HasPrefix(sc.Text(), "worker: draining queue") {
					said = true
					close(ready)
				}
			}
		}()
		select {
		case <-ready:
		case <-time.After(time.Minute):
			b.Fatalf("worker %d did not start", i)
		}
		cmds = append(cmds, cmd)
		b.Cleanup(func() {
			_ = cmd.Process.Kill()
			logf.Close()
		})
	}
	return func() {
		for _, c := range cmds {
			_ = c.Process.Signal(syscall.SIGTERM)
		}
		for _, c := range cmds {
			_ = c.Wait()
		}
	}
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}
