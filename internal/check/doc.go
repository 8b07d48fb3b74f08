// Package check is the publisher's tool (methodology §17): it turns what the
// scheduled pass's own stages and policy concluded about one artifact into a
// report a publisher can act on (the verdict, a remedy per reason code, the
// findings with their places, the surface, the capability inventory, the
// attested manifest, and the tool-by-tool comparison with a published
// version), and renders it as text, JSON, Markdown or SARIF 2.1.0.
//
// It decides nothing of its own: the verdict, the reasons and the findings
// are the rows internal/policy wrote for a run the pipeline made in a
// private home (Run), and nothing here is published, stored where the pass
// reads, or able to change a grade. It must not import the store, the API
// or the publication format.
package check

// SchemaName names the version of the report (`attestari check --format
// json`, docs/check.schema.json). An additive change keeps it; any other
// change names a new one.
const SchemaName = "attestari-check-1"

// Notice is the first line of every report, in every format (methodology
// §17).
const Notice = "attestari check: this result is not a grade and is not published; only the scheduled pass grades, from the registry's artifact."
