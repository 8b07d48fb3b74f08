package httpapi

import (
	"context"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

// replicaReader answers Ping and reports replica states.
type replicaReader struct {
	Reader
	states []string
}

func (replicaReader) Ping(context.Context) error { return nil }
func (r replicaReader) ReplicaStates() []string  { return r.states }

// TestReadyzListsReplicas: with replicas, /readyz is 200 whatever their
// states (their reads go to the primary) and lists each one's state, in
// order, in a body the contract allows; without, it has no replicas field.
func TestReadyzListsReplicas(t *testing.T) {
	ts := newTestServer(t, replicaReader{states: []string{vocab.ReplicaCaughtUp, vocab.ReplicaUnreachable, vocab.ReplicaBehind, vocab.ReplicaNotStandby}})
	res, body := ts.get("/readyz")
	want := `"replicas":[{"replica":1,"state":"caught_up"},{"replica":2,"state":"unreachable"},{"replica":3,"state":"behind"},{"replica":4,"state":"not_standby"}]`
	if res.StatusCode != 200 || !strings.Contains(body, want) || !strings.Contains(body, `"database":"ok"`) {
		t.Fatalf("readyz with replicas: %d %s; want 200 with %s", res.StatusCode, body, want)
	}
	res, body = newTestServer(t, replicaReader{}).get("/readyz")
	if res.StatusCode != 200 || strings.Contains(body, "replicas") {
		t.Fatalf("readyz without replicas: %d %s", res.StatusCode, body)
	}
}
