// Command attestari-loadtest measures GET /manifest against a bare handler
// (package loadtest) on a private PostgreSQL it starts and removes: it never
// uses DATABASE_URL, so it cannot write into a database someone relies on.
// It wires flags, the cluster and the store, and writes the result.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/attestari/attestari/internal/loadtest"
	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "attestari-loadtest: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("attestari-loadtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	versions := fs.Int("versions", 10000, "published package versions to seed")
	conc := fs.Int("c", 64, "concurrent connections (the targets are read at this level)")
	also := fs.Int("also", 8, "also measure at this many connections (0: no)")
	poolSize := fs.Int("pool", 16, "database connections in the pool both servers share")
	dur := fs.Duration("d", 10*time.Second, "measured duration of each phase")
	rounds := fs.Int("rounds", 2, "API and bare phases alternate this many times")
	maxReq := fs.Int("max", 2_000_000, "at most this many requests per phase")
	write := fs.String("write", "", "replace the \"## API load\" section of this Markdown file with the result")
	timeout := fs.Duration("timeout", 15*time.Minute, "stop everything after this long")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file")
	mutexprofile := fs.String("mutexprofile", "", "write a mutex contention profile of the run to this file")
	scenario := fs.String("scenario", "manifest", "manifest: GET /manifest against a bare handler; starve: one client asking for one very large manifest while others read (docs/reliability.md §5)")
	tools := fs.Int("tools", 200_000, "starve: tools of the large package version")
	hammers := fs.Int("hammers", 40, "starve: connections of the client asking for the large manifest")
	readers := fs.Int("readers", 8, "starve: other clients, one connection each")
	label := fs.String("label", "this run", "starve: the label of the result's paragraph")
	if err := fs.Parse(args); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	noURL := func(k string) string {
		if k == "DATABASE_URL" {
			return ""
		}
		return os.Getenv(k)
	}
	logf := func(f string, a ...any) { fmt.Fprintf(stderr, f+"\n", a...) }
	cl, err := pgcluster.Start(ctx, pgcluster.Options{Database: "attestari_loadtest", Env: noURL, Log: logf})
	if err != nil {
		return err
	}
	defer func() {
		sctx, c := context.WithTimeout(context.Background(), time.Minute)
		defer c()
		if err := cl.Stop(sctx); err != nil {
			logf("stop postgres: %v", err)
		}
	}()
	st, err := store.Open(ctx, cl.URL, store.Options{MaxConns: int32(*poolSize)})
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		return err
	}
	pgbench := ""
	if bin, err := pgcluster.FindBinaries(noURL); err == nil {
		if p := filepath.Join(bin.Dir, "pgbench"); fileExists(p) {
			pgbench = p
		}
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *mutexprofile != "" {
		runtime.SetMutexProfileFraction(5)
		defer func() {
			if f, err := os.Create(*mutexprofile); err == nil {
				_ = pprof.Lookup("mutex").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if *scenario == "starve" {
		res, err := loadtest.Starve(ctx, st, loadtest.StarveOptions{Tools: *tools, Hammers: *hammers, Readers: *readers, Duration: *dur, MaxRequests: *maxReq, Log: stderr})
		if err != nil {
			return err
		}
		fmt.Fprint(stdout, res.Markdown("go run ./cmd/attestari-loadtest "+strings.Join(args, " "), *label))
		return nil
	}
	if *scenario != "manifest" {
		return fmt.Errorf("-scenario must be manifest or starve, not %q", *scenario)
	}
	res, err := loadtest.Run(ctx, st, loadtest.Options{
		Versions: *versions, Concurrency: *conc, AlsoAt: alsoAt(*also), Duration: *dur, Rounds: *rounds, MaxRequests: *maxReq,
		PGBench: pgbench, DatabaseURL: cl.URL, Log: stderr,
	})
	if err != nil {
		return err
	}
	cmd := "make loadtest (go run ./cmd/attestari-loadtest " + strings.Join(args, " ") + ")"
	md := res.Markdown(cmd)
	fmt.Fprint(stdout, md)
	if *write != "" {
		if err := loadtest.WriteSection(*write, md); err != nil {
			return err
		}
		logf("wrote the \"## API load\" section of %s", *write)
	}
	return nil
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

func alsoAt(n int) []int {
	if n <= 0 {
		return nil
	}
	return []int{n}
}
