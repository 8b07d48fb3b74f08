// Package loadtest measures GET /manifest: the API (internal/httpapi, with
// its contract validation, rate limiter, metrics and logs) against a bare
// net/http handler doing the same store query on the same pool, over a
// database of synthetic published package versions seeded through the
// loader, with pgbench's point-select rate on the same server as the ceiling.
//
// Everything it starts listens on loopback only, and every phase is bounded
// in time and in request count, so a run stops by itself. It reads no
// network beyond 127.0.0.1 and writes only the database it is given.
package loadtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/attestari/attestari/internal/httpapi"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

// Options bounds a run.
type Options struct {
	Versions    int           // published package versions to seed (at least 10,000 for the documented figures)
	PerPub      int           // package versions per publication
	Concurrency int           // concurrent connections (the targets are read at this level)
	AlsoAt      []int         // further concurrency levels measured the same way, reported beside
	Duration    time.Duration // measured time of one phase
	Warmup      time.Duration // unmeasured time before each phase
	MaxRequests int           // per phase; a phase ends at Duration or MaxRequests, whichever is first
	Rounds      int           // API and bare phases alternate this many times
	PGBench     string        // path of pgbench; empty skips it
	DatabaseURL string        // for pgbench: the same server and database
	Log         io.Writer
}

func (o *Options) defaults() {
	if o.Versions == 0 {
		o.Versions = 10000
	}
	if o.PerPub == 0 {
		o.PerPub = 1000
	}
	if o.Concurrency == 0 {
		o.Concurrency = 64
	}
	if o.Duration == 0 {
		o.Duration = 10 * time.Second
	}
	if o.Warmup == 0 {
		o.Warmup = 2 * time.Second
	}
	if o.MaxRequests == 0 {
		o.MaxRequests = 2_000_000
	}
	if o.Rounds == 0 {
		o.Rounds = 2
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// Figures are one phase's measurements.
type Figures struct {
	Target   string  `json:"target"`
	Conns    int     `json:"connections"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	Seconds  float64 `json:"seconds"`
	RPS      float64 `json:"rps"`
	P50ms    float64 `json:"p50_ms"`
	P99ms    float64 `json:"p99_ms"`
	RSSMB    float64 `json:"rss_mb"`
}

// Result is a whole run.
type Result struct {
	Versions     int       `json:"versions"`
	SeedSeconds  float64   `json:"seed_seconds"`
	Concurrency  int       `json:"concurrency"`
	CPUs         int       `json:"cpus"`
	GOMAXPROCS   int       `json:"gomaxprocs"`
	Phases       []Figures `json:"phases"`
	API          Figures   `json:"api"`         // as served: manifest cache on
	APINoCache   Figures   `json:"api_nocache"` // the same API with its cache off
	Bare         Figures   `json:"bare"`
	Others       []Figures `json:"others,omitempty"` // API and bare at the AlsoAt levels
	Ratio        float64   `json:"ratio"`
	RatioNoCache float64   `json:"ratio_nocache"`
	PGBenchTPS   float64   `json:"pgbench_select_only_tps"`
	PGBenchNote  string    `json:"pgbench_note,omitempty"`
	PeakRSSMB    float64   `json:"peak_rss_mb"`
	StartedAt    time.Time `json:"started_at"`
	GoVersion    string    `json:"go_version"`
	PostgresNote string    `json:"postgres,omitempty"`
	LoadAvg      [2]string `json:"load_average"` // /proc/loadavg's 1-minute figure before seeding and after the last phase
}

// loadAvg is the machine's 1-minute load average, for the record: the run
// shares its cores with whatever else the machine does.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(b)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// Name is the synthetic package name of index i.
func Name(i int) string { return fmt.Sprintf("lt-server-%05d", i) }

// Seed loads opts.Versions synthetic package versions through the loader,
// opts.PerPub per publication, each with three tools.
func Seed(ctx context.Context, st *store.Store, versions, perPub int) error {
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for start, n := 0, 0; start < versions; start, n = start+perPub, n+1 {
		p := storetest.Publication(fmt.Sprintf("lt-pub-%03d", n), fmt.Sprintf("lt-run-%03d", n), at.Add(time.Duration(n)*time.Hour))
		for i := start; i < min(start+perPub, versions); i++ {
			grade, verdict, codes := "A", vocab.VerdictGraded, []string(nil)
			if i%7 == 3 {
				grade, verdict, codes = "", vocab.VerdictNotGradeable, []string{vocab.CodeMinifiedOnly}
			}
			pkg := storetest.Package(vocab.RegistryNPM, Name(i), "1.0.0", verdict, grade, codes,
				storetest.Tool("read_file", vocab.StateReadable, "Reads a file from the workspace.", vocab.SchemaJSON, `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
				storetest.Tool("list_files", vocab.StateReadable, "Lists the files of a directory.", vocab.SchemaSource, "z.object({ dir: z.string() })"),
				storetest.Tool("search_"+strconv.Itoa(i), vocab.StateReadable, "Searches the workspace for text.", vocab.SchemaNone, ""))
			p.Packages = append(p.Packages, pkg)
		}
		if err := st.LoadPublication(ctx, p); err != nil {
			return fmt.Errorf("seed publication %d: %w", n, err)
		}
	}
	return nil
}

// server serves h on a new loopback listener with the production timeouts.
func server(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{
		Handler:           http.MaxBytesHandler(h, 1<<20),
		ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second, WriteTimeout: 30 * time.Second,
		IdleTimeout: 120 * time.Second, MaxHeaderBytes: 32 << 10,
	}
	go func() { _ = srv.Serve(ln) }()
	return srv, "http://" + ln.Addr().String(), nil
}

// bare is the baseline: the same store call, encoded, with nothing around it.
func bare(st *store.Store) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /manifest/{name}/{version}", func(w http.ResponseWriter, r *http.Request) {
		m, err := st.Manifest(r.Context(), r.URL.Query().Get("registry"), r.PathValue("name"), r.PathValue("version"), r.URL.Query().Get("cursor"))
		if err != nil {
			http.Error(w, "not found", http.StatusNotFound)
			return
		}
		b, err := json.Marshal(m)
		if err != nil {
			http.Error(w, "internal", http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	return mux
}

// rssMB reads the resident set of this process (server and load generator
// together) from /proc.
func rssMB(field string) float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, field+":") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}

// hammer sends GET /manifest for random seeded versions from conc
// connections for d (after warmup), or until max requests.
func hammer(ctx context.Context, base, target string, versions, conc int, warmup, d time.Duration, max int) Figures {
	// Each connection is a client of its own (its own loopback address), as
	// gateways are: the API bounds each client's database-bound requests
	// in flight, and 64 connections of one client would measure that bound.
	clients := make([]*http.Client, conc)
	for w := range conc {
		clients[w] = clientFrom(byte(10+w%240), 1)
		clients[w].Timeout = 10 * time.Second
		defer clients[w].CloseIdleConnections()
	}
	var measuring atomic.Bool
	var count atomic.Int64
	var wg sync.WaitGroup
	lat := make([][]time.Duration, conc)
	errs := make([]int, conc)
	stop := make(chan struct{})
	for w := range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 42))
			client := clients[w]
			buf := make([]byte, 32<<10)
			for {
				select {
				case <-stop:
					return
				case <-ctx.Done():
					return
				default:
				}
				url := base + "/manifest/" + Name(rng.IntN(versions)) + "/1.0.0"
				t0 := time.Now()
				res, err := client.Get(url)
				ok := err == nil
				if err == nil {
					for {
						if _, rerr := res.Body.Read(buf); rerr != nil {
							ok = rerr == io.EOF
							break
						}
					}
					res.Body.Close()
					ok = ok && res.StatusCode == http.StatusOK
				}
				el := time.Since(t0)
				if measuring.Load() {
					if count.Add(1) > int64(max) {
						return
					}
					lat[w] = append(lat[w], el)
					if !ok {
						errs[w]++
					}
				}
			}
		}()
	}
	time.Sleep(warmup)
	start := time.Now()
	measuring.Store(true)
	deadline := time.NewTimer(d)
	tick := time.NewTicker(50 * time.Millisecond)
loop:
	for {
		select {
		case <-deadline.C:
			break loop
		case <-ctx.Done():
			break loop
		case <-tick.C:
			if count.Load() >= int64(max) {
				break loop
			}
		}
	}
	measuring.Store(false)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	tick.Stop()
	var all []time.Duration
	f := Figures{Target: target, Conns: conc, Seconds: elapsed.Seconds(), RSSMB: rssMB("VmRSS")}
	for w := range conc {
		all = append(all, lat[w]...)
		f.Errors += errs[w]
	}
	f.Requests = len(all)
	if len(all) > 0 {
		slices.Sort(all)
		f.P50ms = float64(all[len(all)/2].Microseconds()) / 1000
		f.P99ms = float64(all[min(len(all)-1, len(all)*99/100)].Microseconds()) / 1000
		f.RPS = float64(len(all)) / elapsed.Seconds()
	}
	return f
}

func mean(fs []Figures, target string, conns int) Figures {
	out := Figures{Target: target, Conns: conns}
	n := 0
	for _, f := range fs {
		if f.Target != target || f.Conns != conns {
			continue
		}
		n++
		out.Requests += f.Requests
		out.Errors += f.Errors
		out.Seconds += f.Seconds
		out.P50ms += f.P50ms
		out.P99ms += f.P99ms
		out.RSSMB = max(out.RSSMB, f.RSSMB)
	}
	if n > 0 {
		out.RPS = float64(out.Requests) / out.Seconds
		out.P50ms /= float64(n)
		out.P99ms /= float64(n)
	}
	return out
}

// Run seeds the store, serves it both ways on loopback, and measures.
func Run(ctx context.Context, st *store.Store, opts Options) (*Result, error) {
	opts.defaults()
	r := &Result{Versions: opts.Versions, Concurrency: opts.Concurrency, CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		StartedAt: time.Now().UTC(), GoVersion: runtime.Version()}
	r.LoadAvg[0] = loadAvg()
	fmt.Fprintf(opts.Log, "loadtest: seeding %d package versions through the loader\n", opts.Versions)
	t0 := time.Now()
	if err := Seed(ctx, st, opts.Versions, opts.PerPub); err != nil {
		return nil, err
	}
	if err := st.Analyze(ctx); err != nil {
		return nil, err
	}
	r.SeedSeconds = time.Since(t0).Seconds()
	// The API as attestari-api serves it: manifests cached while the store's
	// notifications are heard. And the same API with no cache, for the cost
	// of the API's layers over the bare handler.
	api, err := httpapi.New(httpapi.Options{Reader: st, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: 1 << 30})
	if err != nil {
		return nil, err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	live := make(chan bool, 1)
	go func() {
		_ = st.WatchPublications(wctx, func(l bool) {
			api.PublicationsChanged(l)
			select {
			case live <- l:
			default:
			}
		})
	}()
	select {
	case <-live:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	noCache, err := httpapi.New(httpapi.Options{Reader: st, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: 1 << 30, ManifestCacheBytes: -1})
	if err != nil {
		return nil, err
	}
	apiSrv, apiURL, err := server(api)
	if err != nil {
		return nil, err
	}
	defer apiSrv.Close()
	noCacheSrv, noCacheURL, err := server(noCache)
	if err != nil {
		return nil, err
	}
	defer noCacheSrv.Close()
	bareSrv, bareURL, err := server(bare(st))
	if err != nil {
		return nil, err
	}
	defer bareSrv.Close()
	// Both answer the same bytes for the same request before anything is timed.
	for _, u := range []string{apiURL, noCacheURL, bareURL} {
		res, err := http.Get(u + "/manifest/" + Name(1) + "/1.0.0")
		if err != nil {
			return nil, err
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			return nil, fmt.Errorf("loadtest: %s answers %d before the run", u, res.StatusCode)
		}
	}
	for _, conc := range append([]int{opts.Concurrency}, opts.AlsoAt...) {
		for round := range opts.Rounds {
			// Alternate which goes first, so a slow moment of a shared machine
			// does not always fall on the same target.
			order := []struct{ name, url string }{{"api", apiURL}, {"api-nocache", noCacheURL}, {"bare", bareURL}}
			if round%2 == 1 {
				slices.Reverse(order)
			}
			for _, t := range order {
				fmt.Fprintf(opts.Log, "loadtest: round %d, %s: %d connections for %s\n", round+1, t.name, conc, opts.Duration)
				f := hammer(ctx, t.url, t.name, opts.Versions, conc, opts.Warmup, opts.Duration, opts.MaxRequests)
				r.Phases = append(r.Phases, f)
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
		}
	}
	r.API, r.APINoCache, r.Bare = mean(r.Phases, "api", opts.Concurrency), mean(r.Phases, "api-nocache", opts.Concurrency), mean(r.Phases, "bare", opts.Concurrency)
	if r.Bare.RPS > 0 {
		r.Ratio = r.API.RPS / r.Bare.RPS
		r.RatioNoCache = r.APINoCache.RPS / r.Bare.RPS
	}
	for _, c := range opts.AlsoAt {
		r.Others = append(r.Others, mean(r.Phases, "api", c), mean(r.Phases, "api-nocache", c), mean(r.Phases, "bare", c))
	}
	r.PeakRSSMB = rssMB("VmHWM")
	r.LoadAvg[1] = loadAvg()
	if opts.PGBench != "" {
		tps, note, err := pgbench(ctx, opts, opts.DatabaseURL)
		if err != nil {
			r.PGBenchNote = "pgbench failed: " + err.Error()
		} else {
			r.PGBenchTPS, r.PGBenchNote = tps, note
		}
	}
	return r, nil
}

// pgbench initialises its own small tables beside ours and runs its built-in
// select-only script (one primary-key point select per transaction) with
// the same number of connections.
func pgbench(ctx context.Context, opts Options, url string) (float64, string, error) {
	fmt.Fprintf(opts.Log, "loadtest: pgbench -S with %d clients for %s\n", opts.Concurrency, opts.Duration)
	ictx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ictx, opts.PGBench, "-i", "-s", "1", "-q", url).CombinedOutput(); err != nil {
		return 0, "", fmt.Errorf("pgbench -i: %v: %s", err, lastLine(string(out)))
	}
	secs := strconv.Itoa(max(1, int(opts.Duration.Seconds())))
	rctx, cancel2 := context.WithTimeout(ctx, opts.Duration+time.Minute)
	defer cancel2()
	args := []string{"-S", "-n", "-c", strconv.Itoa(opts.Concurrency), "-j", strconv.Itoa(runtime.NumCPU()), "-T", secs, url}
	out, err := exec.CommandContext(rctx, opts.PGBench, args...).CombinedOutput()
	if err != nil {
		return 0, "", fmt.Errorf("pgbench -S: %v: %s", err, lastLine(string(out)))
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "tps = ") {
			f := strings.Fields(l)
			tps, err := strconv.ParseFloat(f[2], 64)
			if err == nil {
				return tps, "pgbench " + strings.Join(args[:len(args)-1], " "), nil
			}
		}
	}
	return 0, "", fmt.Errorf("pgbench printed no tps line: %s", lastLine(string(out)))
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Markdown renders the result as the "## API load" section of docs/benchmarks.md.
func (r *Result) Markdown(command string) string {
	var b strings.Builder
	pass := func(ok bool) string {
		if ok {
			return "met"
		}
		return "**not met**"
	}
	fmt.Fprintf(&b, "## API load\n\n")
	fmt.Fprintf(&b, "`GET /manifest/{name}/{version}` over %d published package versions (seeded through the loader in %.1f s),\n", r.Versions, r.SeedSeconds)
	fmt.Fprintf(&b, "%d connections on loopback, %d CPUs (GOMAXPROCS %d), %s, measured %s.\n", r.Concurrency, r.CPUs, r.GOMAXPROCS, r.GoVersion, r.StartedAt.Format("2006-01-02 15:04 MST"))
	fmt.Fprintf(&b, "Each request asks for a version drawn at random from all of them; each connection is a client of its own (its own\n")
	fmt.Fprintf(&b, "loopback address), as separate gateways are, so the API's per-client bound on database-bound requests applies as in service. Three targets, alternating, each\n")
	fmt.Fprintf(&b, "phase after its own warm-up: **api** is the API as `attestari-api` serves it (contract validation, rate\n")
	fmt.Fprintf(&b, "limiter, metrics, access log, and the manifest cache, live because the run listens for the loader's\n")
	fmt.Fprintf(&b, "notifications as the server does); **api-nocache** is the same API with its cache off, so every request\n")
	fmt.Fprintf(&b, "reads the database; **bare** is a bare net/http handler doing the same store query on the same pool.\n")
	fmt.Fprintf(&b, "The load generator runs in the same process and shares the same 2 cores, so every figure includes\n")
	fmt.Fprintf(&b, "the generator's own cost; the machine's 1-minute load average was %s before seeding and %s after the\n", r.LoadAvg[0], r.LoadAvg[1])
	fmt.Fprintf(&b, "last phase (other work on the machine shows there). RSS is the whole process (servers, pool, cache and generator). In the\n")
	fmt.Fprintf(&b, "\"all rounds\" rows, req/s is over all rounds and p50/p99 are the means of the rounds' percentiles.\n\n")
	fmt.Fprintf(&b, "Command: `%s`\n\n", command)
	fmt.Fprintf(&b, "| target | connections | requests | errors | req/s | p50 ms | p99 ms | RSS MB |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(label string, f Figures) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.0f | %.2f | %.2f | %.0f |\n", label, f.Conns, f.Requests, f.Errors, f.RPS, f.P50ms, f.P99ms, f.RSSMB)
	}
	round := map[string]int{}
	for _, f := range r.Phases {
		k := fmt.Sprint(f.Target, f.Conns)
		round[k]++
		row(fmt.Sprintf("%s, round %d", f.Target, round[k]), f)
	}
	label := map[string]string{"api": "API", "api-nocache": "API, cache off", "bare": "bare handler"}
	row("**API, all rounds**", r.API)
	row("**API, cache off, all rounds**", r.APINoCache)
	row("**bare handler, all rounds**", r.Bare)
	for _, f := range r.Others {
		row(label[f.Target]+", all rounds", f)
	}
	fmt.Fprintf(&b, "\nPeak RSS of the process: %.0f MB.\n", r.PeakRSSMB)
	if r.PGBenchTPS > 0 {
		fmt.Fprintf(&b, "pgbench's point-select rate on the same server (the ceiling of a query per request): %.0f transactions/s (`%s`).\n", r.PGBenchTPS, r.PGBenchNote)
	} else if r.PGBenchNote != "" {
		fmt.Fprintf(&b, "pgbench: %s.\n", r.PGBenchNote)
	}
	errorsOK := r.API.Errors == 0 && r.APINoCache.Errors == 0 && r.Bare.Errors == 0
	fmt.Fprintf(&b, "\nTargets at %d connections: 0 errors (%s); p99 < 10 ms (%s: %.2f ms as served; %.2f ms with the cache off);\n"+
		"API at least 0.7× the bare handler's throughput (%s: %.2f× as served; %.2f× with the cache off, which is the cost of the API's layers).\n",
		r.Concurrency, pass(errorsOK), pass(r.API.P99ms < 10), r.API.P99ms, r.APINoCache.P99ms, pass(r.Ratio >= 0.7), r.Ratio, r.RatioNoCache)
	if r.API.RPS > 0 {
		// Little's law: a closed loop of N clients has mean latency N / throughput.
		fmt.Fprintf(&b, "With %d clients each waiting for its answer, the mean latency is %d / throughput: %.1f ms at the API's %.0f req/s.\n",
			r.Concurrency, r.Concurrency, 1000*float64(r.Concurrency)/r.API.RPS, r.API.RPS)
	}
	return b.String()
}

// WriteSection replaces (or appends) the "## API load" section of a
// Markdown file, leaving every other section as it is.
func WriteSection(path, section string) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	doc := string(old)
	const head = "## API load\n"
	if i := strings.Index(doc, head); i >= 0 {
		rest := doc[i+len(head):]
		end := len(doc)
		if j := strings.Index(rest, "\n## "); j >= 0 {
			end = i + len(head) + j + 1
		}
		if end < len(doc) {
			section += "\n"
		}
		doc = doc[:i] + section + doc[end:]
	} else {
		if doc == "" {
			doc = "# Benchmarks\n"
		}
		if !strings.HasSuffix(doc, "\n") {
			doc += "\n"
		}
		doc += "\n" + section
	}
	return os.WriteFile(path, []byte(doc), 0o644)
}
