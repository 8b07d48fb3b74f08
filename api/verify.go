package api

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/attestari/attestari/internal/manifest"
)

// WireTool is one tool of a server's tools/list answer, as the MCP wire
// format carries it.
type WireTool struct {
	Name        string          `json:"name"`
	Description *string         `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
}

// ParseToolsList reads a tools/list answer: the result object
// {"tools": [...]} or the whole JSON-RPC response {"result": {"tools": [...]}}.
func ParseToolsList(b []byte) ([]WireTool, error) {
	var env struct {
		Tools  *[]WireTool `json:"tools"`
		Result *struct {
			Tools *[]WireTool `json:"tools"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("api: tools/list answer: %w", err)
	}
	switch {
	case env.Tools != nil:
		return *env.Tools, nil
	case env.Result != nil && env.Result.Tools != nil:
		return *env.Result.Tools, nil
	}
	return nil, errors.New("api: tools/list answer has no tools array")
}

// Outcomes of checking one tool.
const (
	// ToolHashMatches: the tool hash recomputed from the wire equals the attested one.
	ToolHashMatches = "hash_matches"
	// ToolTextMatches: the hash cannot be recomputed from the wire (the schema
	// was declared as source code), and the name and description equal the
	// attested text.
	ToolTextMatches = "text_matches"
	// ToolDiffers: the recomputed hash, or the description, differs.
	ToolDiffers = "differs"
	// ToolNotAttested: the manifest has no hash for this tool (its reason says
	// why); nothing the server sends can be checked against it.
	ToolNotAttested = "not_attested"
	// ToolNotInManifest: the server lists a tool that was not examined.
	ToolNotInManifest = "not_in_manifest"
	// ToolNotOnServer: an examined tool that the server does not list.
	ToolNotOnServer = "not_on_server"
)

// ToolCheck is the outcome for one tool name.
type ToolCheck struct {
	Name     string
	Outcome  string
	Attested string // the attested tool hash, when there is one
	Computed string // the hash recomputed from the wire, when the definition allows it
	Detail   string
	// Level is the verification level the check was made at
	// (manifest.LevelToolHash or manifest.LevelNameAndDescription).
	Level string
}

// Report is the outcome of VerifyTools.
type Report struct {
	Tools []ToolCheck
	// ManifestHash is the manifest hash recomputed from the wire, set only
	// when every tool's hash could be recomputed.
	ManifestHash string
	// ManifestHashMatches is true when ManifestHash equals the attested one.
	ManifestHashMatches bool
	// Verdict and Grade are what was concluded about the version the
	// manifest attests, said beside the verification: a manifest that
	// verifies pins what was examined, and a refused or F version's
	// manifest verifies too (docs/gateways.md). Grade is empty unless
	// graded.
	Verdict, Grade string
}

// Differs returns the tools that are not verified: every outcome other than
// hash_matches and text_matches.
func (r *Report) Differs() []ToolCheck {
	var out []ToolCheck
	for _, t := range r.Tools {
		if t.Outcome != ToolHashMatches && t.Outcome != ToolTextMatches {
			out = append(out, t)
		}
	}
	return out
}

// VerifyTools compares the tools a server lists with an attested manifest,
// recomputing tool hashes where docs/manifest.md allows it: the tool hash is
// SHA-256(name ‖ 0 ‖ description ‖ 0 ‖ schema component), and a gateway can
// rebuild the schema component only when the schema was declared as a JSON
// literal (its RFC 8785 form, which the wire's inputSchema gives) or not at
// all (empty). For a schema declared as source code the recorded component
// is source text no wire answer contains, so the name and the description
// are compared with the attested text instead.
func VerifyTools(m *Manifest, wire []WireTool) *Report {
	r := &Report{Verdict: m.Verdict}
	if m.Grade != nil {
		r.Grade = *m.Grade
	}
	byName := map[string][]WireTool{}
	for _, w := range wire {
		byName[w.Name] = append(byName[w.Name], w)
	}
	digests := make([][32]byte, 0, len(m.Tools))
	allRecomputed := true
	for _, t := range m.Tools {
		c := ToolCheck{Name: t.Name, Level: manifest.Level(t.SchemaKind)}
		if t.ToolHash != nil {
			c.Attested = *t.ToolHash
		}
		ws := byName[t.Name]
		if len(ws) == 0 {
			c.Outcome = ToolNotOnServer
			r.Tools = append(r.Tools, c)
			allRecomputed = false
			continue
		}
		w := ws[0]
		byName[t.Name] = ws[1:]
		desc := ""
		if w.Description != nil {
			desc = *w.Description
		}
		if t.ToolHash == nil {
			c.Outcome = ToolNotAttested
			if t.Reason != nil {
				c.Detail = "no tool hash: " + *t.Reason
			}
			r.Tools = append(r.Tools, c)
			allRecomputed = false
			continue
		}
		var comp []byte
		recomputable := true
		switch t.SchemaKind {
		case manifest.SchemaJSON:
			schema := w.InputSchema
			if len(schema) == 0 {
				schema = json.RawMessage("{}")
			}
			b, err := manifest.SchemaComponent(manifest.SchemaJSON, string(schema))
			if err != nil {
				c.Outcome, c.Detail = ToolDiffers, "the inputSchema on the wire is not canonicalisable JSON"
				r.Tools = append(r.Tools, c)
				allRecomputed = false
				continue
			}
			comp = b
		case manifest.SchemaNone, "":
			// No schema was declared: the component is empty whatever default
			// schema the server's SDK puts on the wire.
		default:
			recomputable = false
		}
		if !recomputable {
			allRecomputed = false
			switch {
			case t.Description == nil:
				c.Outcome, c.Detail = ToolDiffers, "no attested description text to compare"
			case *t.Description == desc:
				c.Outcome = ToolTextMatches
				c.Detail = "schema declared as " + t.SchemaKind + ": hash not recomputable, description text equal"
			default:
				c.Outcome, c.Detail = ToolDiffers, "description differs from the attested text"
			}
			r.Tools = append(r.Tools, c)
			continue
		}
		d := manifest.ToolDigest(w.Name, desc, comp)
		digests = append(digests, d)
		c.Computed = hex.EncodeToString(d[:])
		if c.Computed == c.Attested {
			c.Outcome = ToolHashMatches
		} else {
			c.Outcome = ToolDiffers
			switch {
			case t.Description != nil && *t.Description != desc:
				c.Detail = "description differs from the attested text"
			default:
				c.Detail = "recomputed hash differs (schema)"
			}
		}
		r.Tools = append(r.Tools, c)
	}
	for _, w := range wire {
		if rest, ok := byName[w.Name]; ok && len(rest) > 0 {
			byName[w.Name] = rest[1:]
			r.Tools = append(r.Tools, ToolCheck{Name: w.Name, Outcome: ToolNotInManifest, Detail: "listed by the server, not in the examined version"})
			allRecomputed = false
		}
	}
	if allRecomputed {
		mh := manifest.ManifestDigest(digests)
		r.ManifestHash = hex.EncodeToString(mh[:])
		r.ManifestHashMatches = m.ManifestHash != nil && *m.ManifestHash == r.ManifestHash
	}
	return r
}
