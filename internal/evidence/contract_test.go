package evidence_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attestari/attestari/internal/evidence"
	"github.com/attestari/attestari/internal/evidence/storetest"
)

// TestContract runs the backends' shared table of behaviours against the
// directory backend; internal/evidence/s3store runs the same table against
// a real S3-compatible server.
func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Harness{
		Open: func(t *testing.T) evidence.Backend {
			s, err := evidence.Open(filepath.Join(t.TempDir(), "evidence"))
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Overwrite: func(t *testing.T, b evidence.Backend, rel string, data []byte) {
			p := filepath.Join(b.(*evidence.Store).Root(), filepath.FromSlash(rel))
			// Stored files are read-only; an edit behind the store's back
			// replaces the file in place, as bit rot or a careless edit would.
			if err := os.Chmod(p, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		},
	})
}
