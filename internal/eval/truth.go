package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// MinParameterDescription is the shortest parameter description taken from
// the runtime truth into the clean control set: shorter ones ("Page
// number") are real but trivial, and counting thousands of them would make
// a false-positive rate per 500 clean descriptions look better than the
// analyzer is on text that says anything.
const MinParameterDescription = 40

// truthFile is the part of a runtime-truth file (testdata/corpus/truth/,
// what a running server listed) that the clean set reads.
type truthFile struct {
	Name         string `json:"name"`
	Version      string `json:"version"`
	Instructions string `json:"instructions"`
	Tools        []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
		Params      []struct {
			Pointer     string `json:"pointer"`
			Description string `json:"description"`
		} `json:"parameter_descriptions"`
	} `json:"tools"`
	Prompts []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"prompts"`
	Resources []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"resources"`
	Templates []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"templates"`
}

// TruthCleanCases turns the runtime truth of real servers into clean cases:
// every distinct description a running server listed (server instructions,
// tools, prompts, resources, resource templates, and parameter descriptions
// of at least MinParameterDescription bytes), each once, with the source
// npm:<name>@<version> of the first package (in file-name order) that
// listed it. Descriptions in skip (the hand-written corpus) are left out.
// These are descriptions of widely used packages, taken as clean without a
// line-by-line review; docs/model-check.md says so.
func TruthCleanCases(dir string, skip map[string]bool) ([]Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, fmt.Errorf("eval: truth: %w", err)
	}
	sort.Strings(files)
	seen := map[string]bool{}
	for d := range skip {
		seen[d] = true
	}
	var out []Case
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("eval: truth: %w", err)
		}
		var t truthFile
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("eval: truth %s: %w", f, err)
		}
		src := "npm:" + t.Name + "@" + t.Version
		add := func(kind, name, desc string) {
			if strings.TrimSpace(desc) == "" || seen[desc] {
				return
			}
			seen[desc] = true
			out = append(out, Case{ID: fmt.Sprintf("truth-%05d", len(out)+1), Kind: KindClean, SurfaceKind: kind,
				ToolName: name, Description: desc, ExpectedSpans: []Span{}, Source: src})
		}
		add(vocab.EntryInstructions, "instructions", t.Instructions)
		for _, x := range t.Tools {
			add("tool", x.Name, x.Description)
		}
		for _, x := range t.Prompts {
			add("prompt", x.Name, x.Description)
		}
		for _, x := range t.Resources {
			add("resource", x.Name, x.Description)
		}
		for _, x := range t.Templates {
			add(vocab.EntryResourceTemplate, x.Name, x.Description)
		}
		for _, x := range t.Tools {
			for _, p := range x.Params {
				if len(p.Description) >= MinParameterDescription {
					add(vocab.EntryParameterDescription, x.Name+p.Pointer, p.Description)
				}
			}
		}
	}
	return out, nil
}
