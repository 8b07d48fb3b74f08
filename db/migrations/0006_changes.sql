-- The change feed (GET /changes): each publication's effects on what is
-- served, in the order loads committed. Loads are serialised by the loader's
-- advisory lock, so seq order is commit order and a poller holding a cursor
-- never misses a row committed after it read. Rows are written by the loader
-- in the load's transaction, only when a load changes what is served (an
-- older publication loaded after a newer one writes none).
CREATE TABLE changes (
    seq            bigserial PRIMARY KEY,
    publication_id text NOT NULL REFERENCES publications (id),
    published_at   timestamptz NOT NULL,
    registry       text NOT NULL CHECK (registry IN ('npm', 'pypi')),
    name           text NOT NULL,
    version        text NOT NULL,
    kind           text NOT NULL CHECK (kind IN ('version_published', 'verdict_changed', 'grade_changed', 'manifest_changed', 'appeal_resolved')),
    detail         jsonb NOT NULL
);
