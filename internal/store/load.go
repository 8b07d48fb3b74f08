package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/attestari/attestari/api"
	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/store/internal/dbq"
	"github.com/attestari/attestari/internal/vocab"
)

// publicReasons is what is served of a published row's reasons. A reason
// that rests on findings (G6, G7, evidence_unpublishable) is about findings
// the publication withholds, so it is served with its code and a summary
// that counts them, never their ids, places or what was said of them.
func publicReasons(bs []decision.Blocking) []decision.Blocking {
	out := make([]decision.Blocking, 0, len(bs))
	for _, b := range bs {
		switch n := len(b.Findings); {
		case n > 0:
			b = decision.Blocking{Code: b.Code, Guard: b.Guard, Detail: withheldSummary(n)}
		case b.Code == vocab.CodeCheckFailed:
			// The recorded error is the examiner's own (an analyzer's or a
			// registry's answer), for the operator: the reader is told which
			// stages failed.
			b = decision.Blocking{Code: b.Code, Guard: b.Guard, Names: b.Names,
				Detail: "did not complete on the examiner's side: " + strings.Join(b.Names, ", ")}
		}
		out = append(out, b)
	}
	return out
}

func withheldSummary(n int) string {
	if n == 1 {
		return "rests on a finding that is withheld from publication, and so is what this reason says of it"
	}
	return fmt.Sprintf("rests on %d findings that are withheld from publication, and so is what this reason says of them", n)
}

// ErrInvalidPublication reports a publication the loader refuses before
// writing anything: an inconsistency that would put a row on the public API
// that the publication does not back.
var ErrInvalidPublication = errors.New("publication cannot be loaded")

// loadLock serialises loaders, so two loads of the same publication cannot
// both see it absent.
const loadLock = 0x6c6f6164 // "load"

// loadHook, when set (tests only), is called between the stages of a load;
// an error it returns fails the load there, as a crash would.
var loadHook func(stage string) error

func hook(stage string) error {
	if loadHook == nil {
		return nil
	}
	return loadHook(stage)
}

// LoadPublication puts exactly one publication into the database, in one
// transaction: a failure anywhere leaves nothing of it visible, and the
// publications loaded before stay served as they were. Loading a
// publication whose id is already loaded changes nothing and returns nil.
//
// It fills runs, publications, package_versions (with tools and
// capabilities), current_versions (the newest publication wins), findings
// (only those with a public status) with their appeal statuses, evidence
// (only blobs the publication lists), the gate map, and version_diffs (what
// changed against the previous published version of the same package).
func (s *Store) LoadPublication(ctx context.Context, p *publication.Publication) error {
	if err := validatePublication(p); err != nil {
		return err
	}
	return s.inTx(ctx, func(q *dbq.Queries, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", loadLock); err != nil {
			return fmt.Errorf("load %s: take lock: %w", p.Header.ID, err)
		}
		exists, err := q.PublicationExists(ctx, p.Header.ID)
		if err != nil {
			return fmt.Errorf("load %s: %w", p.Header.ID, err)
		}
		if exists {
			return nil
		}
		if err := load(ctx, q, p); err != nil {
			return fmt.Errorf("load publication %s: %w", p.Header.ID, err)
		}
		// Delivered to listeners only when the transaction commits.
		if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", PublicationsChannel, p.Header.ID); err != nil {
			return fmt.Errorf("load %s: notify: %w", p.Header.ID, err)
		}
		return nil
	})
}

// PublicationLoaded reports whether a publication id is in the database.
func (s *Store) PublicationLoaded(ctx context.Context, id string) (bool, error) {
	ok, err := s.q.PublicationExists(ctx, id)
	if err != nil {
		return false, fmt.Errorf("publication %s loaded: %w", id, err)
	}
	return ok, nil
}

var publicStatuses = map[string]bool{
	vocab.StatusConfirmed: true, vocab.StatusNoted: true,
	vocab.StatusUnderAppeal: true, vocab.StatusWithdrawnOnAppeal: true,
}

func invalid(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidPublication, fmt.Sprintf(format, a...))
}

// validatePublication checks what the schema cannot: that every row the
// public will see is backed by the publication itself.
func validatePublication(p *publication.Publication) error {
	if p == nil {
		return invalid("nil publication")
	}
	h := p.Header
	if !publication.ValidID(h.ID) {
		return invalid("id %q", h.ID)
	}
	if h.RunID == "" || h.PublishedAt.IsZero() {
		return invalid("%s: no run id or no published_at", h.ID)
	}
	listed := map[string]bool{}
	for _, e := range p.Evidence {
		b, ok := p.Blobs[e.SHA256]
		if !ok {
			return invalid("evidence %s has no bytes", e.SHA256)
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:]) != e.SHA256 {
			return invalid("evidence %s does not hash to its name", e.SHA256)
		}
		listed[e.SHA256] = true
	}
	keys := map[string]bool{}
	for _, pk := range p.Packages {
		k := api.PackageKey{Registry: pk.Package.Registry, Name: pk.Package.Name, Version: pk.Package.Version}
		if k.Registry != api.RegistryNPM && k.Registry != api.RegistryPyPI || k.Name == "" || k.Version == "" {
			return invalid("package %q", pk.Package.Key())
		}
		if keys[pk.Package.Key()] {
			return invalid("package %s appears twice", pk.Package.Key())
		}
		keys[pk.Package.Key()] = true
		switch pk.Verdict {
		case api.VerdictGraded:
			if pk.Grade == "" {
				return invalid("%s is graded with no grade", pk.Package.Key())
			}
		case api.VerdictNotGradeable, api.VerdictOutOfScope:
			if pk.Grade != "" {
				return invalid("%s is %s with a grade", pk.Package.Key(), pk.Verdict)
			}
		default:
			return invalid("%s has verdict %q", pk.Package.Key(), pk.Verdict)
		}
	}
	ids := map[string]bool{}
	for _, f := range p.Findings {
		if !publicStatuses[f.Status] {
			// A withheld finding is never published; the loader skips it below.
			continue
		}
		if ids[f.ID] {
			return invalid("finding %s appears twice", f.ID)
		}
		ids[f.ID] = true
		if !keys[f.Package.Key()] {
			return invalid("finding %s is about %s, which the publication does not hold", f.ID, f.Package.Key())
		}
		if sha := findingBlob(f); !listed[sha] {
			return invalid("finding %s cites evidence %s, which the publication does not hold", f.ID, sha)
		}
	}
	return nil
}

// findingBlob is the blob a reader verifies a finding against.
func findingBlob(f publication.Finding) string {
	if f.PublishedEvidence.SHA256 != "" {
		return f.PublishedEvidence.SHA256
	}
	return f.Evidence.SHA256
}

func ts(t time.Time) pgtype.Timestamptz {
	if t.IsZero() {
		return pgtype.Timestamptz{}
	}
	return pgtype.Timestamptz{Time: t, Valid: true}
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func load(ctx context.Context, q *dbq.Queries, p *publication.Publication) error {
	h := p.Header
	header, err := json.Marshal(h)
	if err != nil {
		return err
	}
	decided := h.Decided
	if err := q.RunUpsert(ctx, dbq.RunUpsertParams{
		ID: h.RunID, StartedAt: ts(firstTime(h.RunStartedAt, decided.DecidedAt, h.PublishedAt)), FinishedAt: ts(h.RunFinishedAt),
		MethodologyVersion: firstString(decided.MethodologyVersion, h.MethodologyVersion),
		MethodologySha256:  firstString(decided.MethodologySHA256, h.MethodologySHA256),
		ExtractorVersion:   decided.ExtractorVersion, CodeCommit: decided.CodeCommit, CodeDirty: decided.CodeDirty,
		PackageCount: int32(len(p.Packages)), Header: header,
	}); err != nil {
		return fmt.Errorf("run %s: %w", h.RunID, err)
	}
	if err := q.PublicationInsert(ctx, dbq.PublicationInsertParams{
		ID: h.ID, RunID: h.RunID, PublishedAt: ts(h.PublishedAt), Day0: ts(firstTime(h.Day0, h.PublishedAt)),
		MethodologyVersion: h.MethodologyVersion, MethodologySha256: h.MethodologySHA256,
		Supersedes: strPtr(h.Supersedes), Demo: h.Demo, ContractSha256: contractSHA256(h),
		Diff: jsonOrNil(p.Diff), GateMap: jsonOrNil(p.GateMap), DisclosurePeriodOverridden: clockOverridden(h),
	}); err != nil {
		return fmt.Errorf("publication row: %w", err)
	}
	if err := hook("publication"); err != nil {
		return err
	}
	if len(p.GateMap) > 0 {
		var gm api.GateMap
		if err := json.Unmarshal(p.GateMap, &gm); err != nil {
			return invalid("gate_map.json: %v", err)
		}
		version := firstString(gm.MethodologyVersion, h.MethodologyVersion)
		for _, e := range gm.Codes {
			if err := q.GateMapUpsert(ctx, dbq.GateMapUpsertParams{MethodologyVersion: version, Code: e.Code, Guard: e.Guard, Line: e.Line}); err != nil {
				return fmt.Errorf("gate map %s: %w", e.Code, err)
			}
		}
	}
	for _, e := range p.Evidence {
		b := p.Blobs[e.SHA256]
		if err := q.EvidenceInsert(ctx, dbq.EvidenceInsertParams{
			Sha256: e.SHA256, ContentType: firstString(e.ContentType, "application/octet-stream"),
			Size: int32(len(b)), Body: b, PublicationID: h.ID,
		}); err != nil {
			return fmt.Errorf("evidence %s: %w", e.SHA256, err)
		}
	}
	// Versions of one package load oldest first, so each one's diff is taken
	// against the version before it even when both are in this publication.
	pkgs := make([]publication.Package, len(p.Packages))
	copy(pkgs, p.Packages)
	sort.SliceStable(pkgs, func(i, j int) bool {
		a, b := pkgs[i].Package, pkgs[j].Package
		if a.Registry != b.Registry {
			return a.Registry < b.Registry
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return compareVersions(a.Version, b.Version) < 0
	})
	atts, err := attestationsOf(p)
	if err != nil {
		return err
	}
	ids := map[string]int64{}
	for i, pk := range pkgs {
		id, err := loadPackage(ctx, q, h, pk)
		if err != nil {
			return fmt.Errorf("package %s: %w", pk.Package.Key(), err)
		}
		ids[pk.Package.Key()] = id
		if env, ok := atts[pk.Package.Key()]; ok {
			if err := loadAttestation(ctx, q, id, env); err != nil {
				return fmt.Errorf("package %s: %w", pk.Package.Key(), err)
			}
		}
		if i == len(pkgs)/2 {
			if err := hook("packages-half"); err != nil {
				return err
			}
		}
	}
	for _, f := range p.Findings {
		if !publicStatuses[f.Status] {
			continue
		}
		if err := loadFinding(ctx, q, h, ids[f.Package.Key()], f); err != nil {
			return fmt.Errorf("finding %s: %w", f.ID, err)
		}
	}
	return hook("end")
}

func loadPackage(ctx context.Context, q *dbq.Queries, h publication.Header, pk publication.Package) (int64, error) {
	row, err := json.Marshal(pk)
	if err != nil {
		return 0, err
	}
	sum := sha256.Sum256(row)
	surface := []byte("{}")
	if pk.MCPSurface != nil {
		if surface, err = json.Marshal(pk.MCPSurface); err != nil {
			return 0, err
		}
	}
	var delegatesTo []byte
	if pk.DelegatesTo != nil {
		if delegatesTo, err = json.Marshal(pk.DelegatesTo); err != nil {
			return 0, err
		}
	}
	from := pk.DelegatedFrom
	if from == nil {
		from = []rundir.PackageRef{}
	}
	delegatedFrom, err := json.Marshal(from)
	if err != nil {
		return 0, err
	}
	blocked := pk.BlockedBy
	if blocked == nil {
		blocked = []string{}
	}
	notAssessed := pk.NotAssessed
	if notAssessed == nil {
		notAssessed = []string{}
	}
	blockingDoc, err := json.Marshal(publicReasons(pk.Blocking))
	if err != nil {
		return 0, err
	}
	st := pk.Stamps
	id, err := q.PackageVersionInsert(ctx, dbq.PackageVersionInsertParams{
		PublicationID: h.ID, Registry: pk.Package.Registry, Name: pk.Package.Name, Version: pk.Package.Version,
		ArtifactSha256: pk.ArtifactSHA256, Verdict: pk.Verdict, Grade: strPtr(pk.Grade), BlockedBy: blocked,
		SurfaceOutcome: pk.SurfaceOutcome, ManifestHash: strPtr(pk.ManifestHash), ManifestReason: strPtr(pk.ManifestReason),
		ExtractorVersion:   firstString(st.ExtractorVersion, h.Decided.ExtractorVersion),
		MethodologyVersion: firstString(st.MethodologyVersion, h.MethodologyVersion),
		MethodologySha256:  firstString(st.MethodologySHA256, h.MethodologySHA256),
		DecidedAt:          ts(firstTime(st.DecidedAt, h.Decided.DecidedAt, h.PublishedAt)),
		PublishedAt:        ts(h.PublishedAt), McpSurface: surface, DelegatesTo: delegatesTo, DelegatedFrom: delegatedFrom,
		CapabilitiesOmitted: int32(pk.CapabilitiesOmitted), RowSha256: hex.EncodeToString(sum[:]), Row: row,
		NotAssessed: notAssessed, Reason: strPtr(pk.Reason), Blocking: blockingDoc,
		Demo: h.Demo, DisclosurePeriodOverridden: clockOverridden(h),
	})
	if err != nil {
		return 0, err
	}
	tools := make([]toolRow, 0, len(pk.Tools))
	for i, t := range pk.Tools {
		if err := q.ToolInsert(ctx, dbq.ToolInsertParams{
			PackageVersionID: id, Position: int32(i), Name: t.Name, DescriptionState: t.DescriptionState,
			DescriptionRaw: t.DescriptionRaw, SchemaKind: t.SchemaKind, SchemaRaw: t.SchemaRaw,
			ToolHash: strPtr(t.ToolHash), HashReason: strPtr(t.Reason),
		}); err != nil {
			return 0, fmt.Errorf("tool %s: %w", t.Name, err)
		}
		tools = append(tools, toolRow{Name: t.Name, Description: t.DescriptionRaw, SchemaKind: t.SchemaKind, SchemaRaw: t.SchemaRaw, Hash: strPtr(t.ToolHash)})
	}
	caps := make([]api.Capability, 0, len(pk.Capabilities))
	for i, c := range pk.Capabilities {
		if err := q.CapabilityInsert(ctx, dbq.CapabilityInsertParams{
			PackageVersionID: id, Position: int32(i), Kind: c.Kind, Tag: c.Tag, Target: c.Target, File: c.File,
			Line: int32(c.Line), FileSha256: c.FileSHA256, Excerpt: c.Excerpt, Count: int32(c.Count), Bundle: c.Bundle,
			Verification: c.Verification,
		}); err != nil {
			return 0, fmt.Errorf("capability %d: %w", i, err)
		}
		caps = append(caps, api.Capability{Kind: c.Kind, Tag: c.Tag, Target: c.Target, File: c.File, Line: c.Line,
			FileSHA256: c.FileSHA256, Excerpt: c.Excerpt, Count: c.Count, Bundle: c.Bundle, Verification: c.Verification})
	}
	if err := recordVersionDiff(ctx, q, h.ID, pk, pk.Package.Version, strPtr(pk.ManifestHash), tools, caps); err != nil {
		return 0, err
	}
	if err := recordChanges(ctx, q, h, pk); err != nil {
		return 0, err
	}
	if err := q.CurrentVersionUpsert(ctx, dbq.CurrentVersionUpsertParams{
		Registry: pk.Package.Registry, Name: pk.Package.Name, Version: pk.Package.Version, PackageVersionID: id,
	}); err != nil {
		return 0, fmt.Errorf("current version: %w", err)
	}
	return id, nil
}

// recordVersionDiff stores what changed between the package's previous
// published version (the highest version below this one that is current)
// and this one, when anything did.
func recordVersionDiff(ctx context.Context, q *dbq.Queries, pubID string, pk publication.Package, version string, manifestHash *string, tools []toolRow, caps []api.Capability) error {
	cur, err := q.CurrentVersionListForPackage(ctx, dbq.CurrentVersionListForPackageParams{Registry: pk.Package.Registry, Name: pk.Package.Name})
	if err != nil {
		return fmt.Errorf("versions of %s: %w", pk.Package.Name, err)
	}
	var prev *dbq.CurrentVersionListForPackageRow
	for i := range cur {
		c := &cur[i]
		if compareVersions(c.Version, version) >= 0 {
			continue
		}
		if prev == nil || compareVersions(c.Version, prev.Version) > 0 {
			prev = c
		}
	}
	if prev == nil {
		return nil
	}
	fromTools, fromCaps, err := toolsAndCaps(ctx, q, prev.ID)
	if err != nil {
		return err
	}
	d := diffVersions(pk.Package.Registry, pk.Package.Name, prev.Version, version, prev.ManifestHash, manifestHash, fromTools, tools, fromCaps, caps)
	if d.Empty() {
		return nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	if err := q.VersionDiffInsert(ctx, dbq.VersionDiffInsertParams{
		Registry: pk.Package.Registry, Name: pk.Package.Name, FromVersion: prev.Version, ToVersion: version,
		PublicationID: pubID, Diff: b,
	}); err != nil {
		return fmt.Errorf("version diff %s→%s: %w", prev.Version, version, err)
	}
	return nil
}

func loadFinding(ctx context.Context, q *dbq.Queries, h publication.Header, pvID int64, f publication.Finding) error {
	pubID := h.ID
	row, err := json.Marshal(f)
	if err != nil {
		return err
	}
	sev := firstString(f.SeverityDecided, f.SeverityAssigned)
	if err := q.FindingInsert(ctx, dbq.FindingInsertParams{
		ID: f.ID, PublicationID: pubID, PackageVersionID: pvID, CheckID: f.Check, Tag: f.Tag,
		SeverityAssigned: f.SeverityAssigned, SeverityDecided: sev, Status: f.Status, Rule: f.Rule,
		SurfaceKind: strPtr(f.SurfaceKind), EntryName: strPtr(f.EntryName), EvidenceSha256: findingBlob(f),
		EvidencePath: f.Evidence.Path, LineStart: int32(f.Evidence.LineStart), LineEnd: int32(f.Evidence.LineEnd),
		Excerpt: f.Evidence.Excerpt, ExcerptSha256: f.ExcerptSHA256, Row: row,
	}); err != nil {
		return err
	}
	for _, a := range f.Appeals {
		var resolved pgtype.Timestamptz
		if a.ResolvedAt != nil {
			resolved = ts(*a.ResolvedAt)
		}
		if err := recordAppealChange(ctx, q, h, f, a); err != nil {
			return fmt.Errorf("appeal %s: %w", a.ID, err)
		}
		if err := q.AppealStatusInsert(ctx, dbq.AppealStatusInsertParams{
			AppealID: a.ID, FindingID: f.ID, PublicationID: pubID, Status: a.Status, FiledAt: ts(a.FiledAt), ResolvedAt: resolved,
		}); err != nil {
			return fmt.Errorf("appeal %s: %w", a.ID, err)
		}
	}
	return nil
}

// contractSHA256 names the publish contract the publication was written
// under: the SHA-256 of its schema string, since the header carries no more.
// clockOverridden: the publication was made with an injected clock. Every
// demo publication was, including those whose header predates the field.
func clockOverridden(h publication.Header) bool { return h.Demo || h.DisclosurePeriodOverridden }

func contractSHA256(h publication.Header) string {
	sum := sha256.Sum256([]byte(firstString(h.Schema, publication.Schema)))
	return hex.EncodeToString(sum[:])
}

func jsonOrNil(b json.RawMessage) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

func firstString(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

func firstTime(ts ...time.Time) time.Time {
	for _, t := range ts {
		if !t.IsZero() {
			return t
		}
	}
	return time.Time{}
}
