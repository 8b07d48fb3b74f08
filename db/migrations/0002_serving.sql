-- What the public API reads that 0001 did not hold, and the indexes its
-- queries need. Only a publication's contents are stored (DESIGN.md decision 6).

-- The declared checks a package version's report lists as not assessed.
ALTER TABLE package_versions ADD COLUMN not_assessed text[] NOT NULL DEFAULT '{}';

-- A publication's diff.json (what its run changed against the previous
-- decided run) and its gate_map.json, as published.
ALTER TABLE publications ADD COLUMN diff jsonb;
ALTER TABLE publications ADD COLUMN gate_map jsonb;

-- Lookups from a package version to its rows, and from a package to its
-- other versions.
CREATE INDEX package_versions_publication ON package_versions (publication_id);
CREATE INDEX current_versions_package_version ON current_versions (package_version_id);
CREATE INDEX findings_package_version ON findings (package_version_id);
CREATE INDEX appeal_statuses_finding ON appeal_statuses (finding_id, publication_id);
CREATE INDEX version_diffs_to ON version_diffs (registry, name, to_version);
CREATE INDEX runs_started_at ON runs (started_at DESC, id DESC);

-- Why an out-of-scope package version is out of scope (not_a_server): a
-- reason code that is not a refusal, so it is kept apart from blocked_by.
ALTER TABLE package_versions ADD COLUMN reason text;

-- Publications may be loaded in any order (a restore, a late backfill): the
-- publication a newer one supersedes need not be loaded first. The newest
-- publication wins in current_versions whatever the order.
ALTER TABLE publications DROP CONSTRAINT publications_supersedes_fkey;
