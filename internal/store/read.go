package store

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/pep440"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store/internal/dbq"
	"github.com/attestari/attestari/internal/vocab"
)

// The read methods below are what the public API serves. Every one reads
// through current_versions or a publication, so nothing that was not
// published can be returned; rows become api types here and nowhere else.

func t(v pgtype.Timestamptz) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return v.Time.UTC()
}

func tp(v pgtype.Timestamptz) *time.Time {
	if !v.Valid {
		return nil
	}
	x := v.Time.UTC()
	return &x
}

func optional(registry string) *string {
	if registry == "" {
		return nil
	}
	return &registry
}

// Manifest returns one page of the attested manifest of name@version: the
// first page when cursor is empty, else the page the cursor (a NextCursor
// this method returned) names. A page holds at most api.ManifestPageTools
// tools and api.ManifestPageBytes of names and descriptions (a tool larger
// than that is a page alone); ToolCount is the whole manifest's. An empty
// registry means either; a name published on both then gives
// *api.AmbiguousNameError. An unknown version gives *api.VersionNotFoundError
// (errors.Is ErrNotFound). A cursor that is malformed, of another version,
// of a version published again since (its tools may differ), or past the
// last tool gives ErrBadCursor: the client starts again from the first page.
func (s *Store) Manifest(ctx context.Context, registry, name, version, cursor string) (*api.Manifest, error) {
	var id int64
	var from int32
	if cursor != "" {
		var ok bool
		if id, from, ok = parseManifestCursor(cursor); !ok {
			return nil, ErrBadCursor
		}
	}
	rows, err := s.q.ManifestGet(ctx, dbq.ManifestGetParams{Name: name, PypiName: api.LookupName(api.RegistryPyPI, name), Version: version, Registry: optional(registry),
		FromPosition: from, PageTools: api.ManifestPageTools, PageBytes: api.ManifestPageBytes})
	if err != nil {
		return nil, fmt.Errorf("manifest %s@%s: %w", name, version, err)
	}
	if len(rows) == 0 {
		if v, ok := s.pypiSpelling(ctx, registry, name, version); ok {
			return s.Manifest(respelled(ctx), registry, name, v, cursor)
		}
		return nil, s.missing(ctx, registry, name, version)
	}
	if registry == "" && (len(rows) > 1 || rows[0].OnOtherRegistry) {
		return nil, &api.AmbiguousNameError{Name: name, Registries: []string{api.RegistryNPM, api.RegistryPyPI}}
	}
	r := rows[0]
	if cursor != "" && (r.ID != id || from >= r.ToolCount) {
		return nil, ErrBadCursor
	}
	m := &api.Manifest{
		Stamps: api.Stamps{MethodologyVersion: r.MethodologyVersion, MethodologySHA256: r.MethodologySha256,
			ExtractorVersion: r.ExtractorVersion, DecidedAt: t(r.DecidedAt), PublishedAt: t(r.PublishedAt),
			Labels: api.Labels{Demo: r.Demo, DisclosurePeriodOverridden: r.DisclosurePeriodOverridden}},
		Registry: r.Registry, Name: r.Name, Version: r.Version, ArtifactSHA256: r.ArtifactSha256,
		ManifestHash: r.ManifestHash, ManifestReason: r.ManifestReason, Verdict: r.Verdict, Grade: r.Grade,
		ToolCount: int(r.ToolCount),
	}
	if err := json.Unmarshal(r.Tools, &m.Tools); err != nil {
		return nil, fmt.Errorf("manifest %s@%s: tools: %w", name, version, err)
	}
	if m.Tools == nil {
		m.Tools = []api.ToolHash{}
	}
	for i := range m.Tools {
		m.Tools[i].Verification = manifest.Level(m.Tools[i].SchemaKind)
		// A description that was not read has no text to show.
		if st := m.Tools[i].DescriptionState; st != vocab.StateReadable && st != vocab.StateAbsent && st != vocab.StatePartial {
			m.Tools[i].Description = nil
		}
	}
	if next := int(from) + len(m.Tools); next < m.ToolCount {
		c := manifestCursor(r.ID, int32(next))
		m.NextCursor = &c
	}
	return m, nil
}

// manifestCursor names the page of version row id that starts at tool
// position from. It names the row, not the version, so a page is never
// stitched onto pages of a later publication of the same version.
func manifestCursor(id int64, from int32) string {
	return strconv.FormatInt(id, 36) + "." + strconv.FormatInt(int64(from), 36)
}

func parseManifestCursor(c string) (id int64, from int32, ok bool) {
	a, b, found := strings.Cut(c, ".")
	if !found || a == "" || b == "" {
		return 0, 0, false
	}
	id, err := strconv.ParseInt(a, 36, 64)
	if err != nil || id <= 0 {
		return 0, 0, false
	}
	f, err := strconv.ParseInt(b, 36, 32)
	if err != nil || f <= 0 {
		return 0, 0, false
	}
	return id, int32(f), true
}

// missing explains why name@version has no current row: the name is on both
// registries and none was named (409), or the version is not published (404
// with the versions that are).
func (s *Store) missing(ctx context.Context, registry, name, version string) error {
	if registry == "" {
		regs, err := s.q.PackageVersionRegistriesForName(ctx, dbq.PackageVersionRegistriesForNameParams{Name: name, PypiName: api.LookupName(api.RegistryPyPI, name)})
		if err != nil {
			return fmt.Errorf("registries of %s: %w", name, err)
		}
		switch len(regs) {
		case 0:
			return &api.VersionNotFoundError{Name: name, Version: version}
		case 1:
			registry = regs[0]
		default:
			return &api.AmbiguousNameError{Name: name, Registries: regs}
		}
	}
	vs, err := s.q.PackageVersionVersionsForName(ctx, dbq.PackageVersionVersionsForNameParams{Registry: registry, LookupName: api.LookupName(registry, name)})
	if err != nil {
		return fmt.Errorf("versions of %s: %w", name, err)
	}
	sortVersions(vs)
	return &api.VersionNotFoundError{Registry: registry, Name: name, Version: version, KnownVersions: vs}
}

// pypiSpelling finds the published spelling of a PyPI version that PEP 440
// makes the same version as the one asked for (1.0 and 1.0.0, 01.2 and
// 1.2, 1.0RC1 and 1.0rc1): PyPI accepts one release per such version, so
// a gateway may ask in either spelling. Only a lookup that found nothing
// comes here; npm versions are compared as written.
func (s *Store) pypiSpelling(ctx context.Context, registry, name, version string) (string, bool) {
	if registry != "" && registry != api.RegistryPyPI || ctx.Value(respelledKey{}) != nil {
		return "", false
	}
	want, err := pep440.ParsePEP440(version)
	if err != nil {
		return "", false
	}
	vs, err := s.q.PackageVersionVersionsForName(ctx, dbq.PackageVersionVersionsForNameParams{Registry: api.RegistryPyPI, LookupName: api.LookupName(api.RegistryPyPI, name)})
	if err != nil {
		return "", false // the caller's own lookup reports the missing version
	}
	return samePEP440(want, version, vs)
}

// samePEP440 finds among published the spelling, other than asked, of the
// version want.
func samePEP440(want pep440.PEP440Version, asked string, published []string) (string, bool) {
	for _, v := range published {
		if v == asked {
			continue
		}
		if got, err := pep440.ParsePEP440(v); err == nil && got.Compare(want) == 0 {
			return v, true
		}
	}
	return "", false
}

// respelledKey marks a lookup already retried under a published spelling,
// so a retry is never retried again.
type respelledKey struct{}

func respelled(ctx context.Context) context.Context {
	return context.WithValue(ctx, respelledKey{}, true)
}

// resolve finds the registry of name@version when none was given, and the
// version as it was published (a PyPI version may be asked in another
// spelling, see pypiSpelling).
func (s *Store) resolve(ctx context.Context, registry, name, version string) (string, string, error) {
	rows, err := s.q.PackageVersionFindCurrent(ctx, dbq.PackageVersionFindCurrentParams{Name: name, PypiName: api.LookupName(api.RegistryPyPI, name), Version: version, Registry: optional(registry)})
	if err != nil {
		return "", "", fmt.Errorf("find %s@%s: %w", name, version, err)
	}
	if len(rows) == 0 {
		if v, ok := s.pypiSpelling(ctx, registry, name, version); ok {
			return s.resolve(respelled(ctx), registry, name, v)
		}
		return "", "", s.missing(ctx, registry, name, version)
	}
	if registry == "" && (len(rows) > 1 || rows[0].OnOtherRegistry) {
		return "", "", &api.AmbiguousNameError{Name: name, Registries: []string{api.RegistryNPM, api.RegistryPyPI}}
	}
	return rows[0].Registry, version, nil
}

// Lookup returns one item per key, in order; a key with no published row
// has Found false.
func (s *Store) Lookup(ctx context.Context, keys []api.PackageKey) ([]api.LookupItem, error) {
	regs, names, versions := make([]string, len(keys)), make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		regs[i], names[i], versions[i] = k.Registry, api.LookupName(k.Registry, k.Name), k.Version
	}
	out := make([]api.LookupItem, len(keys))
	for i, k := range keys {
		out[i] = api.LookupItem{PackageKey: k}
	}
	all := make([]int, len(keys))
	for i := range all {
		all[i] = i
	}
	if err := s.lookupInto(ctx, out, all, regs, names, versions); err != nil {
		return nil, err
	}
	// PyPI items not found as written: look again under the published
	// spelling of the same PEP 440 version (two more queries at most).
	want := map[int]pep440.PEP440Version{}
	var missingNames []string
	for i, k := range keys {
		if out[i].Found || k.Registry != api.RegistryPyPI {
			continue
		}
		if v, err := pep440.ParsePEP440(k.Version); err == nil {
			want[i] = v
			missingNames = append(missingNames, names[i])
		}
	}
	if len(want) == 0 {
		return out, nil
	}
	published, err := s.q.PackageVersionPyPIVersions(ctx, missingNames)
	if err != nil {
		return nil, fmt.Errorf("lookup: PyPI versions: %w", err)
	}
	byName := map[string][]string{}
	for _, p := range published {
		byName[p.LookupName] = append(byName[p.LookupName], p.Version)
	}
	var idx []int
	var rregs, rnames, rversions []string
	for i, w := range want {
		if v, ok := samePEP440(w, versions[i], byName[names[i]]); ok {
			idx = append(idx, i)
			rregs, rnames, rversions = append(rregs, regs[i]), append(rnames, names[i]), append(rversions, v)
		}
	}
	if len(idx) == 0 {
		return out, nil
	}
	if err := s.lookupInto(ctx, out, idx, rregs, rnames, rversions); err != nil {
		return nil, err
	}
	return out, nil
}

// lookupInto reads the current rows of (regs[j], names[j], versions[j])
// into out[idx[j]].
func (s *Store) lookupInto(ctx context.Context, out []api.LookupItem, idx []int, regs, names, versions []string) error {
	rows, err := s.q.PackageVersionLookup(ctx, dbq.PackageVersionLookupParams{Registries: regs, Names: names, Versions: versions})
	if err != nil {
		return fmt.Errorf("lookup %d items: %w", len(idx), err)
	}
	for _, r := range rows {
		j := int(r.Ord) - 1 // generate_subscripts counts from 1
		if j < 0 || j >= len(idx) {
			continue
		}
		i := idx[j]
		verdict := r.Verdict
		out[i].Found = true
		out[i].Verdict = &verdict
		out[i].Grade = r.Grade
		out[i].ManifestHash = r.ManifestHash
		out[i].PublishedAt = tp(r.PublishedAt)
		out[i].Labels = api.Labels{Demo: r.Demo, DisclosurePeriodOverridden: r.DisclosurePeriodOverridden}
		out[i].AttestationSHA256 = r.AttestationSha256
	}
	return nil
}

// VersionDiff compares two published versions of a package.
func (s *Store) VersionDiff(ctx context.Context, registry, name, from, to string) (*api.VersionDiff, error) {
	reg, from, err := s.resolve(ctx, registry, name, from)
	if err != nil {
		return nil, err
	}
	if _, to, err = s.resolve(ctx, reg, name, to); err != nil {
		return nil, err
	}
	a, err := s.q.PackageVersionGetCurrent(ctx, dbq.PackageVersionGetCurrentParams{Registry: reg, LookupName: api.LookupName(reg, name), Version: from})
	if err != nil {
		return nil, fmt.Errorf("diff %s: %s: %w", name, from, notFound(err))
	}
	b, err := s.q.PackageVersionGetCurrent(ctx, dbq.PackageVersionGetCurrentParams{Registry: reg, LookupName: api.LookupName(reg, name), Version: to})
	if err != nil {
		return nil, fmt.Errorf("diff %s: %s: %w", name, to, notFound(err))
	}
	at, ac, err := toolsAndCaps(ctx, s.q, a.ID)
	if err != nil {
		return nil, err
	}
	bt, bc, err := toolsAndCaps(ctx, s.q, b.ID)
	if err != nil {
		return nil, err
	}
	return diffVersions(reg, name, from, to, a.ManifestHash, b.ManifestHash, at, bt, ac, bc), nil
}

func capabilities(cs []dbq.Capability) []api.Capability {
	out := make([]api.Capability, len(cs))
	for i, c := range cs {
		out[i] = api.Capability{Kind: c.Kind, Tag: c.Tag, Target: c.Target, File: c.File, Line: int(c.Line),
			FileSHA256: c.FileSha256, Excerpt: c.Excerpt, Count: int(c.Count), Bundle: c.Bundle, Verification: c.Verification}
	}
	return out
}

// MaxPackageLimit bounds one page of ListPackages.
const MaxPackageLimit = 200

// likePatterns makes a name search of its words: a name matches when it
// contains every word of q (in any order, any case), so "filesystem server"
// finds server-filesystem. Each word is literal: %, _ and \ match themselves.
// No word, no filter (nil).
func likePatterns(q string) []string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	var out []string
	for _, w := range strings.Fields(q) {
		out = append(out, "%"+r.Replace(w)+"%")
	}
	return out
}

// ErrBadCursor reports a cursor this service did not issue (api.ErrBadCursor).
var ErrBadCursor = vocab.ErrBadCursor

// ListPackages returns a page of current package versions ordered by name,
// with facet counts by verdict and by reason over the same search.
func (s *Store) ListPackages(ctx context.Context, f api.PackageFilter) (*api.PackageList, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, MaxPackageLimit)
	pattern := likePatterns(f.Query)
	var after *int64
	if f.Cursor != "" {
		id, err := strconv.ParseInt(f.Cursor, 36, 64)
		if err != nil || id <= 0 {
			return nil, ErrBadCursor
		}
		after = &id
	}
	rows, err := s.q.PackageVersionList(ctx, dbq.PackageVersionListParams{
		Registry: optional(f.Registry), Grade: optional(f.Grade), Verdict: optional(f.Verdict), Reason: optional(f.Reason),
		Patterns: pattern, AfterID: after, Lim: int32(limit + 1),
	})
	if err != nil {
		return nil, fmt.Errorf("list packages: %w", err)
	}
	out := &api.PackageList{Items: make([]api.PackageSummary, 0, len(rows)),
		Counts: api.Counts{ByVerdict: map[string]int{}, ByReason: map[string]int{}, ByFirstReason: map[string]int{}}}
	for i, r := range rows {
		if i == limit {
			c := strconv.FormatInt(rows[i-1].ID, 36)
			out.NextCursor = &c
			break
		}
		out.Items = append(out.Items, api.PackageSummary{Registry: r.Registry, Name: r.Name, Version: r.Version,
			Verdict: r.Verdict, Grade: r.Grade, BlockedBy: nonNil(r.BlockedBy), Reason: r.Reason,
			ManifestHash: r.ManifestHash, PublishedAt: t(r.PublishedAt),
			Labels: api.Labels{Demo: r.Demo, DisclosurePeriodOverridden: r.DisclosurePeriodOverridden}})
	}
	vs, err := s.q.PackageVersionCountByVerdict(ctx, dbq.PackageVersionCountByVerdictParams{Registry: optional(f.Registry), Patterns: pattern})
	if err != nil {
		return nil, fmt.Errorf("count packages by verdict: %w", err)
	}
	for _, v := range vs {
		out.Counts.ByVerdict[v.Verdict] = int(v.N)
	}
	rs, err := s.q.PackageVersionCountByReason(ctx, dbq.PackageVersionCountByReasonParams{Registry: optional(f.Registry), Patterns: pattern})
	if err != nil {
		return nil, fmt.Errorf("count packages by reason: %w", err)
	}
	for _, r := range rs {
		out.Counts.ByReason[r.Code] = int(r.N)
	}
	fs, err := s.q.PackageVersionCountByFirstReason(ctx, dbq.PackageVersionCountByFirstReasonParams{
		MetaCode: vocab.CodeGateFailedAsRecorded, Registry: optional(f.Registry), Patterns: pattern})
	if err != nil {
		return nil, fmt.Errorf("count packages by first reason: %w", err)
	}
	for _, r := range fs {
		out.Counts.ByFirstReason[r.Code] = int(r.N)
	}
	return out, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// GateMap returns the gate map of a methodology version as published; for
// the methodology in force with nothing loaded yet, the policy's own map.
func (s *Store) GateMap(ctx context.Context, version string) (*api.GateMap, error) {
	rows, err := s.q.GateMapList(ctx, version)
	if err != nil {
		return nil, fmt.Errorf("gate map %s: %w", version, err)
	}
	if len(rows) == 0 {
		if version != methodology.Version {
			return nil, fmt.Errorf("gate map %s: %w", version, vocab.ErrNotFound)
		}
		var gm api.GateMap
		if err := json.Unmarshal(decision.ExportGateMap(), &gm); err != nil {
			return nil, fmt.Errorf("gate map of the policy: %w", err)
		}
		return &gm, nil
	}
	// Keep the policy's order (docs/methodology.md §9) for the codes it knows.
	order := map[string]int{}
	for i, e := range vocab.GateMap {
		order[e.Code] = i
	}
	gm := &api.GateMap{MethodologyVersion: version, Codes: make([]api.GateMapEntry, 0, len(rows))}
	for _, r := range rows {
		gm.Codes = append(gm.Codes, api.GateMapEntry{Code: r.Code, Guard: r.Guard, Line: r.Line})
	}
	rank := func(c string) int {
		if i, ok := order[c]; ok {
			return i
		}
		return len(order)
	}
	sortStable(gm.Codes, func(a, b api.GateMapEntry) bool {
		if rank(a.Code) != rank(b.Code) {
			return rank(a.Code) < rank(b.Code)
		}
		return a.Code < b.Code
	})
	return gm, nil
}

func blockedBy(gm *api.GateMap, codes []string) []api.BlockedBy {
	out := make([]api.BlockedBy, 0, len(codes))
	for _, c := range codes {
		out = append(out, blocking(gm, c))
	}
	return out
}

func blocking(gm *api.GateMap, code string) api.BlockedBy {
	if e, ok := gm.Lookup(code); ok {
		return api.BlockedBy{Code: code, Guard: e.Guard, Line: e.Line}
	}
	if e, ok := vocab.GateEntryFor(code); ok {
		return api.BlockedBy{Code: code, Guard: e.Guard, Line: e.Line}
	}
	return api.BlockedBy{Code: code, Guard: "unknown", Line: "This code is not in the gate map of the row's methodology version."}
}

// withDetail attaches to each reason what the published row says failed for
// it (blocking[] of the publication, stored as the row's blocking column).
// A document that does not decode leaves the codes as they are: the codes
// are the decision; the detail only explains it.
func withDetail(reasons []api.BlockedBy, doc []byte) []api.BlockedBy {
	var rows []decision.Blocking
	if len(doc) == 0 || json.Unmarshal(doc, &rows) != nil {
		return reasons
	}
	for i := range reasons {
		for _, b := range rows {
			if b.Code == reasons[i].Code {
				reasons[i].Detail = reasonDetail(b)
				break
			}
		}
	}
	return reasons
}

func reasonDetail(b decision.Blocking) *api.ReasonDetail {
	d := &api.ReasonDetail{Summary: b.Detail, Names: nonNil(b.Names)}
	if b.File != "" {
		d.File = &b.File
		if b.Line > 0 {
			d.Line = &b.Line
		}
	}
	for _, e := range b.Partial {
		p := api.PartialDescription{Kind: e.Kind, Name: e.Name, File: e.File, Line: e.Line, Text: e.Text, Holes: make([]api.Hole, 0, len(e.Holes))}
		if e.TextWithheld != "" {
			p.TextWithheld = &e.TextWithheld
		}
		for _, h := range e.Holes {
			p.Holes = append(p.Holes, api.Hole{Offset: h.Offset, Line: h.Line, Source: h.Source})
		}
		d.Partial = append(d.Partial, p)
	}
	return d
}

// Package returns the published decision row of one package version.
func (s *Store) Package(ctx context.Context, registry, name, version string) (*api.PackageDetail, error) {
	r, err := s.q.PackageVersionGetCurrent(ctx, dbq.PackageVersionGetCurrentParams{Registry: registry, LookupName: api.LookupName(registry, name), Version: version})
	if err != nil {
		if errors.Is(notFound(err), vocab.ErrNotFound) {
			if v, ok := s.pypiSpelling(ctx, registry, name, version); ok {
				return s.Package(respelled(ctx), registry, name, v)
			}
			return nil, s.missing(ctx, registry, name, version)
		}
		return nil, fmt.Errorf("package %s %s@%s: %w", registry, name, version, err)
	}
	gm, err := s.GateMap(ctx, r.MethodologyVersion)
	if err != nil && !errors.Is(err, vocab.ErrNotFound) {
		return nil, err
	}
	if gm == nil {
		gm = &api.GateMap{}
	}
	d := &api.PackageDetail{
		Stamps: api.Stamps{MethodologyVersion: r.MethodologyVersion, MethodologySHA256: r.MethodologySha256,
			ExtractorVersion: r.ExtractorVersion, DecidedAt: t(r.DecidedAt), PublishedAt: t(r.PublishedAt),
			Labels: api.Labels{Demo: r.Demo, DisclosurePeriodOverridden: r.DisclosurePeriodOverridden}},
		Registry: r.Registry, Name: r.Name, Version: r.Version, ArtifactSHA256: r.ArtifactSha256,
		Verdict: r.Verdict, Grade: r.Grade, BlockedBy: withDetail(blockedBy(gm, r.BlockedBy), r.Blocking), SurfaceOutcome: r.SurfaceOutcome,
		CapabilitiesOmitted: int(r.CapabilitiesOmitted), MCPSurface: r.McpSurface, DelegatesTo: r.DelegatesTo,
		NotAssessed: nonNil(r.NotAssessed), ManifestHash: r.ManifestHash, ManifestReason: r.ManifestReason,
		PublicationID: r.PublicationID,
	}
	if r.Reason != nil {
		b := blocking(gm, *r.Reason)
		d.Reason = &b
	}
	if len(d.MCPSurface) == 0 || string(d.MCPSurface) == "null" {
		d.MCPSurface = json.RawMessage("{}")
	}
	if string(d.DelegatesTo) == "null" {
		d.DelegatesTo = nil
	}
	d.DelegatedFrom = []json.RawMessage{}
	if len(r.DelegatedFrom) > 0 {
		if err := json.Unmarshal(r.DelegatedFrom, &d.DelegatedFrom); err != nil || d.DelegatedFrom == nil {
			d.DelegatedFrom = []json.RawMessage{}
		}
	}
	fs, err := s.q.FindingListByPackageVersion(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("findings of %s@%s: %w", name, version, err)
	}
	d.Findings = make([]api.Finding, 0, len(fs))
	for _, f := range fs {
		d.Findings = append(d.Findings, finding(f))
	}
	ts, err := s.q.ToolListByPackageVersion(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("tools of %s@%s: %w", name, version, err)
	}
	d.Tools = make([]api.ToolHash, 0, len(ts))
	for _, x := range ts {
		d.Tools = append(d.Tools, toolHash(x))
	}
	cs, err := s.q.CapabilityListByPackageVersion(ctx, r.ID)
	if err != nil {
		return nil, fmt.Errorf("capabilities of %s@%s: %w", name, version, err)
	}
	d.Capabilities = capabilities(cs)
	vs, err := s.q.PackageVersionVersionsForName(ctx, dbq.PackageVersionVersionsForNameParams{Registry: registry, LookupName: api.LookupName(registry, name)})
	if err != nil {
		return nil, fmt.Errorf("versions of %s: %w", name, err)
	}
	sortVersions(vs)
	d.Versions = vs
	return d, nil
}

func toolHash(x dbq.Tool) api.ToolHash {
	th := api.ToolHash{Name: x.Name, DescriptionState: x.DescriptionState, SchemaKind: x.SchemaKind, Verification: manifest.Level(x.SchemaKind), ToolHash: x.ToolHash, Reason: x.HashReason}
	switch x.DescriptionState {
	case vocab.StateReadable, vocab.StateAbsent, vocab.StatePartial:
		desc := x.DescriptionRaw
		th.Description = &desc
	}
	return th
}

// findingRow is what the API shows of a finding's published row beyond the columns.
type findingRow struct {
	Title       string `json:"title"`
	ContextTags []struct {
		Tag     string `json:"tag"`
		Applied bool   `json:"applied"`
		Why     string `json:"why"`
	} `json:"context_tags"`
}

func finding(f dbq.Finding) api.Finding {
	out := api.Finding{
		ID: f.ID, Check: f.CheckID, Tag: f.Tag, Severity: f.SeverityDecided, SeverityAssigned: f.SeverityAssigned,
		Status: f.Status, Rule: f.Rule, SurfaceKind: f.SurfaceKind, EntryName: f.EntryName,
		Evidence: api.Evidence{SHA256: f.EvidenceSha256, Path: f.EvidencePath, LineStart: int(f.LineStart),
			LineEnd: int(f.LineEnd), Excerpt: f.Excerpt, ExcerptSHA256: f.ExcerptSha256},
	}
	var row findingRow
	if json.Unmarshal(f.Row, &row) == nil {
		out.Title = row.Title
		for _, c := range row.ContextTags {
			out.ContextTags = append(out.ContextTags, api.ContextTag{Tag: c.Tag, Applied: c.Applied, Why: c.Why})
		}
	}
	return out
}

// Finding returns one published finding as its newest publication states it.
func (s *Store) Finding(ctx context.Context, id string) (*api.FindingDetail, error) {
	f, err := s.q.FindingGetLatest(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("finding %s: %w", id, notFound(err))
	}
	pv, err := s.q.PackageVersionGet(ctx, f.PackageVersionID)
	if err != nil {
		return nil, fmt.Errorf("finding %s: package: %w", id, err)
	}
	as, err := s.q.AppealStatusListByFinding(ctx, dbq.AppealStatusListByFindingParams{FindingID: id, PublicationID: f.PublicationID})
	if err != nil {
		return nil, fmt.Errorf("finding %s: appeals: %w", id, err)
	}
	out := &api.FindingDetail{
		Finding: finding(dbq.Finding{ID: f.ID, PublicationID: f.PublicationID, PackageVersionID: f.PackageVersionID,
			CheckID: f.CheckID, Tag: f.Tag, SeverityAssigned: f.SeverityAssigned, SeverityDecided: f.SeverityDecided,
			Status: f.Status, Rule: f.Rule, SurfaceKind: f.SurfaceKind, EntryName: f.EntryName,
			EvidenceSha256: f.EvidenceSha256, EvidencePath: f.EvidencePath, LineStart: f.LineStart, LineEnd: f.LineEnd,
			Excerpt: f.Excerpt, ExcerptSha256: f.ExcerptSha256, Row: f.Row}),
		Package: api.PackageSummary{Registry: pv.Registry, Name: pv.Name, Version: pv.Version, Verdict: pv.Verdict,
			Grade: pv.Grade, BlockedBy: nonNil(pv.BlockedBy), Reason: pv.Reason, ManifestHash: pv.ManifestHash,
			PublishedAt: t(pv.PublishedAt), Labels: api.Labels{Demo: pv.Demo, DisclosurePeriodOverridden: pv.DisclosurePeriodOverridden}},
		PublicationID: f.PublicationID, PublishedAt: t(f.PublicationPublishedAt), Appeals: make([]api.Appeal, 0, len(as)),
	}
	for _, a := range as {
		out.Appeals = append(out.Appeals, api.Appeal{ID: a.AppealID, Status: a.Status, FiledAt: t(a.FiledAt), ResolvedAt: tp(a.ResolvedAt)})
	}
	return out, nil
}

// Evidence returns a published blob.
func (s *Store) Evidence(ctx context.Context, sha256 string) (*api.Blob, error) {
	e, err := s.q.EvidenceGet(ctx, sha256)
	if err != nil {
		return nil, fmt.Errorf("evidence %s: %w", sha256, notFound(err))
	}
	return &api.Blob{SHA256: e.Sha256, ContentType: e.ContentType, Body: e.Body}, nil
}

// MaxRunLimit bounds one page of ListRuns.
const MaxRunLimit = 100

// ListRuns returns published runs, newest first.
func (s *Store) ListRuns(ctx context.Context, cursor string, limit int) (*api.RunList, error) {
	if limit <= 0 {
		limit = 20
	}
	limit = min(limit, MaxRunLimit)
	var before *string
	if cursor != "" {
		b, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || !publication.ValidID(string(b)) {
			return nil, ErrBadCursor
		}
		id := string(b)
		before = &id
	}
	rows, err := s.q.RunList(ctx, dbq.RunListParams{BeforeID: before, Lim: int32(limit + 1)})
	if err != nil {
		return nil, fmt.Errorf("list runs: %w", err)
	}
	out := &api.RunList{Items: make([]api.Run, 0, len(rows))}
	for i, r := range rows {
		if i == limit {
			c := base64.RawURLEncoding.EncodeToString([]byte(rows[i-1].ID))
			out.NextCursor = &c
			break
		}
		out.Items = append(out.Items, api.Run{ID: r.ID, StartedAt: t(r.StartedAt), FinishedAt: tp(r.FinishedAt),
			MethodologyVersion: r.MethodologyVersion, ExtractorVersion: r.ExtractorVersion, CodeCommit: r.CodeCommit,
			CodeDirty: r.CodeDirty, PackageCount: int(r.PackageCount), Publications: nonNil(r.PublicationIds),
			Labels: api.Labels{Demo: r.Demo, DisclosurePeriodOverridden: r.DisclosurePeriodOverridden}})
	}
	return out, nil
}

// RunDiff returns the diff.json of a run's newest publication, projected
// again onto what the publications on its two sides publish
// (publication.ProjectDiff): a publication made before the projection existed
// carries the run's whole diff, and none of its unpublished findings or
// decided outcomes may be served from it. A projected diff passes through
// unchanged.
func (s *Store) RunDiff(ctx context.Context, runID string) (json.RawMessage, error) {
	p, err := s.q.PublicationLatestForRun(ctx, runID)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", runID, notFound(err))
	}
	if len(p.Diff) == 0 {
		return nil, fmt.Errorf("run %s has no published diff: %w", runID, vocab.ErrNotFound)
	}
	var d publication.Diff
	if err := json.Unmarshal(p.Diff, &d); err != nil {
		return nil, fmt.Errorf("run %s: diff: %w", runID, err)
	}
	if d.RunID == "" {
		d.RunID = runID
	}
	cur, err := s.diffSide(ctx, p.ID, d, d.FindingsAdded)
	if err != nil {
		return nil, fmt.Errorf("run %s: diff: %w", runID, err)
	}
	var prev *publication.DiffSide
	if d.PreviousRunID != "" {
		pp, err := s.previousPublication(ctx, d)
		switch {
		case errors.Is(err, vocab.ErrNotFound):
		case err != nil:
			return nil, fmt.Errorf("run %s: diff: %w", runID, err)
		default:
			side, err := s.diffSide(ctx, pp, d, d.FindingsRemoved)
			if err != nil {
				return nil, fmt.Errorf("run %s: diff: %w", runID, err)
			}
			prev = &side
		}
	}
	b, err := json.Marshal(publication.ProjectDiff(d, cur, prev))
	if err != nil {
		return nil, err
	}
	return b, nil
}

// previousPublication is the publication of the previous run a diff's
// "from" side is read from: the one it names, else that run's newest.
func (s *Store) previousPublication(ctx context.Context, d publication.Diff) (string, error) {
	if d.PreviousPublicationID != "" {
		pp, err := s.q.PublicationGet(ctx, d.PreviousPublicationID)
		if err != nil {
			return "", fmt.Errorf("publication %s: %w", d.PreviousPublicationID, notFound(err))
		}
		if pp.RunID != d.PreviousRunID {
			return "", fmt.Errorf("publication %s is not of run %s: %w", pp.ID, d.PreviousRunID, vocab.ErrNotFound)
		}
		return pp.ID, nil
	}
	pp, err := s.q.PublicationLatestForRun(ctx, d.PreviousRunID)
	if err != nil {
		return "", fmt.Errorf("run %s: %w", d.PreviousRunID, notFound(err))
	}
	return pp.ID, nil
}

// diffSide reads what publication pubID publishes of the findings refs and
// of the packages d's changes name.
func (s *Store) diffSide(ctx context.Context, pubID string, d publication.Diff, refs []decision.FindingRef) (publication.DiffSide, error) {
	side := publication.DiffSide{PublicationID: pubID, Findings: map[string]bool{}, Outcomes: map[string]decision.Outcome{}}
	if len(refs) > 0 {
		ids := make([]string, len(refs))
		for i, f := range refs {
			ids[i] = f.ID
		}
		got, err := s.q.FindingIDsInPublication(ctx, dbq.FindingIDsInPublicationParams{PublicationID: pubID, Ids: ids})
		if err != nil {
			return side, fmt.Errorf("findings of %s: %w", pubID, err)
		}
		for _, id := range got {
			side.Findings[id] = true
		}
	}
	if len(d.Changes) > 0 {
		keys := make([]string, len(d.Changes))
		for i, c := range d.Changes {
			keys[i] = c.Package.Key()
		}
		rows, err := s.q.PackageVersionOutcomesInPublication(ctx, dbq.PackageVersionOutcomesInPublicationParams{PublicationID: pubID, Keys: keys})
		if err != nil {
			return side, fmt.Errorf("outcomes in %s: %w", pubID, err)
		}
		for _, r := range rows {
			o := decision.Outcome{Version: r.Version, Verdict: r.Verdict, BlockedBy: r.BlockedBy}
			if r.Grade != nil {
				o.Grade = *r.Grade
			}
			if len(o.BlockedBy) == 0 {
				o.BlockedBy = nil
			}
			side.Outcomes[rundir.PackageRef{Registry: r.Registry, Name: r.Name, Version: r.Version}.Key()] = o
		}
	}
	return side, nil
}

// History returns every published version of a package, newest publication
// first, each with what changed in its manifest against the version before.
func (s *Store) History(ctx context.Context, registry, name string) ([]api.VersionHistoryEntry, error) {
	rows, err := s.q.PackageVersionHistory(ctx, dbq.PackageVersionHistoryParams{Registry: registry, LookupName: api.LookupName(registry, name)})
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", name, err)
	}
	ds, err := s.q.VersionDiffListForPackage(ctx, dbq.VersionDiffListForPackageParams{Registry: registry, LookupName: api.LookupName(registry, name)})
	if err != nil {
		return nil, fmt.Errorf("diffs of %s: %w", name, err)
	}
	byTo := map[string]*api.VersionDiff{}
	for _, d := range ds {
		if _, ok := byTo[d.ToVersion]; ok {
			continue // the newest publication's diff (the query's order) wins
		}
		var vd api.VersionDiff
		if json.Unmarshal(d.Diff, &vd) == nil {
			byTo[d.ToVersion] = &vd
		}
	}
	out := make([]api.VersionHistoryEntry, 0, len(rows))
	for _, r := range rows {
		out = append(out, api.VersionHistoryEntry{Version: r.Version, Verdict: r.Verdict, Grade: r.Grade,
			BlockedBy: nonNil(r.BlockedBy), ManifestHash: r.ManifestHash, PublishedAt: t(r.PublishedAt), Changes: byTo[r.Version]})
	}
	sortStable(out, func(a, b api.VersionHistoryEntry) bool { return compareVersions(a.Version, b.Version) > 0 })
	return out, nil
}
