package store

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/Masterminds/semver/v3"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/store/internal/dbq"
)

// toolRow is what a diff compares of one tool.
type toolRow struct {
	Name        string
	Description string
	SchemaKind  string
	SchemaRaw   string
	Hash        *string
}

func toolsAndCaps(ctx context.Context, q *dbq.Queries, pvID int64) ([]toolRow, []api.Capability, error) {
	ts, err := q.ToolListByPackageVersion(ctx, pvID)
	if err != nil {
		return nil, nil, fmt.Errorf("tools of %d: %w", pvID, err)
	}
	tools := make([]toolRow, len(ts))
	for i, t := range ts {
		tools[i] = toolRow{Name: t.Name, Description: t.DescriptionRaw, SchemaKind: t.SchemaKind, SchemaRaw: t.SchemaRaw, Hash: t.ToolHash}
	}
	cs, err := q.CapabilityListByPackageVersion(ctx, pvID)
	if err != nil {
		return nil, nil, fmt.Errorf("capabilities of %d: %w", pvID, err)
	}
	return tools, capabilities(cs), nil
}

// diffVersions compares two versions' tools by name and their capability
// inventories by fact (kind, tag, target: methodology §20's identity).
func diffVersions(registry, name, from, to string, fromHash, toHash *string, fromTools, toTools []toolRow, fromCaps, toCaps []api.Capability) *api.VersionDiff {
	d := &api.VersionDiff{
		Registry: registry, Name: name, From: from, To: to, FromManifestHash: fromHash, ToManifestHash: toHash,
		Tools: []api.ToolChange{}, CapabilitiesAdded: []api.Capability{}, CapabilitiesRemoved: []api.Capability{},
	}
	old := map[string]toolRow{}
	for _, t := range fromTools {
		old[t.Name] = t
	}
	seen := map[string]bool{}
	for _, t := range toTools {
		seen[t.Name] = true
		o, ok := old[t.Name]
		if !ok {
			d.Tools = append(d.Tools, api.ToolChange{Name: t.Name, Change: api.ChangeAdded, ToHash: t.Hash})
			continue
		}
		descChanged := o.Description != t.Description
		schemaChanged := o.SchemaKind != t.SchemaKind || o.SchemaRaw != t.SchemaRaw
		var change string
		switch {
		case descChanged && schemaChanged:
			change = api.ChangeDescriptionAndSchema
		case descChanged:
			change = api.ChangeDescription
		case schemaChanged:
			change = api.ChangeSchema
		default:
			continue
		}
		d.Tools = append(d.Tools, api.ToolChange{Name: t.Name, Change: change, FromHash: o.Hash, ToHash: t.Hash})
	}
	for _, t := range fromTools {
		if !seen[t.Name] {
			seen[t.Name] = true
			d.Tools = append(d.Tools, api.ToolChange{Name: t.Name, Change: api.ChangeRemoved, FromHash: t.Hash})
		}
	}
	sort.SliceStable(d.Tools, func(i, j int) bool { return d.Tools[i].Name < d.Tools[j].Name })
	key := func(c api.Capability) string { return c.Kind + "\x00" + c.Tag + "\x00" + c.Target }
	had, has := map[string]bool{}, map[string]bool{}
	for _, c := range fromCaps {
		had[key(c)] = true
	}
	for _, c := range toCaps {
		has[key(c)] = true
		if !had[key(c)] {
			had[key(c)] = true // one entry per fact
			d.CapabilitiesAdded = append(d.CapabilitiesAdded, c)
		}
	}
	for _, c := range fromCaps {
		if !has[key(c)] {
			has[key(c)] = true
			d.CapabilitiesRemoved = append(d.CapabilitiesRemoved, c)
		}
	}
	return d
}

// compareVersions orders versions: semantic versions by precedence, anything
// else by numeric runs then text, so "1.10" follows "1.9" (a PEP 440 version
// that is not semver still orders sensibly).
func compareVersions(a, b string) int {
	if a == b {
		return 0
	}
	va, errA := semver.StrictNewVersion(a)
	vb, errB := semver.StrictNewVersion(b)
	if errA == nil && errB == nil {
		if c := va.Compare(vb); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	}
	ca, cb := chunks(a), chunks(b)
	for i := 0; i < len(ca) && i < len(cb); i++ {
		x, y := ca[i], cb[i]
		nx, ex := strconv.ParseUint(x, 10, 64)
		ny, ey := strconv.ParseUint(y, 10, 64)
		switch {
		case ex == nil && ey == nil:
			if nx != ny {
				if nx < ny {
					return -1
				}
				return 1
			}
		case ex == nil:
			return 1 // a number sorts after text: 1.0 > 1.0rc1's "rc"
		case ey == nil:
			return -1
		default:
			if c := strings.Compare(x, y); c != 0 {
				return c
			}
		}
	}
	switch {
	case len(ca) < len(cb):
		return -suffixOrder(cb[len(ca)])
	case len(ca) > len(cb):
		return suffixOrder(ca[len(cb)])
	}
	return strings.Compare(a, b)
}

// suffixOrder says whether a version with the extra chunk c sorts after (1)
// or before (-1) the same version without it: "1.0.1" and "1.0.post1" come
// after "1.0"; "1.0rc1", "1.0a1", "1.0.dev1" come before it.
func suffixOrder(c string) int {
	if _, err := strconv.ParseUint(c, 10, 64); err == nil {
		return 1
	}
	if l := strings.ToLower(c); strings.HasPrefix(l, "post") || l == "r" || l == "rev" {
		return 1
	}
	return -1
}

// chunks splits a version into runs of digits and runs of letters.
func chunks(v string) []string {
	var out []string
	cur := strings.Builder{}
	kind := 0 // 1 digit, 2 letter
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range v {
		k := 0
		switch {
		case r >= '0' && r <= '9':
			k = 1
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			k = 2
		}
		if k == 0 {
			flush()
			kind = 0
			continue
		}
		if k != kind {
			flush()
		}
		kind = k
		cur.WriteRune(r)
	}
	flush()
	return out
}

// sortVersions orders versions newest first.
func sortVersions(vs []string) {
	sort.SliceStable(vs, func(i, j int) bool { return compareVersions(vs[i], vs[j]) > 0 })
}

func sortStable[T any](s []T, less func(a, b T) bool) {
	sort.SliceStable(s, func(i, j int) bool { return less(s[i], s[j]) })
}
