-- Examination as jobs (internal/queue, docs/architecture.md "Many machines").
-- River's own tables (river_job, river_leader, ...) are not here: River's
-- migrator (rivermigrate) creates and upgrades them, after these files, in
-- the same migration step (store.Migrate), and records its versions in its
-- own river_migration table.

-- One row per queued run: run.json and candidates.json byte for byte, as
-- `attestari run --queue` prepared them, so a worker on any machine seeds
-- the same run directory; the wave being examined and how many of its
-- packages have no result yet (pending), which the examine job that takes it
-- to zero sees in its own transaction, under this row's lock.
CREATE TABLE queue_runs (
    run_id            text PRIMARY KEY CHECK (run_id ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$'),
    header            bytea NOT NULL,
    candidates        bytea NOT NULL,
    candidates_sha256 text NOT NULL CHECK (candidates_sha256 ~ '^[0-9a-f]{64}$'),
    -- queue is the River queue the run's jobs go to: named after the
    -- versions, checks, analyzer and code the header records, so only a
    -- worker built the same way ever takes them.
    queue             text NOT NULL,
    wave              integer NOT NULL DEFAULT 0 CHECK (wave >= 0),
    pending           integer NOT NULL DEFAULT 0 CHECK (pending >= 0),
    packages          integer NOT NULL DEFAULT 0 CHECK (packages >= 0),
    status            text NOT NULL,
    queued_at         timestamptz NOT NULL DEFAULT now(),
    finished_at       timestamptz
);

-- One row per finished package of a queued run: exactly the bytes of the
-- per-package file a single-process run writes under packages/<file_name>.
-- Written once, in the examine job's own transaction.
CREATE TABLE queue_package_results (
    run_id      text NOT NULL REFERENCES queue_runs (run_id) ON DELETE CASCADE,
    file_name   text NOT NULL CHECK (file_name ~ '^[0-9a-f]{32}\.json$'),
    hop         integer NOT NULL CHECK (hop >= 0),
    package_key text NOT NULL,
    failures    integer NOT NULL CHECK (failures >= 0),
    body        bytea NOT NULL,
    finished_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, file_name)
);

-- The extractions of a package started without its result being written:
-- the role of packages/<h>.attempts in a run directory, shared by every
-- worker, so a package that kills each worker that extracts it ends as
-- extractor_abandoned instead of killing workers for ever.
CREATE TABLE queue_extract_attempts (
    run_id    text NOT NULL REFERENCES queue_runs (run_id) ON DELETE CASCADE,
    file_name text NOT NULL,
    attempts  integer NOT NULL CHECK (attempts > 0),
    PRIMARY KEY (run_id, file_name)
);
