// Package registry owns every conversation with a package registry: the npm
// registry (packument, version manifest, tarball, attestations) and a PyPI
// index (JSON API, PEP 691 simple index, PEP 740 provenance, distribution
// files), plus the version resolution delegation needs (npm ranges and a PEP
// 440 subset).
//
// Every response a finding may cite is handed back as the exact bytes
// received, beside the parsed form, with a Record (kind, URL, status, SHA-256,
// fetch time, outcome). The caller stores the bytes as a blob and indexes the
// Record in records.json; this package never writes to disk and never decides
// anything about what it fetched. Artifacts whose published digest does not
// match the bytes received are refused here (IntegrityError), so no later
// stage can read unverified bytes.
//
// Base URLs always come from configuration (ATTESTARI_NPM_REGISTRY,
// ATTESTARI_PYPI_URL, or the package manager's own configuration read by
// DefaultNPMRegistry and DefaultPyPIURL; ATTESTARI_NPM_DOWNLOADS_URL for the
// npm downloads API selection ranks by); no registry host is written in this
// package. Selection's reads (search pages, downloads figures, the simple
// index root) have parsers of their own that take recorded bytes, so a
// recorded selection is parsed exactly as a live one. A missing package (404, 410) is an outcome (ErrNotFound), never a
// crash; transient failures (5xx, 429, network errors) are retried a bounded
// number of times with exponential backoff and full jitter, honouring
// Retry-After up to a cap.
//
// It must not touch the evidence store, the run directory or the database, and
// it must not execute anything from a fetched artifact.
package registry
