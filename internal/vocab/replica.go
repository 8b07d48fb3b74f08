package vocab

// The states of a read replica of the API's database, as GET /readyz
// reports them (internal/store/replica_health.go).
const (
	// ReplicaCaughtUp: the replica answers and has replayed the primary's
	// WAL up to the last notification heard; reads may go to it.
	ReplicaCaughtUp = "caught_up"
	// ReplicaBehind: the replica answers but has not yet reported replaying
	// that far; reads go to the primary.
	ReplicaBehind = "behind"
	// ReplicaUnreachable: a read or a probe on the replica failed to reach
	// it; reads go to the primary until a probe, after a back-off, answers.
	ReplicaUnreachable = "unreachable"
	// ReplicaNotStandby: the server answers but is not in recovery (a
	// promoted standby, or not a standby at all); it is never read.
	ReplicaNotStandby = "not_standby"
)
