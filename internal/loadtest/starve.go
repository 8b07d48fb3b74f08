package loadtest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/attestari/attestari/internal/httpapi"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/store/storetest"
	"github.com/attestari/attestari/internal/vocab"
)

// StarveOptions bounds the starvation scenario of docs/reliability.md §5:
// one published version with a very large manifest, one client asking for
// it from many connections, and other clients reading other endpoints.
type StarveOptions struct {
	Tools    int           // tools of the large package version (200,000 for the documented figures)
	Small    int           // small package versions the readers read
	Hammers  int           // concurrent connections of the one client that asks for the large manifest
	Readers  int           // other clients, one connection and one loopback address each
	Duration time.Duration // measured time of each phase
	Warmup   time.Duration // unmeasured time before each phase
	// MaxRequests bounds each role in each phase: its loops stop after this
	// many measured requests even if Duration has not passed.
	MaxRequests int
	// RequestsPerMinute is the server's per-client rate limit. 0 sets it out
	// of the way (1<<30), so that only what the service does about cost
	// protects the readers; the documented figures use 0.
	RequestsPerMinute int
	// PacedRPS is the request rate of the hammer in the paced phase: the
	// issue's client, which stays under the default rate limit (600 a
	// minute, 10 a second) and still starved everyone. 0: 10.
	PacedRPS int
	Log      io.Writer
}

func (o *StarveOptions) defaults() {
	if o.Tools == 0 {
		o.Tools = 200_000
	}
	if o.Small == 0 {
		o.Small = 200
	}
	if o.Hammers == 0 {
		o.Hammers = 40
	}
	if o.Readers == 0 {
		o.Readers = 8
	}
	if o.Duration == 0 {
		o.Duration = 20 * time.Second
	}
	if o.Warmup == 0 {
		o.Warmup = 2 * time.Second
	}
	if o.MaxRequests == 0 {
		o.MaxRequests = 500_000
	}
	if o.RequestsPerMinute == 0 {
		o.RequestsPerMinute = 1 << 30
	}
	if o.PacedRPS == 0 {
		o.PacedRPS = 10
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
}

// RoleFigures are one role's measurements in one phase. Statuses counts the
// answers by HTTP status; 0 counts requests that got no answer (a transport
// error). Unanswered counts requests started while measuring that had no
// answer when the phase ended: their latency is in no percentile.
type RoleFigures struct {
	Role       string      `json:"role"`
	Conns      int         `json:"connections"`
	Requests   int         `json:"requests"`
	Errors     int         `json:"errors"` // answers other than 200 and 304, and no answer
	Unanswered int         `json:"unanswered"`
	RPS        float64     `json:"rps"`
	P50ms      float64     `json:"p50_ms"`
	P99ms      float64     `json:"p99_ms"`
	MaxMs      float64     `json:"max_ms"`
	Statuses   map[int]int `json:"statuses"`
	Bytes      int64       `json:"bytes"`
}

// StarvePhase is one measured phase: the readers, and the hammer when it ran.
type StarvePhase struct {
	Name    string       `json:"name"`
	Seconds float64      `json:"seconds"`
	Readers RoleFigures  `json:"readers"`
	Hammer  *RoleFigures `json:"hammer,omitempty"`
	RSSMB   float64      `json:"rss_mb"`
}

// StarveResult is a whole starvation run.
type StarveResult struct {
	Tools       int     `json:"tools"`
	SeedSeconds float64 `json:"seed_seconds"`
	// One client alone fetching the whole large manifest (every page when
	// the service pages it), first with the cache cold, then again.
	FullFetchCold, FullFetchWarm FetchFigures
	Phases                       []StarvePhase `json:"phases"`
	CPUs                         int           `json:"cpus"`
	GOMAXPROCS                   int           `json:"gomaxprocs"`
	StartedAt                    time.Time     `json:"started_at"`
	GoVersion                    string        `json:"go_version"`
	LoadAvg                      [2]string     `json:"load_average"`
	PeakRSSMB                    float64       `json:"peak_rss_mb"`
	Options                      StarveOptions `json:"-"`
}

// FetchFigures describe one fetch of a whole manifest.
type FetchFigures struct {
	Requests int     `json:"requests"`
	Bytes    int64   `json:"bytes"`
	Seconds  float64 `json:"seconds"`
	Status   int     `json:"status"` // the last answer's status
}

// LargeName is the package name of the large version.
const LargeName = "lt-large-server"

// SeedLarge loads one package version with tools trivial tools (the shape of
// the issue: a small artifact registering a great many tools) and small
// further versions like Seed's, in one publication.
func SeedLarge(ctx context.Context, st *store.Store, tools, small int) error {
	at := time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)
	p := storetest.Publication("lt-large-pub", "lt-large-run", at)
	ts := make([]publish.Tool, 0, tools)
	for i := range tools {
		ts = append(ts, storetest.Tool("t"+strconv.Itoa(i), vocab.StateReadable, "Tool number "+strconv.Itoa(i)+".", vocab.SchemaNone, ""))
	}
	p.Packages = append(p.Packages, storetest.Package(vocab.RegistryNPM, LargeName, "1.0.0", vocab.VerdictGraded, "A", nil, ts...))
	for i := range small {
		p.Packages = append(p.Packages, storetest.Package(vocab.RegistryNPM, Name(i), "1.0.0", vocab.VerdictGraded, "A", nil,
			storetest.Tool("read_file", vocab.StateReadable, "Reads a file from the workspace.", vocab.SchemaJSON, `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
			storetest.Tool("list_files", vocab.StateReadable, "Lists the files of a directory.", vocab.SchemaSource, "z.object({ dir: z.string() })")))
	}
	if err := st.LoadPublication(ctx, p); err != nil {
		return fmt.Errorf("seed the large publication: %w", err)
	}
	return st.Analyze(ctx)
}

// clientFrom returns an HTTP client whose connections come from the
// loopback address 127.0.0.host, so the server sees a client of its own
// (the rate limiter and any per-client bound key on the address).
func clientFrom(host byte, conns int) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, host)}, Timeout: 5 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns * 2,
		MaxConnsPerHost: conns, DisableCompression: true}
	return &http.Client{Transport: tr}
}

// nextLink is the target of a Link header's rel="next" (RFC 8288), the way
// a paged answer names its next page; "" when there is none.
func nextLink(h http.Header) string {
	for _, v := range h.Values("Link") {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if !strings.Contains(part, `rel="next"`) {
				continue
			}
			if i, j := strings.IndexByte(part, '<'), strings.IndexByte(part, '>'); i >= 0 && j > i {
				return part[i+1 : j]
			}
		}
	}
	return ""
}

// get sends one GET and reads the whole body, returning the status (0 with
// no answer), the bytes read and the next page's path.
func get(ctx context.Context, c *http.Client, url string, buf []byte) (status int, n int64, next string) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, 0, ""
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, 0, ""
	}
	defer res.Body.Close()
	for {
		k, rerr := res.Body.Read(buf)
		n += int64(k)
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return 0, n, ""
		}
	}
	return res.StatusCode, n, nextLink(res.Header)
}

// fetchAll fetches the whole manifest at path, following next pages, and
// reports each request to each.
func fetchAll(ctx context.Context, c *http.Client, base, path string, buf []byte, each func(status int, n int64, d time.Duration) bool) {
	for path != "" && ctx.Err() == nil {
		t0 := time.Now()
		st, n, next := get(ctx, c, base+path, buf)
		if !each(st, n, time.Since(t0)) || st != http.StatusOK {
			return
		}
		path = next
	}
}

// role collects one role's measurements across its goroutines.
type role struct {
	mu         sync.Mutex
	name       string
	conns      int
	lat        []time.Duration
	statuses   map[int]int
	bytes      int64
	started    atomic.Int64 // measured requests started
	max        int
	measuring  *atomic.Bool
	stopped    atomic.Bool
	unanswered atomic.Int64
}

func newRole(name string, conns, max int, measuring *atomic.Bool) *role {
	return &role{name: name, conns: conns, max: max, measuring: measuring, statuses: map[int]int{}}
}

// begin reports whether a request may start and whether it is measured.
func (r *role) begin() (measured, ok bool) {
	if !r.measuring.Load() {
		return false, !r.stopped.Load()
	}
	if r.started.Add(1) > int64(r.max) {
		r.stopped.Store(true)
		return false, false
	}
	r.unanswered.Add(1)
	return true, true
}

func (r *role) end(measured bool, status int, n int64, d time.Duration, phaseOver bool) {
	if !measured {
		return
	}
	if phaseOver {
		return // still counted as unanswered: the phase ended first
	}
	r.unanswered.Add(-1)
	r.mu.Lock()
	r.lat = append(r.lat, d)
	r.statuses[status]++
	r.bytes += n
	r.mu.Unlock()
}

// answered is how many measured requests have been answered so far.
func (r *role) answered() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.lat)
}

func (r *role) figures(seconds float64) RoleFigures {
	r.mu.Lock()
	defer r.mu.Unlock()
	f := RoleFigures{Role: r.name, Conns: r.conns, Requests: len(r.lat), Statuses: map[int]int{}, Bytes: r.bytes, Unanswered: int(r.unanswered.Load())}
	for s, n := range r.statuses {
		f.Statuses[s] = n
		if s != http.StatusOK && s != http.StatusNotModified {
			f.Errors += n
		}
	}
	if len(r.lat) > 0 {
		all := slices.Clone(r.lat)
		slices.Sort(all)
		ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
		f.P50ms, f.P99ms, f.MaxMs = ms(all[len(all)/2]), ms(all[min(len(all)-1, len(all)*99/100)]), ms(all[len(all)-1])
		f.RPS = float64(len(all)) / seconds
	}
	return f
}

// readerPaths is what the other clients read, in turn: a package page
// (several queries), a small manifest, and a page of the package list.
func readerPath(rng *rand.Rand, small, i int) string {
	k := Name(rng.IntN(small))
	switch i % 3 {
	case 0:
		return "/packages/npm/" + k + "/1.0.0"
	case 1:
		return "/manifest/" + k + "/1.0.0"
	default:
		return "/packages?limit=20&q=lt-server-00" + strconv.Itoa(rng.IntN(10))
	}
}

// phase runs the readers, and the hammer when hammer is true, for warmup
// then duration, and measures both.
func starvePhase(ctx context.Context, base, name string, opts StarveOptions, hammer bool, paced int) StarvePhase {
	var measuring atomic.Bool
	pctx, cancel := context.WithCancel(ctx)
	readers := newRole("readers", opts.Readers, opts.MaxRequests, &measuring)
	ham := newRole("hammer", opts.Hammers, opts.MaxRequests, &measuring)
	var over atomic.Bool
	var wg sync.WaitGroup
	for i := range opts.Readers {
		c := clientFrom(byte(10+i), 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer c.CloseIdleConnections()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			buf := make([]byte, 32<<10)
			for j := 0; pctx.Err() == nil; j++ {
				m, ok := readers.begin()
				if !ok {
					return
				}
				t0 := time.Now()
				st, n, _ := get(pctx, c, base+readerPath(rng, opts.Small, j), buf)
				readers.end(m, st, n, time.Since(t0), over.Load())
			}
		}()
	}
	var pace <-chan time.Time
	if hammer && paced > 0 {
		tk := time.NewTicker(time.Second / time.Duration(paced))
		defer tk.Stop()
		pace = tk.C
	}
	if hammer {
		c := clientFrom(2, opts.Hammers)
		defer c.CloseIdleConnections()
		for range opts.Hammers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				buf := make([]byte, 256<<10)
				// A hostile client: it starts over at the first page after
				// any answer but 200, and honours no Retry-After.
				for pctx.Err() == nil {
					for path := "/manifest/" + LargeName + "/1.0.0"; path != "" && pctx.Err() == nil; {
						if pace != nil {
							select {
							case <-pace:
							case <-pctx.Done():
								return
							}
						}
						m, ok := ham.begin()
						if !ok {
							return
						}
						t0 := time.Now()
						st, n, next := get(pctx, c, base+path, buf)
						ham.end(m, st, n, time.Since(t0), over.Load())
						if st != http.StatusOK {
							break
						}
						path = next
					}
				}
			}()
		}
	}
	time.Sleep(opts.Warmup)
	start := time.Now()
	measuring.Store(true)
	deadline := time.NewTimer(opts.Duration)
	tick := time.NewTicker(50 * time.Millisecond)
	// A phase measures something: past its duration it lasts until each
	// role has had one request answered (a machine busy with other work can
	// take longer than a short phase to answer the first), or ctx ends.
	answeredAll := func() bool { return readers.answered() > 0 && (!hammer || ham.answered() > 0) }
	expired := false
loop:
	for {
		select {
		case <-deadline.C:
			expired = true
			if answeredAll() {
				break loop
			}
		case <-ctx.Done():
			break loop
		case <-tick.C:
			if readers.stopped.Load() && (!hammer || ham.stopped.Load()) {
				break loop
			}
			if expired && answeredAll() {
				break loop
			}
		}
	}
	tick.Stop()
	over.Store(true)
	measuring.Store(false)
	secs := time.Since(start).Seconds()
	p := StarvePhase{Name: name, Seconds: secs, RSSMB: rssMB("VmRSS")}
	p.Readers = readers.figures(secs)
	if hammer {
		h := ham.figures(secs)
		p.Hammer = &h
	}
	cancel()
	wg.Wait()
	return p
}

// Starve seeds the store, serves it as attestari-api does (cache live on
// the loader's notifications) on loopback, and measures the readers alone,
// then the readers while one client asks for the large manifest from
// opts.Hammers connections.
func Starve(ctx context.Context, st *store.Store, opts StarveOptions) (*StarveResult, error) {
	opts.defaults()
	r := &StarveResult{Tools: opts.Tools, CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0),
		StartedAt: time.Now().UTC(), GoVersion: runtime.Version(), Options: opts}
	r.LoadAvg[0] = loadAvg()
	fmt.Fprintf(opts.Log, "starve: seeding one version with %d tools and %d small versions\n", opts.Tools, opts.Small)
	t0 := time.Now()
	if err := SeedLarge(ctx, st, opts.Tools, opts.Small); err != nil {
		return nil, err
	}
	r.SeedSeconds = time.Since(t0).Seconds()
	srvAPI, err := httpapi.New(httpapi.Options{Reader: st, Logger: slog.New(slog.DiscardHandler), RequestsPerMinute: opts.RequestsPerMinute})
	if err != nil {
		return nil, err
	}
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	live := make(chan bool, 1)
	go func() {
		_ = st.WatchPublications(wctx, func(l bool) {
			srvAPI.PublicationsChanged(l)
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
	srv, base, err := server(srvAPI)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	c := clientFrom(3, 1)
	buf := make([]byte, 256<<10)
	for _, f := range []*FetchFigures{&r.FullFetchCold, &r.FullFetchWarm} {
		t := time.Now()
		fctx, cancel := context.WithTimeout(ctx, time.Minute)
		fetchAll(fctx, c, base, "/manifest/"+LargeName+"/1.0.0", buf, func(st int, n int64, _ time.Duration) bool {
			f.Requests++
			f.Bytes += n
			f.Status = st
			return true
		})
		cancel()
		f.Seconds = time.Since(t).Seconds()
	}
	c.CloseIdleConnections()
	fmt.Fprintf(opts.Log, "starve: one full fetch: %d requests, %d bytes, %.2f s cold, %.2f s warm\n", r.FullFetchCold.Requests, r.FullFetchCold.Bytes, r.FullFetchCold.Seconds, r.FullFetchWarm.Seconds)
	for _, ph := range []struct {
		name   string
		hammer bool
		paced  int
	}{
		{"readers alone", false, 0},
		{fmt.Sprintf("hammer paced at %d req/s", opts.PacedRPS), true, opts.PacedRPS},
		{"hammer unpaced", true, 0},
	} {
		fmt.Fprintf(opts.Log, "starve: %s: %s after %s warm-up\n", ph.name, opts.Duration, opts.Warmup)
		r.Phases = append(r.Phases, starvePhase(ctx, base, ph.name, opts, ph.hammer, ph.paced))
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	r.PeakRSSMB = rssMB("VmHWM")
	r.LoadAvg[1] = loadAvg()
	return r, nil
}

// Markdown renders the result as a table for docs/reliability.md §5.
func (r *StarveResult) Markdown(command, label string) string {
	var b strings.Builder
	o := r.Options
	fmt.Fprintf(&b, "%s: one version with %d tools (seeded through the loader in %.1f s) and %d small versions; %d other readers\n", label, r.Tools, r.SeedSeconds, o.Small, o.Readers)
	fmt.Fprintf(&b, "(one connection and one loopback address each) and, in the later phases, one client (the hammer) with %d connections\n", o.Hammers)
	fmt.Fprintf(&b, "fetching the large manifest whole, over and over, starting again after any answer but 200: first paced at %d requests/s\n", o.PacedRPS)
	fmt.Fprintf(&b, "(under the default rate limit of 600 a minute, as in the issue), then as fast as it can (the server's rate limit is set out of\n")
	fmt.Fprintf(&b, "the way, so only the cost rules stand between it and the readers); %s per phase after %s of warm-up, at most %d requests per role;\n", o.Duration, o.Warmup, o.MaxRequests)
	fmt.Fprintf(&b, "%d CPUs, %s, measured %s, 1-minute load average %s before and %s after. The load generator runs in the\n", r.CPUs, r.GoVersion, r.StartedAt.Format("2006-01-02 15:04 MST"), r.LoadAvg[0], r.LoadAvg[1])
	fmt.Fprintf(&b, "same process as the server and shares its cores.\n\nCommand: `%s`\n\n", command)
	fmt.Fprintf(&b, "One client alone fetching the whole large manifest: %d request(s), %.1f MB, %.2f s with the cache cold, %.2f s again (last status %d).\n\n",
		r.FullFetchCold.Requests, float64(r.FullFetchCold.Bytes)/1e6, r.FullFetchCold.Seconds, r.FullFetchWarm.Seconds, r.FullFetchWarm.Status)
	fmt.Fprintf(&b, "| phase | role | conns | requests | req/s | p50 ms | p99 ms | max ms | errors | unanswered at end | statuses |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n")
	row := func(ph StarvePhase, f RoleFigures) {
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %.1f | %.2f | %.2f | %.2f | %d | %d | %s |\n", ph.Name, f.Role, f.Conns, f.Requests, f.RPS, f.P50ms, f.P99ms, f.MaxMs, f.Errors, f.Unanswered, statuses(f.Statuses))
	}
	for _, ph := range r.Phases {
		row(ph, ph.Readers)
		if ph.Hammer != nil {
			row(ph, *ph.Hammer)
		}
	}
	fmt.Fprintf(&b, "\nPeak RSS of the process (server, pool, cache and generator): %.0f MB.\n", r.PeakRSSMB)
	return b.String()
}

func statuses(m map[int]int) string {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var parts []string
	for _, k := range keys {
		name := strconv.Itoa(k)
		if k == 0 {
			name = "no answer"
		}
		parts = append(parts, fmt.Sprintf("%s: %d", name, m[k]))
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}
