package store

// ReplicaFloor is the WAL position (bytes from 0/0) a read replica must have
// replayed before s reads from it; 0 without replicas.
func ReplicaFloor(s *Store) uint64 {
	if s.route == nil {
		return 0
	}
	return s.route.want.Load()
}
