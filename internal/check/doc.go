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
