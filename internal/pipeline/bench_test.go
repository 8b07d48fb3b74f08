package pipeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/s3test"
)

// Throughput of the offline part of a pass (issue 3 item 5): from a warm
// evidence store (every tarball already stored), read each blob, verify it
// against its hash, and read + classify its archive, for N synthetic
// packages on every core. Two baselines over the same blobs give the ratio:
// reading the files alone, and reading + verifying (store.Get).
//
//	go test -run '^$' -bench 'Warm' -benchtime 3x ./internal/pipeline/
//
// Metrics: packages/s, MB/s of stored (compressed) bytes (from SetBytes),
// uncompressed MB/s, cpu_ms/pkg (user + system CPU time per package, the
// figure that does not move when other work shares the machine), and peak_rss_MB, the process's maximum resident set
// (getrusage ru_maxrss) after the benchmark: a high-water mark of the whole
// test process, setup included.

// benchSize is a class of synthetic package.
type benchSize struct {
	name      string
	packages  int
	files     int // source members
	fileBytes int // approximate bytes per source member
	bundle    int // bytes of one minified bundle, 0 for none
}

var benchSizes = []benchSize{
	{name: "small", packages: 200, files: 8, fileBytes: 2 << 10},
	{name: "medium", packages: 200, files: 40, fileBytes: 8 << 10, bundle: 64 << 10},
	{name: "large", packages: 40, files: 120, fileBytes: 24 << 10, bundle: 1 << 20},
}

// warmStore holds N stored tarballs.
type warmStore struct {
	store        *evidence.Store
	shas         []string
	paths        []string
	stored       int64 // bytes of all blobs
	uncompressed int64 // bytes of all members
}

// synthSource writes deterministic JavaScript of about n bytes: short
// lines, as readable source has.
func synthSource(r *rand.Rand, n int) string {
	var b strings.Builder
	words := []string{"const", "server", "tool", "await", "return", "input", "result", "schema", "handler", "request", "text", "value"}
	for b.Len() < n {
		fmt.Fprintf(&b, "%s %s_%d = %s(%q, %d);\n", words[r.IntN(len(words))], words[r.IntN(len(words))], r.IntN(1000),
			words[r.IntN(len(words))], words[r.IntN(len(words))]+" "+words[r.IntN(len(words))], r.IntN(1<<16))
	}
	return b.String()
}

// warmStores caches one warm store per size for the whole test binary: the
// testing package calls a benchmark function more than once (b.N = 1 first),
// and building hundreds of tarballs each time would dwarf what is measured.
var (
	warmMu     sync.Mutex
	warmStores = map[string]*warmStore{}
	warmRoot   string
)

func newWarmStore(b *testing.B, sz benchSize) *warmStore {
	b.Helper()
	warmMu.Lock()
	defer warmMu.Unlock()
	if w, ok := warmStores[sz.name]; ok {
		return w
	}
	if warmRoot == "" {
		d, err := os.MkdirTemp("", "attestari-bench-")
		if err != nil {
			b.Fatal(err)
		}
		warmRoot = d
	}
	s, err := evidence.Open(filepath.Join(warmRoot, sz.name))
	if err != nil {
		b.Fatal(err)
	}
	w := &warmStore{store: s}
	warmStores[sz.name] = w
	r := rand.New(rand.NewPCG(1, uint64(sz.files)))
	for i := range sz.packages {
		files := []string{"package.json", fmt.Sprintf(`{"name":"bench-%d","version":"1.0.0","main":"dist/index.js"}`, i),
			"README.md", "# bench\n\n## Tools\n\n- `echo`: echo\n"}
		for j := range sz.files {
			files = append(files, fmt.Sprintf("dist/m%03d.js", j), synthSource(r, sz.fileBytes))
		}
		if sz.bundle > 0 {
			files = append(files, "dist/bundle.min.js", strings.ReplaceAll(synthSource(r, sz.bundle), "\n", ""))
		}
		for j := 1; j < len(files); j += 2 {
			w.uncompressed += int64(len(files[j]))
		}
		data := tgz(b, files...)
		sha, err := s.Put(context.Background(), data)
		if err != nil {
			b.Fatal(err)
		}
		p, _ := s.Path(sha)
		w.shas, w.paths = append(w.shas, sha), append(w.paths, p)
		w.stored += int64(len(data))
	}
	return w
}

// TestMain removes the benchmarks' warm stores when the binary ends. With
// childModeEnv set, the binary is a child extraction process instead
// (child_test.go), so the tests' children are real processes.
func TestMain(m *testing.M) {
	if os.Getenv(childModeEnv) != "" {
		os.Exit(serveTestChild())
	}
	code := s3test.Main(m) // m.Run, then stop the S3 server evidence_s3_test.go started
	if warmRoot != "" {
		_ = os.RemoveAll(warmRoot)
	}
	os.Exit(code)
}

// each runs fn over every package on GOMAXPROCS workers, as the pipeline's
// workers would.
func (w *warmStore) each(b *testing.B, fn func(i int) error) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				if err := fn(i); err != nil {
					once.Do(func() { first = err })
				}
			}
		}()
	}
	for i := range w.shas {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

func reportWarm(b *testing.B, w *warmStore) {
	secs := b.Elapsed().Seconds()
	if secs > 0 {
		b.ReportMetric(float64(len(w.shas)*b.N)/secs, "packages/s")
		b.ReportMetric(float64(w.uncompressed*int64(b.N))/secs/1e6, "uncompressed_MB/s")
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak_rss_MB") // Linux reports KiB
	}
}

// cpuTime is the process's user + system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func benchWarm(b *testing.B, fn func(w *warmStore) func(i int) error) {
	for _, sz := range benchSizes {
		b.Run(sz.name, func(b *testing.B) {
			w := newWarmStore(b, sz)
			op := fn(w)
			b.SetBytes(w.stored)
			b.ReportAllocs()
			cpu0 := cpuTime()
			b.ResetTimer()
			for range b.N {
				w.each(b, op)
			}
			b.StopTimer()
			// CPU time per package does not depend on what else the machine
			// is running, unlike the wall-clock rates.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(len(w.shas)*b.N), "cpu_ms/pkg")
			reportWarm(b, w)
		})
	}
}

// BenchmarkRunWarm: read + verify + classify, the pipeline's own path
// (store.Get, then ReadArtifact).
func BenchmarkRunWarm(b *testing.B) {
	benchWarm(b, func(w *warmStore) func(i int) error {
		return func(i int) error {
			data, err := w.store.Get(context.Background(), w.shas[i])
			if err != nil {
				return err
			}
			a, err := ReadArtifact(context.Background(), data, artifact.FormatNpmTarball, artifact.Limits{})
			if err != nil {
				return err
			}
			if a.Outcome != artifact.OutcomeOK {
				return fmt.Errorf("package %d: %s %s", i, a.Outcome, a.Reason)
			}
			return nil
		}
	})
}

// BenchmarkWarmBaselineVerify: read + verify only (store.Get).
func BenchmarkWarmBaselineVerify(b *testing.B) {
	benchWarm(b, func(w *warmStore) func(i int) error {
		return func(i int) error {
			_, err := w.store.Get(context.Background(), w.shas[i])
			return err
		}
	})
}

// BenchmarkWarmBaselineRead: the blob files read and nothing else.
func BenchmarkWarmBaselineRead(b *testing.B) {
	benchWarm(b, func(w *warmStore) func(i int) error {
		return func(i int) error {
			_, err := os.ReadFile(w.paths[i])
			return err
		}
	})
}
