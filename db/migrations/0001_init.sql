-- The schema for the whole mission. Only what a publication holds is ever
-- stored here (DESIGN.md decision 6): decided rows enter with their
-- publication, in one transaction, and nothing unpublished is loaded.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Runs that a publication came from: the stamps a reader needs.
CREATE TABLE runs (
    id                  text PRIMARY KEY,
    candidates_sha256   text NOT NULL,
    started_at          timestamptz NOT NULL,
    finished_at         timestamptz,
    methodology_version text NOT NULL,
    methodology_sha256  text NOT NULL,
    extractor_version   text NOT NULL,
    code_commit         text NOT NULL,
    code_dirty          boolean NOT NULL,
    package_count       integer NOT NULL DEFAULT 0,
    header              jsonb NOT NULL
);

-- One row per publication of a run. A newer publication supersedes an older
-- one; the older stays readable at its own address.
CREATE TABLE publications (
    id                  text PRIMARY KEY,
    run_id              text NOT NULL REFERENCES runs (id),
    published_at        timestamptz NOT NULL,
    day0                timestamptz NOT NULL,
    methodology_version text NOT NULL,
    methodology_sha256  text NOT NULL,
    supersedes          text REFERENCES publications (id),
    demo                boolean NOT NULL DEFAULT false,
    contract_sha256     text NOT NULL
);
CREATE INDEX publications_published_at ON publications (published_at DESC, id DESC);

-- One decided package version inside one publication.
CREATE TABLE package_versions (
    id                   bigserial PRIMARY KEY,
    publication_id       text NOT NULL REFERENCES publications (id),
    registry             text NOT NULL CHECK (registry IN ('npm', 'pypi')),
    name                 text NOT NULL,
    version              text NOT NULL,
    artifact_sha256      text NOT NULL,
    verdict              text NOT NULL CHECK (verdict IN ('graded', 'not_gradeable', 'out_of_scope')),
    grade                text CHECK (grade IN ('A', 'B', 'C', 'F')),
    blocked_by           text[] NOT NULL DEFAULT '{}',
    surface_outcome      text NOT NULL,
    manifest_hash        text,
    manifest_reason      text,
    extractor_version    text NOT NULL,
    methodology_version  text NOT NULL,
    methodology_sha256   text NOT NULL,
    decided_at           timestamptz NOT NULL,
    published_at         timestamptz NOT NULL,
    mcp_surface          jsonb NOT NULL,
    delegates_to         jsonb,
    delegated_from       jsonb NOT NULL DEFAULT '[]',
    capabilities_omitted integer NOT NULL DEFAULT 0,
    row_sha256           text NOT NULL,
    row                  jsonb NOT NULL,
    UNIQUE (publication_id, registry, name, version),
    CHECK ((verdict = 'graded') = (grade IS NOT NULL))
);
CREATE INDEX package_versions_name_trgm ON package_versions USING gin (name gin_trgm_ops);

-- The row a lookup serves for each package version: the one from the newest
-- publication that holds it. Maintained by the loader in the same transaction.
CREATE TABLE current_versions (
    registry           text NOT NULL,
    name               text NOT NULL,
    version            text NOT NULL,
    package_version_id bigint NOT NULL REFERENCES package_versions (id),
    PRIMARY KEY (registry, name, version)
);
CREATE INDEX current_versions_name ON current_versions (name, registry);

-- The attested manifest: one row per parsed tool.
CREATE TABLE tools (
    package_version_id bigint NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
    position           integer NOT NULL,
    name               text NOT NULL,
    description_state  text NOT NULL,
    description_raw    text NOT NULL,
    schema_kind        text NOT NULL,
    schema_raw         text NOT NULL,
    tool_hash          text,
    hash_reason        text,
    PRIMARY KEY (package_version_id, position)
);

-- Published findings with their public status.
CREATE TABLE findings (
    id                 text NOT NULL,
    publication_id     text NOT NULL REFERENCES publications (id),
    package_version_id bigint NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
    check_id           text NOT NULL,
    tag                text NOT NULL,
    severity_assigned  text NOT NULL,
    severity_decided   text NOT NULL,
    status             text NOT NULL CHECK (status IN ('confirmed', 'noted', 'under_appeal', 'withdrawn_on_appeal')),
    rule               text NOT NULL,
    surface_kind       text,
    entry_name         text,
    evidence_sha256    text NOT NULL,
    evidence_path      text NOT NULL,
    line_start         integer NOT NULL,
    line_end           integer NOT NULL,
    excerpt            text NOT NULL,
    excerpt_sha256     text NOT NULL,
    row                jsonb NOT NULL,
    PRIMARY KEY (publication_id, id)
);
CREATE INDEX findings_id ON findings (id);

-- The capability inventory of each published package version.
CREATE TABLE capabilities (
    package_version_id bigint NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
    position           integer NOT NULL,
    kind               text NOT NULL,
    tag                text NOT NULL,
    target             text NOT NULL,
    file               text NOT NULL,
    line               integer NOT NULL,
    file_sha256        text NOT NULL,
    excerpt            text NOT NULL,
    count              integer NOT NULL,
    bundle             boolean NOT NULL,
    verification       text NOT NULL,
    PRIMARY KEY (package_version_id, position)
);

-- Published evidence: artifact files whole and projections of upstream records.
CREATE TABLE evidence (
    sha256         text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    content_type   text NOT NULL,
    size           integer NOT NULL,
    body           bytea NOT NULL,
    publication_id text NOT NULL REFERENCES publications (id)
);

-- Public appeal status per finding and publication. Grounds and notes are
-- never stored here: they stay in the run's appeals.json.
CREATE TABLE appeal_statuses (
    appeal_id      text NOT NULL,
    finding_id     text NOT NULL,
    publication_id text NOT NULL REFERENCES publications (id),
    status         text NOT NULL CHECK (status IN ('open', 'upheld', 'dismissed', 'withdrawn')),
    filed_at       timestamptz NOT NULL,
    resolved_at    timestamptz,
    PRIMARY KEY (publication_id, appeal_id)
);

-- The gate map as published, per methodology version.
CREATE TABLE gate_map (
    methodology_version text NOT NULL,
    code                text NOT NULL,
    guard               text NOT NULL,
    line                text NOT NULL,
    PRIMARY KEY (methodology_version, code)
);

-- Differences between consecutive publications of a package (the rug-pull signal).
CREATE TABLE version_diffs (
    registry       text NOT NULL,
    name           text NOT NULL,
    from_version   text NOT NULL,
    to_version     text NOT NULL,
    publication_id text NOT NULL REFERENCES publications (id),
    diff           jsonb NOT NULL,
    PRIMARY KEY (registry, name, from_version, to_version, publication_id)
);
