package vocab

// Queued runs (internal/queue): the River job kinds, which River stores in
// river_job.kind, and the statuses of a queued run's row (queue_runs).
const (
	// JobExamine examines one package of a queued run.
	JobExamine = "attestari_examine"
	// JobFinish takes a queued run past a wave whose packages all have
	// their result: it enqueues the next wave of delegation targets, or
	// assembles the seven run files.
	JobFinish = "attestari_finish"
	// JobSweep finds the examine jobs River discarded (every attempt
	// failed or was killed without a result) and writes each package's
	// failure row, so the run's count reaches zero and its finish job runs;
	// and enqueues again the finish job of a run left with no package
	// pending and no live finish job (one River discarded).
	JobSweep = "attestari_sweep"

	// QueueRunQueued: the run's packages are being examined.
	QueueRunQueued = "queued"
	// QueueRunFinished: the seven files were assembled.
	QueueRunFinished = "run_finished"
)
