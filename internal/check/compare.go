package check

import (
	"fmt"
	"sort"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
)

// Against is the comparison of the checked artifact with a published
// version, tool by tool: what a gateway pinning the published version's
// manifest will see when the checked artifact is published.
type Against struct {
	Spec         string            `json:"spec"`
	Package      rundir.PackageRef `json:"package"`
	Verdict      string            `json:"verdict"`
	Grade        string            `json:"grade,omitempty"`
	ManifestHash string            `json:"manifest_hash,omitempty"`
	// ManifestChanged: the manifest hash differs (or one side has none).
	ManifestChanged bool         `json:"manifest_changed"`
	Tools           []ToolChange `json:"tools"`
}

// ToolChange is one tool's change. Change is one of added, removed,
// description_changed, schema_changed, description_and_schema_changed or
// unchanged (policy.ToolChange's words, plus unchanged).
type ToolChange struct {
	Name        string   `json:"name"`
	Change      string   `json:"change"`
	FromHash    string   `json:"from_hash,omitempty"`
	ToHash      string   `json:"to_hash,omitempty"`
	NewFindings []string `json:"new_findings"`
	// Gateway is one line saying what a gateway pinning the published
	// manifest will see.
	Gateway string `json:"gateway"`
}

// ChangeUnchanged is ToolChange.Change of a tool whose pinned hash still matches.
const ChangeUnchanged = "unchanged"

// Side is one decided run of one package, for Compare.
type Side struct {
	Package   rundir.PackageRef
	Decisions *policy.Decisions
	Surfaces  []rundir.Surface
}

// Compare lists every tool of base and head with its change, using the
// scheduled pass's own manifest diff (policy.Diff), and the findings of head
// that base does not have on the same tool (same check, tag and excerpt).
func Compare(spec string, base, head Side) *Against {
	d := policy.Diff(&policy.DecidedRun{Decisions: base.Decisions, Surfaces: base.Surfaces}, policy.DecidedRun{Decisions: head.Decisions, Surfaces: head.Surfaces})
	a := &Against{Spec: spec, Package: base.Package, Tools: []ToolChange{}}
	bRow, hRow := rowOf(base.Decisions, base.Package), rowOf(head.Decisions, head.Package)
	if bRow != nil {
		a.Verdict, a.Grade, a.ManifestHash = bRow.Verdict, bRow.Grade, bRow.ManifestHash
	}
	if bRow == nil || hRow == nil || bRow.ManifestHash != hRow.ManifestHash || bRow.ManifestHash == "" {
		a.ManifestChanged = true
	}
	changed := map[string]policy.ToolChange{}
	for _, m := range d.Manifests {
		if m.Name == head.Package.Name && m.Registry == head.Package.Registry {
			for _, t := range m.Tools {
				changed[t.Name] = t
			}
		}
	}
	hashes := func(row *policy.PackageRow) map[string]string {
		out := map[string]string{}
		if row != nil {
			for _, t := range row.ToolHashes {
				out[t.Name] = t.Hash
			}
		}
		return out
	}
	bh, hh := hashes(bRow), hashes(hRow)
	names := map[string]bool{}
	for _, s := range []Side{base, head} {
		for _, sf := range s.Surfaces {
			if sf.Package == s.Package {
				for _, t := range sf.Tools {
					names[t.Name] = true
				}
			}
		}
	}
	for n := range changed {
		names[n] = true
	}
	seen := map[string]bool{}
	for _, f := range base.Decisions.Findings {
		if f.Package == base.Package {
			seen[f.EntryName+"\x00"+f.Check+"\x00"+f.Tag+"\x00"+f.Evidence.Excerpt] = true
		}
	}
	newFindings := map[string][]string{}
	for _, f := range head.Decisions.Findings {
		if f.Package == head.Package && !seen[f.EntryName+"\x00"+f.Check+"\x00"+f.Tag+"\x00"+f.Evidence.Excerpt] {
			newFindings[f.EntryName] = append(newFindings[f.EntryName], f.ID)
		}
	}
	var sorted []string
	for n := range names {
		sorted = append(sorted, n)
	}
	sort.Strings(sorted)
	for _, n := range sorted {
		tc := ToolChange{Name: n, Change: ChangeUnchanged, FromHash: bh[n], ToHash: hh[n], NewFindings: []string{}}
		if c, ok := changed[n]; ok {
			tc.Change, tc.FromHash, tc.ToHash = c.Change, c.FromHash, c.ToHash
		}
		if nf := newFindings[n]; nf != nil {
			tc.NewFindings = nf
		}
		tc.Gateway = gatewayLine(tc, base.Package.Version)
		a.Tools = append(a.Tools, tc)
	}
	return a
}

func rowOf(d *policy.Decisions, p rundir.PackageRef) *policy.PackageRow {
	for i := range d.Packages {
		if d.Packages[i].Package == p {
			return &d.Packages[i]
		}
	}
	return nil
}

// gatewayLine says what a gateway pinning the published manifest of version
// from sees of the tool.
func gatewayLine(t ToolChange, from string) string {
	var s string
	switch t.Change {
	case "added":
		s = fmt.Sprintf("new tool: a gateway pinning %s sees a tool it has no hash for and blocks or warns on it until the new manifest is pinned", from)
	case "removed":
		s = fmt.Sprintf("removed: a gateway pinning %s sees the tool missing from tools/list", from)
	case "description_changed":
		s = fmt.Sprintf("description changed: the tool hash pinned from %s no longer matches (a rug-pull signal until the new manifest is pinned)", from)
	case "schema_changed":
		s = fmt.Sprintf("schema changed: the tool hash pinned from %s no longer matches where the gateway verifies the full tool hash", from)
	case "description_and_schema_changed":
		s = fmt.Sprintf("description and schema changed: the tool hash pinned from %s no longer matches", from)
	default:
		s = fmt.Sprintf("unchanged: the tool hash pinned from %s still matches", from)
	}
	if n := len(t.NewFindings); n > 0 {
		s += fmt.Sprintf("; %d new finding(s) on this tool", n)
	}
	return s
}
