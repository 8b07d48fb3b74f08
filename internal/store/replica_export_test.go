package store

// ReplicaFloor is the WAL position (bytes from 0/0) a read replica must have
// replayed before s reads from it; 0 without replicas.
func ReplicaFloor(s *Store) uint64 {
	if s.route == nil {
		return 0
	}
	return s.route.want.Load()
}

// ReplicaReplayed is the replay position (bytes from 0/0) each read replica
// of s last reported; nil without replicas.
func ReplicaReplayed(s *Store) []uint64 {
	if s.route == nil {
		return nil
	}
	out := make([]uint64, len(s.route.replicas))
	for i, rep := range s.route.replicas {
		out[i] = rep.replayed.Load()
	}
	return out
}
