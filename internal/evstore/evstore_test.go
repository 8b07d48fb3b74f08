package evstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evidence/s3store"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/s3test"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

func TestDefaultIsTheHomeDirectory(t *testing.T) {
	home := t.TempDir()
	b, err := evstore.Open(context.Background(), evstore.FromEnv(func(string) string { return "" }, home))
	if err != nil {
		t.Fatal(err)
	}
	s, ok := b.(*evidence.Store)
	if !ok || s.Root() != filepath.Join(home, "evidence") {
		t.Fatalf("default store = %T %v; want the directory %s", b, b.Location(), filepath.Join(home, "evidence"))
	}
	// The layout of every existing home: blobs/ and proposals/ under it.
	for _, d := range []string{"blobs", "proposals"} {
		if fi, err := os.Stat(filepath.Join(home, "evidence", d)); err != nil || !fi.IsDir() {
			t.Errorf("%s/ not created: %v", d, err)
		}
	}
}

func TestFileURL(t *testing.T) {
	root := filepath.Join(t.TempDir(), "elsewhere")
	b, err := evstore.Open(context.Background(), evstore.Config{URL: "file://" + root, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := b.(*evidence.Store); !ok || s.Root() != root {
		t.Fatalf("file URL opened %v; want %s", b.Location(), root)
	}
	if !(evstore.Config{URL: "file://" + root}).IsFile() || !(evstore.Config{}).IsFile() || (evstore.Config{URL: "s3://b/p"}).IsFile() {
		t.Fatal("IsFile misreads a URL")
	}
}

func TestBadURLs(t *testing.T) {
	creds := evstore.Config{AccessKey: "k", SecretKey: "s", Home: t.TempDir()}
	for _, c := range []struct{ url, says string }{
		{"file://relative/path", "host"},
		{"file:relative", "opaque"},
		{"file:", "absolute"},
		{"file:///abs?x=1", "no query"},
		{"http://host/x", "scheme"},
		{"s3://", "no bucket"},
		{"s3://bucket/prefix", "endpoint"},
		{"s3://bucket/p?endpoint=h:1&bogus=1", "unknown parameter"},
		{"s3://bucket/p?endpoint=h:1&endpoint=h:2", "2 times"},
		{"s3://bucket/p?endpoint=h:1&secure=maybe", "secure"},
		{"s3://user:pw@bucket/p?endpoint=h:1", "ATTESTARI_S3_ACCESS_KEY"},
		{"::not a url", "does not parse"},
	} {
		cfg := creds
		cfg.URL = c.url
		_, err := evstore.Open(context.Background(), cfg)
		if !errors.Is(err, evstore.ErrBadURL) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Open(%q) = %v; want ErrBadURL saying %q", c.url, err, c.says)
		}
		if err != nil && strings.Contains(err.Error(), "pw") {
			t.Errorf("Open(%q): the error repeats a credential: %v", c.url, err)
		}
	}
}

// TestMissingCredentials: an s3:// store without keys says which variables
// to set, and never opens a connection to find out.
func TestMissingCredentials(t *testing.T) {
	for _, c := range []struct {
		access, secret string
		names          []string
	}{
		{"", "", []string{evstore.EnvAccessKey, evstore.EnvSecretKey}},
		{"k", "", []string{evstore.EnvSecretKey}},
		{"", "s", []string{evstore.EnvAccessKey}},
	} {
		_, err := evstore.Open(context.Background(), evstore.Config{URL: "s3://b/p?endpoint=127.0.0.1:1", AccessKey: c.access, SecretKey: c.secret})
		if !errors.Is(err, s3store.ErrNoCredentials) {
			t.Fatalf("Open without keys = %v; want ErrNoCredentials", err)
		}
		for _, n := range c.names {
			if !strings.Contains(err.Error(), n) {
				t.Errorf("error %q does not name %s", err, n)
			}
		}
		if c.secret != "" && strings.Contains(err.Error(), evstore.EnvSecretKey) {
			t.Errorf("error %q names a variable that is set", err)
		}
	}
}

// TestS3URL opens a real SeaweedFS bucket through the URL and credentials
// exactly as a command reads them from the environment.
func TestS3URL(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	env := map[string]string{
		evstore.EnvURL:       srv.URL(bucket, "team/evidence"),
		evstore.EnvAccessKey: srv.AccessKey,
		evstore.EnvSecretKey: srv.SecretKey,
	}
	b, err := evstore.Open(context.Background(), evstore.FromEnv(func(k string) string { return env[k] }, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := b.Location(), "s3://"+bucket+"/team/evidence"; got != want {
		t.Fatalf("Location = %q, want %q", got, want)
	}
	sha, err := b.Put(context.Background(), []byte("through the URL"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b.Get(context.Background(), sha); err != nil || string(got) != "through the URL" {
		t.Fatalf("Get = %q, %v", got, err)
	}
	if strings.Contains(b.Location(), srv.SecretKey) || strings.Contains(b.Location(), srv.AccessKey) {
		t.Fatal("Location carries a credential")
	}
}
