package httpapi

// replicaStater is what a Reader that reads from replicas (store.Store with
// ReplicaURLs) tells GET /readyz: each replica's state (vocab.Replica*), in
// the order they were configured. A replica that is unreachable or behind
// does not make the process unready: its reads go to the primary, which is
// always correct.
type replicaStater interface {
	ReplicaStates() []string
}

type replicaState struct {
	Replica int    `json:"replica"`
	State   string `json:"state"`
}

// readyBody is the 200 answer of /readyz: the watcher's fields and, with
// replicas, their states.
func (s *Server) readyBody() any {
	b := s.watch.body()
	rs, ok := s.opts.Reader.(replicaStater)
	if !ok {
		return b
	}
	states := rs.ReplicaStates()
	if len(states) == 0 {
		return b
	}
	out := make(map[string]any, len(b)+1)
	for k, v := range b {
		out[k] = v
	}
	list := make([]replicaState, len(states))
	for i, st := range states {
		list[i] = replicaState{Replica: i + 1, State: st}
	}
	out["replicas"] = list
	return out
}
