// Package repohost owns every conversation with a source repository host
// that speaks the GitHub REST API (the public service or an Enterprise
// server): the repository (owner, creation date, archived, default branch,
// fork parent), the owner's account (creation date, type), and the latest
// commit on the default branch with the host's verdict on its signature.
// It also parses the repository URL forms package metadata uses (git+https,
// git@host:, ssh://, github:owner/repo, bare owner/repo) into a Ref.
//
// Like package registry, it hands back the exact bytes received beside a
// Record (kind, URL, status, SHA-256, fetch time, outcome) so that the caller
// can store them as blobs and a finding can cite them. An unreachable host, a
// rate limit or a 404 is an outcome on the Record, never a crash and never a
// conclusion: deciding what an absence means is the job of
// internal/checks (publisher_provenance).
//
// The API base URL comes from configuration only ($ATTESTARI_GITHUB_API_URL,
// token from $ATTESTARI_GITHUB_TOKEN); no host name is written in this
// package. It must not touch the evidence store, the run directory or the
// database, and it never clones or reads repository contents: the
// methodology examines the artifact, not the repository (§3).
package repohost
