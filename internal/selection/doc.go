// Package selection is methodology §4's mechanical selection: it draws the
// candidate list `attestari run` examines and writes it as a candidates file
// (docs/candidates.md) whose selection record says how it was drawn.
//
// Sources: the npm registry's search API over a fixed, versioned query set
// (Queries1, "attestari-queries-1"), every page read; the PyPI simple index
// (PEP 691 JSON, or PEP 503 HTML), its project names matched against the
// set's PyPI queries; or a plain list of names for a machine that reaches
// neither search. npm packages are ranked by the downloads API's figure for a
// stated window when that API is configured, else by the search answer's own
// monthly figure; PyPI projects by a download dataset file, whose SHA-256 is
// its snapshot identifier; a name list without a downloads API by its own
// order. A package with no figure to rank it by is excluded
// (no_download_figure), never given one. Walking the ranking in order, each
// package's registry document is read for its newest version that is not a
// pre-release and for the fields of the conflicts rule; every package that
// surfaced and was not selected is written under `excluded` with its reason
// (vocab.Excluded*).
//
// Every answer selection reads is kept in a recording directory as it
// arrives (Recording): a selection that stops on a failed request resumes
// from the answers already recorded, and a finished one is replayed offline
// to the same file byte for byte, since every time the file states is the
// recorded time of a fetch.
//
// It decides nothing about a package's surface (a package that is not a
// server is settled by the extractor, not here), never fetches an artifact,
// and writes nothing but its recording and the candidates file, which is
// written whole or not at all.
package selection
