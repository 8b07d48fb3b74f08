package s3test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/minio/minio-go/v7"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

func executable(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "weed")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFindWeedOrder: ATTESTARI_WEED first, then PATH, then GOPATH/bin; and
// without any, the error names all three ways.
func TestFindWeedOrder(t *testing.T) {
	envDir, pathDir, gopath := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(gopath, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	fromEnv, fromPath, fromGopath := executable(t, envDir), executable(t, pathDir), executable(t, filepath.Join(gopath, "bin"))
	t.Setenv("PATH", pathDir)
	env := map[string]string{"ATTESTARI_WEED": fromEnv, "GOPATH": gopath}
	getenv := func(k string) string { return env[k] }
	if got, err := FindWeed(getenv); err != nil || got != fromEnv {
		t.Fatalf("with ATTESTARI_WEED: %q, %v", got, err)
	}
	delete(env, "ATTESTARI_WEED")
	if got, err := FindWeed(getenv); err != nil || got != fromPath {
		t.Fatalf("with weed on PATH: %q, %v", got, err)
	}
	t.Setenv("PATH", t.TempDir())
	if got, err := FindWeed(getenv); err != nil || got != fromGopath {
		t.Fatalf("with weed in GOPATH/bin: %q, %v", got, err)
	}
	env["GOPATH"] = t.TempDir()
	_, err := FindWeed(getenv)
	if !errors.Is(err, ErrNoWeed) {
		t.Fatalf("with no weed: %v", err)
	}
	for _, way := range []string{"ATTESTARI_WEED", "PATH", "make weed"} {
		if !strings.Contains(err.Error(), way) {
			t.Errorf("the error does not name %q: %v", way, err)
		}
	}
	env["ATTESTARI_WEED"] = filepath.Join(envDir, "absent")
	if _, err := FindWeed(getenv); !errors.Is(err, ErrNoWeed) || !strings.Contains(err.Error(), "absent") {
		t.Fatalf("with ATTESTARI_WEED naming nothing: %v", err)
	}
}

// TestServerServesS3 checks the shared server stores and returns an object
// in a fresh bucket that no other bucket sees, and listens on loopback.
func TestServerServesS3(t *testing.T) {
	s := Start(t)
	if !strings.HasPrefix(s.Endpoint, "127.0.0.1:") {
		t.Fatalf("endpoint %s is not on loopback", s.Endpoint)
	}
	b1, b2 := s.Bucket(t), s.Bucket(t)
	if b1 == b2 {
		t.Fatalf("two buckets named %s", b1)
	}
	ctx := context.Background()
	body := []byte("s3test")
	if _, err := s.Raw.PutObject(ctx, b1, "k", bytes.NewReader(body), int64(len(body)), minio.PutObjectOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Raw.StatObject(ctx, b2, "k", minio.StatObjectOptions{}); minio.ToErrorResponse(err).Code != "NoSuchKey" {
		t.Fatalf("the object is visible in another bucket: %v", err)
	}
	if want := "s3://" + b1 + "/p?endpoint=" + s.Endpoint + "&region=" + Region + "&secure=false"; s.URL(b1, "p") != want {
		t.Fatalf("URL = %s, want %s", s.URL(b1, "p"), want)
	}
}
