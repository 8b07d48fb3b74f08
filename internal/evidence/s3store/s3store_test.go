package s3store_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/minio/minio-go/v7"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evidence/s3store"
	"github.com/attestari/attestari/internal/evidence/storetest"
	"github.com/attestari/attestari/internal/s3test"
)

func TestMain(m *testing.M) { os.Exit(s3test.Main(m)) }

func open(t *testing.T, srv *s3test.Server, bucket, prefix string) *s3store.Store {
	t.Helper()
	s, err := openStore(context.Background(), srv, bucket, prefix)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openStore(ctx context.Context, srv *s3test.Server, bucket, prefix string) (*s3store.Store, error) {
	return s3store.Open(ctx, s3store.Config{
		Endpoint: srv.Endpoint, Region: s3test.Region, Bucket: bucket, Prefix: prefix,
		AccessKey: srv.AccessKey, SecretKey: srv.SecretKey,
	})
}

// TestContract runs the backends' shared table of behaviours against a real
// SeaweedFS; objects are damaged through the raw S3 API.
func TestContract(t *testing.T) {
	srv := s3test.Start(t)
	storetest.Run(t, storetest.Harness{
		Open: func(t *testing.T) evidence.Backend { return open(t, srv, srv.Bucket(t), "evidence") },
		Overwrite: func(t *testing.T, b evidence.Backend, rel string, data []byte) {
			s := b.(*s3store.Store)
			bucket, key := s.Bucket(), s.Key(rel)
			if _, err := srv.Raw.StatObject(context.Background(), bucket, key, minio.StatObjectOptions{}); err != nil {
				t.Fatalf("overwrite %s: the object is not there: %v", key, err)
			}
			if _, err := srv.Raw.PutObject(context.Background(), bucket, key, bytes.NewReader(data), int64(len(data)), minio.PutObjectOptions{}); err != nil {
				t.Fatal(err)
			}
		},
		RunObjectsVerified: true,
	})
}

// TestLayout pins the keys: the directory backend's layout under the prefix.
func TestLayout(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	s := open(t, srv, bucket, "a/b")
	ctx := context.Background()
	sha, err := s.Put(ctx, []byte("layout"))
	if err != nil {
		t.Fatal(err)
	}
	key := evidence.ProposalKey{Analyzer: "x", PromptSHA256: sha, EvidenceSHA256: sha}
	if _, err := s.PutProposal(ctx, key, []byte("answer")); err != nil {
		t.Fatal(err)
	}
	if err := s.PutRunObject(ctx, "run-1", "packages/p.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"a/b/blobs/" + sha, "a/b/proposals/" + key.ID() + ".json", "a/b/runs/run-1/packages/p.json"} {
		if _, err := srv.Raw.StatObject(ctx, bucket, k, minio.StatObjectOptions{}); err != nil {
			t.Errorf("no object %s: %v", k, err)
		}
	}
	if got, want := s.Location(), "s3://"+bucket+"/a/b"; got != want {
		t.Errorf("Location = %q, want %q", got, want)
	}
}

// TestConditionalPut records what the server does with If-None-Match: * on
// a PUT of an existing key, which decides how two writers of one blob meet
// (s3store's package comment): SeaweedFS refuses it with 412.
func TestConditionalPut(t *testing.T) {
	srv := s3test.Start(t)
	bucket := srv.Bucket(t)
	ctx := context.Background()
	put := func(body string) error {
		o := minio.PutObjectOptions{}
		o.SetMatchETagExcept("*")
		_, err := srv.Raw.PutObject(ctx, bucket, "k", bytes.NewReader([]byte(body)), int64(len(body)), o)
		return err
	}
	if err := put("first"); err != nil {
		t.Fatal(err)
	}
	err := put("second")
	if resp := minio.ToErrorResponse(err); resp.StatusCode != 412 {
		t.Fatalf("conditional PUT over an existing key = %v (status %d); want 412 Precondition Failed", err, resp.StatusCode)
	}
	obj, err := srv.Raw.GetObject(ctx, bucket, "k", minio.GetObjectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer obj.Close()
	var got bytes.Buffer
	if _, err := got.ReadFrom(obj); err != nil || got.String() != "first" {
		t.Fatalf("object = %q, %v; want the first write kept", got.String(), err)
	}
}

func TestOpenRefuses(t *testing.T) {
	srv := s3test.Start(t)
	ctx := context.Background()
	_, err := s3store.Open(ctx, s3store.Config{Endpoint: srv.Endpoint, Bucket: "no-such-bucket", AccessKey: srv.AccessKey, SecretKey: srv.SecretKey, Region: s3test.Region})
	if !errors.Is(err, s3store.ErrNoBucket) {
		t.Errorf("Open of a missing bucket = %v; want ErrNoBucket", err)
	}
	_, err = s3store.Open(ctx, s3store.Config{Endpoint: srv.Endpoint, Bucket: srv.Bucket(t), Region: s3test.Region})
	if !errors.Is(err, s3store.ErrNoCredentials) {
		t.Errorf("Open without credentials = %v; want ErrNoCredentials", err)
	}
	for _, p := range []string{"/a", "a/", "a//b", "a/../b", "."} {
		if _, err := s3store.Open(ctx, s3store.Config{Endpoint: srv.Endpoint, Bucket: "b", Prefix: p, AccessKey: "k", SecretKey: "s"}); err == nil {
			t.Errorf("Open with prefix %q succeeded", p)
		}
	}
	// A wrong secret is refused by the server, and the error names neither key.
	_, err = s3store.Open(ctx, s3store.Config{Endpoint: srv.Endpoint, Bucket: srv.Bucket(t), AccessKey: srv.AccessKey, SecretKey: "wrong-secret-value", Region: s3test.Region, MaxRetries: 1})
	if err == nil {
		t.Fatal("Open with a wrong secret succeeded")
	}
	if msg := err.Error(); bytes.Contains([]byte(msg), []byte("wrong-secret-value")) || bytes.Contains([]byte(msg), []byte(srv.AccessKey)) {
		t.Fatalf("the error carries a credential: %s", msg)
	}
}
