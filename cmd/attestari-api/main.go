// Command attestari-api serves the public, read-only JSON API and the website
// from PostgreSQL. It wires configuration, the database, the HTTP server and
// graceful shutdown; the service itself is package httpapi.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/attestari/attestari/internal/httpapi"
	"github.com/attestari/attestari/internal/pgcluster"
	"github.com/attestari/attestari/internal/store"
)

var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr, os.Getenv); err != nil {
		fmt.Fprintf(os.Stderr, "attestari-api: %v\n", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs := flag.NewFlagSet("attestari-api", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", envOr(getenv, "ATTESTARI_ADDR", "localhost:8080"), "address to listen on (env ATTESTARI_ADDR)")
	startPG := fs.Bool("start-postgres", false, "when DATABASE_URL is unset, start (or reuse) the private cluster under $ATTESTARI_HOME/pg and stop it on exit")
	migrate := fs.Bool("migrate", false, "apply pending migrations before serving")
	logFormat := fs.String("log-format", envOr(getenv, "ATTESTARI_LOG_FORMAT", "text"), "log format: text or json (env ATTESTARI_LOG_FORMAT)")
	rate := fs.Int("rate", 600, "requests per minute per client before 429")
	conns := fs.Int("db-conns", 32, "connections in the database pool")
	proxies := fs.String("trusted-proxies", getenv("ATTESTARI_TRUSTED_PROXIES"), "comma-separated CIDR prefixes of the reverse proxies in front of the server; the client is then read from X-Forwarded-For (env ATTESTARI_TRUSTED_PROXIES; empty: the TCP peer is the client)")
	deadline := fs.String("request-deadline", envOr(getenv, "ATTESTARI_REQUEST_DEADLINE", httpapi.DefaultRequestDeadline.String()), "bound on the database work of one request, as a Go duration (env ATTESTARI_REQUEST_DEADLINE); past it the answer is 504. At most the write timeout less the read timeout ("+maxDeadline.String()+")")
	checkAddr := fs.Bool("check-addr", false, "only check that the address can be listened on, then exit (0: free; 1: not, with the reason); `make run` calls it before the cycle starts")
	appeals := fs.String("appeals-contact", getenv("ATTESTARI_APPEALS_CONTACT"), "where publishers send appeals, an e-mail address or a URL, shown on the website's package and finding pages (env ATTESTARI_APPEALS_CONTACT; empty: the pages say none is configured)")
	keysFile := fs.String("attestation-keys", getenv("ATTESTARI_ATTESTATION_KEYS"), "the key set served at /.well-known/attestari-keys.json, a file written by 'attestari keys' (env ATTESTARI_ATTESTATION_KEYS; empty: the path answers 404 and no attestation can be verified against this service's keys)")
	cacheMB := fs.Int("manifest-cache-mb", 64, "memory for cached GET /manifest answers, in MiB; cached only while the server hears the loader's notifications (0: no cache)")
	fs.Usage = func() {
		fmt.Fprintf(stdout, `Usage: attestari-api [flags]

Serves the read-only Attestari API and website from PostgreSQL (DATABASE_URL).
Without DATABASE_URL, --start-postgres runs a private cluster under $ATTESTARI_HOME/pg.

Flags:
`)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fmt.Fprintf(stdout, "\nExample:\n  DATABASE_URL=postgres://attestari@127.0.0.1:5432/attestari attestari-api --migrate --addr :8080\n")
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	reqDeadline, err := checkDeadline(*deadline)
	if err != nil {
		return err
	}
	var trusted []string
	for _, p := range strings.Split(*proxies, ",") {
		if p = strings.TrimSpace(p); p != "" {
			trusted = append(trusted, p)
		}
	}
	if err := httpapi.CheckTrustedProxies(trusted); err != nil {
		return fmt.Errorf("--trusted-proxies: %w", err)
	}
	var log *slog.Logger
	switch *logFormat {
	case "json":
		log = slog.New(slog.NewJSONHandler(stderr, nil))
	case "text":
		log = slog.New(slog.NewTextHandler(stderr, nil))
	default:
		return fmt.Errorf("--log-format must be text or json, not %q", *logFormat)
	}

	// Listen first: a port in use is reported before anything is started.
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %v; choose another with --addr or ATTESTARI_ADDR", *addr, err)
	}
	defer ln.Close()
	if *checkAddr {
		fmt.Fprintf(stdout, "%s is free\n", ln.Addr())
		return nil
	}

	if getenv("DATABASE_URL") == "" && !*startPG {
		return errors.New("no database: set DATABASE_URL, or pass --start-postgres to run a private cluster under $ATTESTARI_HOME/pg")
	}
	home := envOr(getenv, "ATTESTARI_HOME", "var")
	if abs, err := filepath.Abs(home); err == nil {
		home = abs
	}
	cl, err := pgcluster.Start(ctx, pgcluster.Options{
		DataDir: filepath.Join(home, "pg"),
		Env:     getenv,
		Log:     func(f string, a ...any) { log.Info(fmt.Sprintf(f, a...)) },
	})
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := cl.Stop(sctx); err != nil {
			log.Error("stop postgres", "error", err)
		}
	}()
	var replicas []string
	for _, u := range strings.Split(getenv("ATTESTARI_DATABASE_REPLICA_URL"), ",") {
		if u = strings.TrimSpace(u); u != "" {
			replicas = append(replicas, u)
		}
	}
	// Reads run on a replica only once it has replayed what the primary's
	// notifications announced (store.Options.ReplicaURLs), and only while
	// it answers: one that does not is left for the primary until it
	// answers again (GET /readyz lists each one's state).
	st, err := store.Open(ctx, cl.URL, store.Options{MaxConns: int32(*conns), ReplicaURLs: replicas, WatchError: func(err error) {
		log.Warn("manifest cache off until the database notifications are heard again", "error", err)
	}, ReplicaWarn: func(msg string, replica int, cause error) {
		if cause != nil {
			log.Warn(msg, "replica", replica, "error", cause)
		} else {
			log.Info(msg, "replica", replica)
		}
	}})
	if err != nil {
		return err
	}
	defer st.Close()
	if *migrate {
		res, err := st.Migrate(ctx)
		if err != nil {
			return err
		}
		log.Info("database migrated", "applied", len(res.Applied), "current", res.Current)
	}
	var keySet []byte
	if *keysFile != "" {
		if keySet, err = os.ReadFile(*keysFile); err != nil {
			return fmt.Errorf("--attestation-keys: %w", err)
		}
	}
	cacheBytes := *cacheMB << 20
	if *cacheMB <= 0 {
		cacheBytes = -1
	}
	api, err := httpapi.New(httpapi.Options{Reader: st, Logger: log, RequestsPerMinute: *rate, Version: version, ManifestCacheBytes: cacheBytes, TrustedProxies: trusted, RequestDeadline: reqDeadline,
		AppealsContact: *appeals, AttestationKeys: keySet})
	if err != nil {
		return fmt.Errorf("start the API: %w", err)
	}
	// Cached manifests are served only while every load is heard of.
	wctx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	go func() { _ = st.WatchPublications(wctx, api.PublicationsChanged) }()
	srv := &http.Server{
		// The body limit (413) is the API's own: httpapi.Options.MaxBodyBytes.
		Handler:           api,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(stdout, "attestari-api %s listening (database: %s)\n  website        %s/\n  gate map       %s/gate_map.json\n  a manifest     %s/manifest/@attestari-demo/weather/1.0.0\n  readiness      %s/readyz\n  methodology    %s/methodology\n  metrics        %s/metrics\nCtrl-C stops everything.\n", version, cl.How, base, base, base, base, base, base)
	errc := make(chan error, 1)
	// net/http's own refusals (a malformed request line or header) go out
	// as problem+json like every other error.
	go func() { errc <- srv.Serve(httpapi.ProblemListener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: draining in-flight requests")
	sctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// The server's timeouts. The write timeout runs from the end of the request
// headers, and reading the body (up to 1 MiB, POST /lookup) may take up to
// the read timeout before the handler reads the database; so a request's
// answer is written in time only when the request deadline fits in what is
// left: maxDeadline.
const (
	readTimeout  = 10 * time.Second
	writeTimeout = 30 * time.Second
	maxDeadline  = writeTimeout - readTimeout
)

// checkDeadline parses --request-deadline and refuses one the server could
// not answer within.
func checkDeadline(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--request-deadline %q is not a positive duration such as 10s or 1500ms", v)
	}
	if d > maxDeadline {
		return 0, fmt.Errorf("--request-deadline %v is longer than %v, the server's %v write timeout less its %v read timeout: a request that waited that long could not be answered before the server cut the connection; choose %v or less", d, maxDeadline, writeTimeout, readTimeout, maxDeadline)
	}
	return d, nil
}

func envOr(getenv func(string) string, k, def string) string {
	if v := getenv(k); v != "" {
		return v
	}
	return def
}
