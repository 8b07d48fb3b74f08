package s3store_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/s3test"
)

// BenchmarkBackends measures Put (of bytes not yet stored), Put of bytes
// already stored, and Get, of 1 KiB and 1 MiB blobs, on the directory
// backend and on SeaweedFS over loopback, in one run so the ratios compare
// like with like (docs/benchmarks.md):
//
//	go test -run '^$' -bench BenchmarkBackends -benchtime 200x ./internal/evidence/s3store
func BenchmarkBackends(b *testing.B) {
	srv := s3test.Start(b)
	dir, err := evidence.Open(filepath.Join(b.TempDir(), "evidence"))
	if err != nil {
		b.Fatal(err)
	}
	s3, err := openB(b, srv)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, backend := range []struct {
		name string
		s    evidence.Backend
	}{{"file", dir}, {"s3", s3}} {
		for _, size := range []int{1 << 10, 1 << 20} {
			label := fmt.Sprintf("%s/%dKiB", backend.name, size>>10)
			seq := uint64(0)
			blob := func() []byte {
				seq++
				data := make([]byte, size)
				binary.BigEndian.PutUint64(data, seq)
				copy(data[8:], label)
				return data
			}
			b.Run(label+"/put-new", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := backend.s.Put(ctx, blob()); err != nil {
						b.Fatal(err)
					}
				}
			})
			stored := blob()
			sha, err := backend.s.Put(ctx, stored)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(label+"/put-existing", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := backend.s.Put(ctx, stored); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run(label+"/get", func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := backend.s.Get(ctx, sha); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func openB(b *testing.B, srv *s3test.Server) (evidence.Backend, error) {
	return openStore(context.Background(), srv, srv.Bucket(b), "bench")
}
