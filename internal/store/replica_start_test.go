package store_test

import (
	"context"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/dbtest"
	"github.com/attestari/attestari/internal/store"
	"github.com/attestari/attestari/internal/vocab"
)

// A read replica that does not answer when the API starts does not stop it
// from serving: the primary answers every read, the replica starts
// unreachable (said in ReplicaStates, which /readyz reports, and to the
// warning hook), and the poller probes it after the back-off. A replica URL
// that cannot be read is still refused at start, as the primary's is: that
// is the operator's mistake, not an outage.
func TestReplicaSilentAtStartStartsUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url := dbtest.URL(t)
	// A port nothing listens on: take one, then close it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "postgres://attestari@" + l.Addr().String() + "/attestari?connect_timeout=2&sslmode=disable"
	l.Close()

	var mu sync.Mutex
	var warned []string
	s, err := store.Open(ctx, url, store.Options{MaxConns: 2, ReplicaURLs: []string{dead}, ReplicaWarn: func(msg string, n int, cause error) {
		mu.Lock()
		defer mu.Unlock()
		if cause != nil {
			warned = append(warned, msg)
		}
	}})
	if err != nil {
		t.Fatalf("a silent replica stopped the store from opening: %v", err)
	}
	defer s.Close()
	if got := s.ReplicaStates(); len(got) != 1 || got[0] != vocab.ReplicaUnreachable {
		t.Fatalf("replica states %v, want [%s]", got, vocab.ReplicaUnreachable)
	}
	mu.Lock()
	if len(warned) != 1 || !strings.Contains(warned[0], "unreachable") {
		t.Fatalf("warnings %q, want one saying the replica is unreachable", warned)
	}
	mu.Unlock()
	if _, err := s.ListPackages(ctx, api.PackageFilter{Limit: 10}); err != nil {
		t.Fatalf("a read with the replica silent: %v", err)
	}

	bad := "postgres://attestari@db:notaport/attestari"
	if _, err := store.Open(ctx, url, store.Options{MaxConns: 2, ReplicaURLs: []string{bad}}); err == nil || !strings.Contains(err.Error(), "read replica 1") {
		t.Fatalf("a replica URL that cannot be read: %v, want refused at start naming the replica", err)
	}
}
