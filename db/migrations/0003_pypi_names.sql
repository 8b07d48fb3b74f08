-- PyPI project names are one project under many spellings (PEP 503: case,
-- and runs of '-', '_' and '.', do not matter). Reads compare a lookup name:
-- the PEP 503 form for PyPI, the name as written for npm, whose names are
-- compared exactly. What was published is still served as it was written.
ALTER TABLE current_versions ADD COLUMN lookup_name text NOT NULL GENERATED ALWAYS AS (
    CASE WHEN registry = 'pypi' THEN regexp_replace(lower(name), '[-_.]+', '-', 'g') ELSE name END) STORED;
CREATE INDEX current_versions_lookup ON current_versions (lookup_name, version);

ALTER TABLE version_diffs ADD COLUMN lookup_name text NOT NULL GENERATED ALWAYS AS (
    CASE WHEN registry = 'pypi' THEN regexp_replace(lower(name), '[-_.]+', '-', 'g') ELSE name END) STORED;
CREATE INDEX version_diffs_lookup ON version_diffs (registry, lookup_name, to_version);
