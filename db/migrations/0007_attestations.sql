-- Signed attestations (docs/attestations.md): the DSSE envelope of each
-- published package version, exactly the bytes the publication carries and
-- GET /attestations serves. Only a publication made with a signing key has
-- them; a version without one is served without one.
CREATE TABLE attestations (
    package_version_id bigint PRIMARY KEY REFERENCES package_versions (id) ON DELETE CASCADE,
    key_id             text NOT NULL,
    envelope           bytea NOT NULL,
    envelope_sha256    text NOT NULL CHECK (envelope_sha256 ~ '^[0-9a-f]{64}$')
);
