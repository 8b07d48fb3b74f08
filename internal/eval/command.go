package eval

import (
	"context"
	"fmt"
	"io"

	"github.com/attestari/attestari/internal/analyzer"
)

// Command is `attestari eval --cases FILE --analyzer NAME [--samples K]
// [--json]`, parsed by cmd/attestari.
type Command struct {
	Cases    string              // path of a JSON Lines corpus
	Analyzer string              // offline, anthropic, openai (none evaluates nothing and fails the test)
	Samples  int                 // passes over the corpus; default 1
	JSON     bool                // render JSON instead of text
	Getenv   func(string) string // configuration of the network analyzers; os.Getenv in production
}

// Run loads the corpus, builds the analyzer, evaluates it and writes the
// report to w. It returns the report so the caller can set an exit status
// from AdmissionHolds.
func (c Command) Run(ctx context.Context, w io.Writer) (Report, error) {
	cases, err := LoadCases(c.Cases)
	if err != nil {
		return Report{}, err
	}
	getenv := c.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	an, err := analyzer.New(c.Analyzer, getenv)
	if err != nil {
		return Report{}, fmt.Errorf("eval: %w", err)
	}
	rep := Evaluate(ctx, cases, an, c.Samples)
	if c.JSON {
		b, err := rep.JSON()
		if err != nil {
			return rep, fmt.Errorf("eval: render: %w", err)
		}
		_, err = w.Write(b)
		return rep, err
	}
	_, err = io.WriteString(w, rep.Text())
	return rep, err
}
