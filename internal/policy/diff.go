package policy

import (
	"maps"
	"slices"
	"sort"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// DecidedRun is what a diff compares: a run's decisions and its surfaces.
type DecidedRun struct {
	Decisions *Decisions
	Surfaces  []rundir.Surface
}

// Diff compares cur against prev. A nil prev (the first decided run over a
// candidates file) lists every package as added.
func Diff(prev *DecidedRun, cur DecidedRun) RunDiff {
	d := RunDiff{RunID: cur.Decisions.Header.RunID, PackagesAdded: []rundir.PackageRef{}, PackagesRemoved: []rundir.PackageRef{}, PackagesNotExamined: []rundir.PackageRef{},
		Changes: []PackageChange{}, FindingsAdded: []FindingRef{}, FindingsRemoved: []FindingRef{}, Manifests: []ManifestChange{}}
	curPkgs := packagesByKey(cur.Decisions)
	prevPkgs := map[string]PackageRow{}
	if prev != nil {
		d.PreviousRunID = prev.Decisions.Header.RunID
		prevPkgs = packagesByKey(prev.Decisions)
	}
	for _, k := range slices.Sorted(maps.Keys(curPkgs)) {
		p := curPkgs[k]
		old, ok := prevPkgs[k]
		if !ok {
			d.PackagesAdded = append(d.PackagesAdded, p.Package)
			continue
		}
		if o, n := outcomeOf(old), outcomeOf(p); o.Verdict != n.Verdict || o.Grade != n.Grade || !slices.Equal(o.BlockedBy, n.BlockedBy) {
			d.Changes = append(d.Changes, PackageChange{Package: p.Package, From: o, To: n})
		}
	}
	// A name this run could not examine, at whatever version it was asked.
	notExamined := map[[2]string]bool{}
	for _, n := range cur.Decisions.NotExamined {
		notExamined[[2]string{n.Package.Registry, n.Package.Name}] = true
	}
	held := func(ref rundir.PackageRef) bool {
		_, decided := curPkgs[ref.Key()]
		return !decided && notExamined[[2]string{ref.Registry, ref.Name}]
	}
	for _, k := range slices.Sorted(maps.Keys(prevPkgs)) {
		if _, ok := curPkgs[k]; !ok {
			if ref := prevPkgs[k].Package; held(ref) {
				d.PackagesNotExamined = append(d.PackagesNotExamined, ref)
			} else {
				d.PackagesRemoved = append(d.PackagesRemoved, ref)
			}
		}
	}
	curF, prevF := findingsByID(cur.Decisions), map[string]FindingRef{}
	if prev != nil {
		prevF = findingsByID(prev.Decisions)
	}
	for _, id := range slices.Sorted(maps.Keys(curF)) {
		if _, ok := prevF[id]; !ok {
			d.FindingsAdded = append(d.FindingsAdded, curF[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(prevF)) {
		if _, ok := curF[id]; !ok && !held(prevF[id].Package) {
			d.FindingsRemoved = append(d.FindingsRemoved, prevF[id])
		}
	}
	if prev != nil {
		d.Manifests = manifestChanges(prev, cur)
	}
	return d
}

func packagesByKey(d *Decisions) map[string]PackageRow {
	out := map[string]PackageRow{}
	for _, p := range d.Packages {
		out[p.Package.Key()] = p
	}
	return out
}

func outcomeOf(p PackageRow) Outcome {
	return Outcome{Version: p.Package.Version, Verdict: p.Verdict, Grade: p.Grade, BlockedBy: p.BlockedBy}
}

func findingsByID(d *Decisions) map[string]FindingRef {
	out := map[string]FindingRef{}
	for _, f := range d.Findings {
		out[f.ID] = FindingRef{ID: f.ID, Package: f.Package, Check: f.Check, Tag: f.Tag, Decision: f.Decision}
	}
	return out
}

// toolText is what a diff compares of one tool.
type toolText struct {
	description, schema, hash string
}

func toolsOf(run DecidedRun, ref rundir.PackageRef) map[string]toolText {
	hashes := map[string]string{}
	for _, p := range run.Decisions.Packages {
		if p.Package == ref {
			for _, t := range p.ToolHashes {
				hashes[t.Name] = t.Hash
			}
		}
	}
	out := map[string]toolText{}
	for _, s := range run.Surfaces {
		if s.Package != ref {
			continue
		}
		for _, t := range s.Tools {
			out[t.Name] = toolText{description: t.DescriptionState + "\x00" + t.DescriptionRaw, schema: t.SchemaKind + "\x00" + t.SchemaRaw, hash: hashes[t.Name]}
		}
	}
	return out
}

// manifestChanges pairs, per registry and name, the version each run
// examined, and lists the tools that differ when the manifests differ.
func manifestChanges(prev *DecidedRun, cur DecidedRun) []ManifestChange {
	type nameKey struct{ registry, name string }
	latest := func(d *Decisions) map[nameKey]PackageRow {
		out := map[nameKey]PackageRow{}
		for _, p := range d.Packages {
			k := nameKey{p.Package.Registry, p.Package.Name}
			if o, ok := out[k]; !ok || o.Package.Version < p.Package.Version {
				out[k] = p
			}
		}
		return out
	}
	pl, cl := latest(prev.Decisions), latest(cur.Decisions)
	var keys []nameKey
	for k := range cl {
		if _, ok := pl[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].registry != keys[j].registry {
			return keys[i].registry < keys[j].registry
		}
		return keys[i].name < keys[j].name
	})
	var out []ManifestChange
	for _, k := range keys {
		o, n := pl[k], cl[k]
		from, to := toolsOf(*prev, o.Package), toolsOf(cur, n.Package)
		var tools []ToolChange
		names := map[string]bool{}
		for name := range from {
			names[name] = true
		}
		for name := range to {
			names[name] = true
		}
		for _, name := range slices.Sorted(maps.Keys(names)) {
			a, inA := from[name]
			b, inB := to[name]
			switch {
			case !inA:
				tools = append(tools, ToolChange{Name: name, Change: vocab.ChangeAdded, ToHash: b.hash})
			case !inB:
				tools = append(tools, ToolChange{Name: name, Change: vocab.ChangeRemoved, FromHash: a.hash})
			default:
				dc, sc := a.description != b.description, a.schema != b.schema
				change := ""
				switch {
				case dc && sc:
					change = vocab.ChangeDescriptionAndSchema
				case dc:
					change = vocab.ChangeDescription
				case sc:
					change = vocab.ChangeSchema
				}
				if change != "" {
					tools = append(tools, ToolChange{Name: name, Change: change, FromHash: a.hash, ToHash: b.hash})
				}
			}
		}
		if len(tools) == 0 && o.ManifestHash == n.ManifestHash {
			continue
		}
		if tools == nil {
			tools = []ToolChange{}
		}
		out = append(out, ManifestChange{Registry: k.registry, Name: k.name, FromVersion: o.Package.Version, ToVersion: n.Package.Version,
			FromManifestHash: o.ManifestHash, ToManifestHash: n.ManifestHash, Tools: tools})
	}
	if out == nil {
		out = []ManifestChange{}
	}
	return out
}
