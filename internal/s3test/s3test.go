// Package s3test gives tests a real S3-compatible server, the way package
// dbtest gives them a real PostgreSQL: one SeaweedFS (`weed server -s3`) per
// test binary, on free ports on 127.0.0.1, its data in a temporary
// directory, its one identity's credentials written to its s3 config file,
// stopped when the test binary ends (Main) or, should the binary die first,
// by the kernel (the child is started with a parent-death signal). Each test
// takes a fresh bucket of its own (Bucket), so tests stay isolated and can
// run in parallel.
//
// The weed binary is $ATTESTARI_WEED, else weed on PATH, else
// $(go env GOPATH)/bin/weed (where `make weed` builds it). It is for tests
// only, and it never skips: without weed the test fails with a message
// naming those three ways.
package s3test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// Region is the region the server is addressed with.
const Region = "us-east-1"

// ErrNoWeed is returned when no weed binary is found.
var ErrNoWeed = errors.New("no SeaweedFS weed binary: set ATTESTARI_WEED=/path/to/weed, put weed on PATH, or run `make weed` (builds it into $(go env GOPATH)/bin)")

// Server is a running SeaweedFS S3 gateway.
type Server struct {
	// Endpoint is host:port of the S3 API (plain HTTP).
	Endpoint string
	// AccessKey and SecretKey are the one identity's credentials.
	AccessKey, SecretKey string
	// Raw is a client of the server, for a test that must reach behind the
	// store (to damage an object, say).
	Raw *minio.Client

	cmd  *exec.Cmd
	dir  string
	log  *bytes.Buffer
	done chan struct{}
}

var (
	once     sync.Once
	shared   *Server
	startErr error
	buckets  atomic.Int64
)

// Main runs the tests of a package and stops the shared server afterwards.
// Use it from TestMain: func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }.
func Main(m *testing.M) int {
	code := m.Run()
	StopShared()
	return code
}

// StopShared stops the test binary's shared server if one was started. It is
// for a TestMain that must run m.Run through another helper's Main (one
// m.Run per binary): code := dbtest.Main(m); s3test.StopShared().
func StopShared() {
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "s3test: stop:", err)
		}
	}
}

// Start returns the test binary's shared server, starting it on first use.
// It fails the test (never skips) when the server cannot be had.
func Start(t testing.TB) *Server {
	t.Helper()
	once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		shared, startErr = StartServer(ctx)
	})
	if startErr != nil {
		t.Fatalf("s3test: %v", startErr)
	}
	return shared
}

// Bucket creates a fresh, empty bucket for the test and returns its name.
func (s *Server) Bucket(t testing.TB) string {
	t.Helper()
	name := fmt.Sprintf("t%d-%d", os.Getpid(), buckets.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := s.Raw.MakeBucket(ctx, name, minio.MakeBucketOptions{Region: Region}); err != nil {
		t.Fatalf("s3test: make bucket %s: %v", name, err)
	}
	return name
}

// URL is the ATTESTARI_EVIDENCE_URL of bucket and prefix on this server.
func (s *Server) URL(bucket, prefix string) string {
	return "s3://" + bucket + "/" + prefix + "?endpoint=" + s.Endpoint + "&region=" + Region + "&secure=false"
}

// FindWeed returns the weed binary to run: $ATTESTARI_WEED, else weed on
// PATH, else $(go env GOPATH)/bin/weed.
func FindWeed(getenv func(string) string) (string, error) {
	if p := getenv("ATTESTARI_WEED"); p != "" {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("ATTESTARI_WEED=%s is not an executable file: %w", p, ErrNoWeed)
		}
		return p, nil
	}
	if p, err := exec.LookPath("weed"); err == nil {
		return p, nil
	}
	gopath := getenv("GOPATH")
	if gopath == "" {
		if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
			gopath = strings.TrimSpace(string(out))
		}
	}
	for _, dir := range filepath.SplitList(gopath) {
		p := filepath.Join(dir, "bin", "weed")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", ErrNoWeed
}

// StartServer starts a private SeaweedFS and waits until its S3 API stores
// and returns an object. The caller stops it.
func StartServer(ctx context.Context) (*Server, error) {
	weed, err := FindWeed(os.Getenv)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "attestari-s3test-*")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, log: &bytes.Buffer{}, done: make(chan struct{})}
	s.AccessKey, s.SecretKey = randomHex(10), randomHex(20)
	cfg := filepath.Join(dir, "s3.json")
	if err := writeS3Config(cfg, s.AccessKey, s.SecretKey); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ports, err := freePorts(8)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o755); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.Endpoint = "127.0.0.1:" + strconv.Itoa(ports[6])
	args := []string{
		"server", "-s3",
		"-ip=127.0.0.1", "-ip.bind=127.0.0.1",
		"-dir=" + data,
		"-master.port=" + strconv.Itoa(ports[0]), "-master.port.grpc=" + strconv.Itoa(ports[1]),
		"-volume.port=" + strconv.Itoa(ports[2]), "-volume.port.grpc=" + strconv.Itoa(ports[3]),
		"-filer.port=" + strconv.Itoa(ports[4]), "-filer.port.grpc=" + strconv.Itoa(ports[5]),
		"-s3.port=" + strconv.Itoa(ports[6]), "-s3.port.grpc=" + strconv.Itoa(ports[7]),
		"-s3.port.iceberg=0", "-s3.port.lance=0",
		"-s3.config=" + cfg,
		"-s3.autoCreateBucket=false",
		"-filer.localSocket=" + filepath.Join(dir, "filer.sock"),
		"-s3.localSocket=" + filepath.Join(dir, "s3.sock"),
		"-master.telemetry=false",
		"-master.volumeSizeLimitMB=64", "-volume.max=0",
	}
	s.cmd = exec.Command(weed, args...)
	s.cmd.Dir = dir
	s.cmd.Stdout = syncWriter{s}
	s.cmd.Stderr = syncWriter{s}
	// Its own process group, so Stop reaches every child; killed with us.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s: %w", weed, err)
	}
	go func() { _ = s.cmd.Wait(); close(s.done) }()

	s.Raw, err = minio.New(s.Endpoint, &minio.Options{
		Creds: credentials.NewStaticV4(s.AccessKey, s.SecretKey, ""), Region: Region, MaxRetries: 1,
	})
	if err != nil {
		_ = s.Stop()
		return nil, err
	}
	if err := s.waitReady(ctx); err != nil {
		tail := s.logTail()
		_ = s.Stop()
		return nil, fmt.Errorf("weed server -s3 on %s did not become ready: %w\n%s", s.Endpoint, err, tail)
	}
	return s, nil
}

var logMu sync.Mutex

type syncWriter struct{ s *Server }

func (w syncWriter) Write(p []byte) (int, error) {
	logMu.Lock()
	defer logMu.Unlock()
	// Keep the last 64 KiB: enough to say why a start failed.
	if w.s.log.Len() > 64<<10 {
		rest := w.s.log.Bytes()[w.s.log.Len()-32<<10:]
		w.s.log = bytes.NewBuffer(append([]byte(nil), rest...))
	}
	return w.s.log.Write(p)
}

func (s *Server) logTail() string {
	logMu.Lock()
	defer logMu.Unlock()
	b := s.log.Bytes()
	if len(b) > 4<<10 {
		b = b[len(b)-4<<10:]
	}
	return string(b)
}

// waitReady polls until a probe bucket takes an object and gives it back:
// the gateway answers before the filer and a volume are writable.
func (s *Server) waitReady(ctx context.Context) error {
	const probe = "s3test-ready"
	var last error
	for {
		select {
		case <-s.done:
			return fmt.Errorf("weed exited: %v", s.cmd.ProcessState)
		default:
		}
		last = s.probe(ctx, probe)
		if last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last: %v)", ctx.Err(), last)
		case <-s.done:
			return fmt.Errorf("weed exited: %v (last: %v)", s.cmd.ProcessState, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (s *Server) probe(ctx context.Context, bucket string) error {
	pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ok, err := s.Raw.BucketExists(pctx, bucket)
	if err != nil {
		return err
	}
	if !ok {
		if err := s.Raw.MakeBucket(pctx, bucket, minio.MakeBucketOptions{Region: Region}); err != nil {
			return err
		}
	}
	body := []byte("ready")
	if _, err := s.Raw.PutObject(pctx, bucket, "probe", bytes.NewReader(body), int64(len(body)), minio.PutObjectOptions{}); err != nil {
		return err
	}
	obj, err := s.Raw.GetObject(pctx, bucket, "probe", minio.GetObjectOptions{})
	if err != nil {
		return err
	}
	defer obj.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(obj); err != nil {
		return err
	}
	if !bytes.Equal(got.Bytes(), body) {
		return fmt.Errorf("probe object read back as %q", got.Bytes())
	}
	return nil
}

// Stop ends the server (SIGTERM to its process group, SIGKILL after ten
// seconds) and removes its data.
func (s *Server) Stop() error {
	if s.cmd != nil && s.cmd.Process != nil {
		pgid := s.cmd.Process.Pid
		_ = syscall.Kill(-pgid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(10 * time.Second):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			<-s.done
		}
	}
	return os.RemoveAll(s.dir)
}

// writeS3Config writes SeaweedFS's static identity file: one identity with
// every action, signed by the given key pair.
func writeS3Config(path, access, secret string) error {
	type cred struct {
		AccessKey string `json:"accessKey"`
		SecretKey string `json:"secretKey"`
	}
	type identity struct {
		Name        string   `json:"name"`
		Credentials []cred   `json:"credentials"`
		Actions     []string `json:"actions"`
	}
	b, err := json.Marshal(map[string][]identity{"identities": {{
		Name:        "attestari-test",
		Credentials: []cred{{AccessKey: access, SecretKey: secret}},
		Actions:     []string{"Admin", "Read", "Write", "List", "Tagging"},
	}}})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o600)
}

// freePorts asks the kernel for n distinct free ports on 127.0.0.1, holding
// each open until all are found.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
