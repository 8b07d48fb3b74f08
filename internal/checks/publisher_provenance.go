package checks

// publisher_provenance (docs/methodology.md §5.6, docs/provenance.md): what
// ties this artifact to a person or organisation? It reads the registry's
// records of the package (npm packument, version document, attestations;
// PyPI JSON, simple index, PEP 740 provenance) and the repository host's
// records (repository, owner account, latest commit), all as stored blobs,
// and concludes a set of independent tags, each one finding. It fetches
// nothing and decides no grade: severities follow D6 (one tag low, two or
// more high) and the policy then applies D6 and D5.
//
// A field the registry did not serve is an input recorded as not served,
// never a fact about the publisher: a mirror that strips maintainers,
// _npmUser or dist.attestations yields "not established", not
// anonymous_publisher or no_build_attestation.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/sigstore"
	"github.com/attestari/attestari/internal/vocab"
)

// The provenance tags, each defined in docs/provenance.md.
const (
	TagNoBuildAttestation        = "no_build_attestation"
	TagAttestationInvalid        = "attestation_invalid"
	TagAttestationRepoMismatch   = "attestation_repository_mismatch"
	TagRepositoryMissing         = "repository_missing"
	TagRepositoryUnreachable     = "repository_unreachable"
	TagAnonymousPublisher        = "anonymous_publisher"
	TagAccountYoungerThanPackage = "account_younger_than_package"
	TagUnsignedLatestCommit      = "unsigned_latest_commit"
	TagMaintainerSetChanged      = "maintainer_set_changed"
)

// ProvenanceTags lists every tag in the order results report them.
var ProvenanceTags = []string{
	TagNoBuildAttestation, TagAttestationInvalid, TagAttestationRepoMismatch,
	TagRepositoryMissing, TagRepositoryUnreachable, TagAnonymousPublisher,
	TagAccountYoungerThanPackage, TagUnsignedLatestCommit, TagMaintainerSetChanged,
}

// StoredRecord is one row of records.json with its blob's bytes (nil when
// no body was stored).
type StoredRecord struct {
	Record rundir.Record
	Body   []byte

	// tree holds the values of Body the check has decoded (lookup), so
	// each is decoded once per package; built on the first lookup.
	tree *pointerTree
}

// LoadRecords pairs records with their blobs through get (the evidence
// store's verified read). A record without a blob gets a nil Body; a blob
// that cannot be read is an error, because the check would otherwise read
// an absence into a record that exists.
func LoadRecords(ctx context.Context, recs []rundir.Record, get func(ctx context.Context, sha string) ([]byte, error)) ([]StoredRecord, error) {
	out := make([]StoredRecord, 0, len(recs))
	for _, r := range recs {
		sr := StoredRecord{Record: r}
		if r.SHA256 != "" {
			b, err := get(ctx, r.SHA256)
			if err != nil {
				return nil, fmt.Errorf("checks.LoadRecords: %s %s: %w", r.Kind, r.SHA256, err)
			}
			sr.Body = b
		}
		out = append(out, sr)
	}
	return out, nil
}

// AttestationVerifier verifies one Sigstore bundle for an artifact's
// sha512. *sigstore.Verifier satisfies it.
type AttestationVerifier interface {
	VerifyBundle(bundleJSON []byte, artifactSHA512 []byte) (*sigstore.Verified, error)
}

// RepositoryResolver says which repositories the configured host serves
// (filling a shorthand's host). *repohost.Client satisfies it.
type RepositoryResolver interface {
	Resolve(r repohost.Ref) (repohost.Ref, bool)
}

// ProvenanceInput is what the check reads about one package.
type ProvenanceInput struct {
	Package rundir.PackageRef
	// Records are the package's registry and repository-host records with
	// their bytes.
	Records []StoredRecord
	// ArtifactSHA256 and ArtifactSHA512 (hex) are the digests of the
	// artifact examined; SHA512 is what a provenance subject must carry.
	ArtifactSHA256 string
	ArtifactSHA512 string
	// Verifier checks attestation bundles; nil records every attestation
	// as present and not verified.
	Verifier AttestationVerifier
	// Repositories is the configured repository host; nil means none was
	// configured, and the host's inputs are recorded as not looked up.
	Repositories RepositoryResolver
}

// TagOutcome is one tag's conclusion: applied (with its finding's
// evidence) or not, and why in either case.
type TagOutcome struct {
	Tag      string           `json:"tag"`
	Applied  bool             `json:"applied"`
	Why      string           `json:"why"`
	Evidence *rundir.Evidence `json:"evidence,omitempty"`
	// Established is false when the inputs did not allow a conclusion
	// either way (not served, not fetched, not verifiable).
	Established bool `json:"established"`
}

// InputState is how one input reached the check.
type InputState struct {
	Input string `json:"input"`
	State string `json:"state"` // served, not_served, not_found, unavailable, not_fetched, not_applicable
	Why   string `json:"why,omitempty"`
}

// Input states.
const (
	InputServed        = "served"
	InputNotServed     = "not_served"
	InputNotFound      = "not_found"
	InputUnavailable   = "unavailable"
	InputNotFetched    = "not_fetched"
	InputNotApplicable = "not_applicable"
)

// ProvenanceAssessment is the check's whole reasoning for one package.
type ProvenanceAssessment struct {
	Inputs []InputState `json:"inputs"`
	Tags   []TagOutcome `json:"tags"`
	// TrustedRootSHA256 is the trusted root attestations were verified
	// against, when a verifier that names it was used.
	TrustedRootSHA256 string `json:"trusted_root_sha256,omitempty"`
}

// Applied lists the applied tags, in ProvenanceTags order.
func (a *ProvenanceAssessment) Applied() []string {
	var out []string
	for _, t := range a.Tags {
		if t.Applied {
			out = append(out, t.Tag)
		}
	}
	return out
}

// RunProvenance runs the check: the result row (outcome "ran", the
// assessment summarised in Detail and Counts) and one finding per applied
// tag. It never fails: every missing or unreadable input is recorded.
func RunProvenance(ctx context.Context, in ProvenanceInput) (rundir.Result, []rundir.Finding) {
	a := AssessProvenance(ctx, in)
	applied := a.Applied()
	sev := vocab.SeverityLow
	if len(applied) >= 2 {
		sev = vocab.SeverityHigh
	}
	var findings []rundir.Finding
	for _, t := range a.Tags {
		if !t.Applied || t.Evidence == nil {
			continue
		}
		findings = append(findings, rundir.Finding{
			ID:       "prov-" + vocab.SHA256Hex([]byte(in.Package.Key() + "\x00" + vocab.CheckProvenance + "\x00" + t.Tag))[:16],
			Package:  in.Package,
			Check:    vocab.CheckProvenance,
			Tag:      t.Tag,
			Severity: sev,
			Title:    t.Why,
			Evidence: *t.Evidence,
		})
	}
	res := rundir.Result{Package: in.Package, Check: vocab.CheckProvenance, Outcome: vocab.ResultRan,
		Detail: a.Summary(), Counts: map[string]int{"tags_applied": len(applied)}}
	notEst, notServed := 0, 0
	for _, t := range a.Tags {
		if !t.Established {
			notEst++
		}
	}
	for _, s := range a.Inputs {
		if s.State != InputServed && s.State != InputNotApplicable {
			notServed++
		}
	}
	res.Counts["tags_not_established"] = notEst
	res.Counts["inputs_missing"] = notServed
	return res, findings
}

// Summary renders the assessment as one stable line per input and tag.
func (a *ProvenanceAssessment) Summary() string {
	var b strings.Builder
	for _, s := range a.Inputs {
		fmt.Fprintf(&b, "input %s: %s", s.Input, s.State)
		if s.Why != "" {
			b.WriteString(" (" + s.Why + ")")
		}
		b.WriteByte('\n')
	}
	for _, t := range a.Tags {
		state := "not applied"
		switch {
		case t.Applied:
			state = "applied"
		case !t.Established:
			state = "not established"
		}
		fmt.Fprintf(&b, "tag %s: %s: %s\n", t.Tag, state, t.Why)
	}
	if a.TrustedRootSHA256 != "" {
		fmt.Fprintf(&b, "trusted root sha256 %s\n", a.TrustedRootSHA256)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// --- assessment -----------------------------------------------------------

type provCtx struct {
	ctx context.Context
	in  ProvenanceInput
	a   *ProvenanceAssessment
	out map[string]TagOutcome

	// declared repository (shared by the registry paths)
	repoEv       *rundir.Evidence // the declaring member, when present
	repoRef      *repohost.Ref
	firstRelease time.Time
	firstWhere   string
}

func (p *provCtx) input(name, state, why string) {
	p.a.Inputs = append(p.a.Inputs, InputState{Input: name, State: state, Why: why})
}

func (p *provCtx) set(t TagOutcome) { p.out[t.Tag] = t }

func applied(tag string, ev *rundir.Evidence, why string) TagOutcome {
	return TagOutcome{Tag: tag, Applied: true, Established: true, Why: why, Evidence: ev}
}

func notApplied(tag, why string) TagOutcome {
	return TagOutcome{Tag: tag, Established: true, Why: why}
}

func notEstablished(tag, why string) TagOutcome {
	return TagOutcome{Tag: tag, Why: why}
}

// cite makes the evidence of a member of a stored record: its blob, its
// JSON pointer, and its exact bytes. ok is false when the member is not in
// the blob (then nothing can be cited).
func cite(r *StoredRecord, ptr string) (*rundir.Evidence, bool) {
	if r == nil || r.Body == nil || r.Record.SHA256 == "" {
		return nil, false
	}
	raw, ok := r.lookup(ptr)
	if !ok || len(raw) == 0 {
		return nil, false
	}
	return &rundir.Evidence{SHA256: r.Record.SHA256, Path: ptr, Excerpt: string(raw)}, true
}

// find returns the last record of a kind (the latest fetch), or nil.
func find(recs []StoredRecord, kind string) *StoredRecord {
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Record.Kind == kind {
			return &recs[i]
		}
	}
	return nil
}

func recordState(r *StoredRecord) (string, string) {
	switch {
	case r == nil:
		return InputNotFetched, "no record"
	case r.Record.Outcome == vocab.RecordOK || r.Record.Outcome == vocab.RecordOKSHA1Only:
		if r.Body == nil {
			return InputUnavailable, "record has no stored body"
		}
		return InputServed, ""
	case r.Record.Outcome == vocab.RecordNotFound:
		return InputNotFound, fmt.Sprintf("HTTP %d", r.Record.Status)
	default:
		why := r.Record.Outcome
		if r.Record.Status != 0 {
			why += fmt.Sprintf(", HTTP %d", r.Record.Status)
		}
		return InputUnavailable, why
	}
}

// AssessProvenance concludes every tag for one package.
func AssessProvenance(ctx context.Context, in ProvenanceInput) *ProvenanceAssessment {
	p := &provCtx{ctx: ctx, in: in, a: &ProvenanceAssessment{}, out: map[string]TagOutcome{}}
	if v, ok := in.Verifier.(interface{ TrustedRootSHA256() string }); ok && in.Verifier != nil {
		p.a.TrustedRootSHA256 = v.TrustedRootSHA256()
	}
	switch in.Package.Registry {
	case vocab.RegistryNPM:
		p.npm()
	case vocab.RegistryPyPI:
		p.pypi()
	default:
		for _, t := range ProvenanceTags {
			p.set(notEstablished(t, fmt.Sprintf("registry %q is not one this check reads", in.Package.Registry)))
		}
	}
	p.repositoryHost()
	for _, t := range ProvenanceTags {
		o, ok := p.out[t]
		if !ok {
			o = notEstablished(t, "no input this check reads applies")
		}
		p.a.Tags = append(p.a.Tags, o)
	}
	return p.a
}

// --- npm ------------------------------------------------------------------

// npmVersionDoc locates the examined version's object: the version
// document when it was served, else the packument's versions member.
func (p *provCtx) npmVersionDoc(pack, ver *StoredRecord) (*StoredRecord, string, bool) {
	if st, _ := recordState(ver); st == InputServed {
		if raw, ok := ver.lookup(""); ok && firstByte(raw) == '{' {
			return ver, "", true
		}
	}
	if st, _ := recordState(pack); st == InputServed {
		prefix := Pointer("versions", p.in.Package.Version)
		if raw, ok := pack.lookup(prefix); ok && firstByte(raw) == '{' {
			return pack, prefix, true
		}
	}
	return nil, "", false
}

// identify cites the member that names the object at prefix, for tags
// about a member that object lacks: the absence itself has no bytes, and
// the whole object carries personal data (maintainers' addresses) that
// could not be published.
func identify(r *StoredRecord, prefix string) (*rundir.Evidence, bool) {
	for _, m := range []string{"version", "name", "_id", "dist"} {
		if ev, ok := cite(r, prefix+"/"+m); ok {
			return ev, true
		}
	}
	return nil, false
}

func (p *provCtx) npm() {
	pack, ver := find(p.in.Records, vocab.KindNPMPackument), find(p.in.Records, vocab.KindNPMVersion)
	for _, r := range []struct {
		name string
		rec  *StoredRecord
	}{{"npm_packument", pack}, {"npm_version", ver}} {
		st, why := recordState(r.rec)
		p.input(r.name, st, why)
	}
	doc, prefix, ok := p.npmVersionDoc(pack, ver)
	if !ok {
		for _, t := range []string{TagRepositoryMissing, TagAnonymousPublisher, TagMaintainerSetChanged, TagNoBuildAttestation, TagAttestationInvalid, TagAttestationRepoMismatch} {
			p.set(notEstablished(t, "the registry served no record of this version"))
		}
		return
	}
	p.npmRepository(doc, prefix)
	p.npmPublisher(pack, doc, prefix)
	p.npmMaintainers(pack)
	p.npmFirstRelease(pack)
	p.npmAttestations(doc, prefix)
}

// declaredRepository reads a repository member (string or {url}) at ptr.
func (p *provCtx) declaredRepository(r *StoredRecord, ptr string, identifyPrefix string, where string) {
	raw, present := r.lookup(ptr)
	if !present || isNull(raw) {
		ev, ok := identify(r, identifyPrefix)
		p.input("repository_declared", InputServed, where+" has no repository member")
		if !ok {
			p.set(notEstablished(TagRepositoryMissing, where+" has no repository member, and no member of it can be cited"))
			return
		}
		p.set(applied(TagRepositoryMissing, ev, fmt.Sprintf("%s (%s) declares no repository", where, pointerOrRoot(identifyPrefix))))
		return
	}
	var s string
	var obj struct {
		URL any `json:"url"`
	}
	citePtr := ptr
	if json.Unmarshal(raw, &s) != nil {
		if json.Unmarshal(raw, &obj) == nil {
			s, _ = obj.URL.(string)
			if _, ok := r.lookup(ptr + "/url"); ok {
				citePtr = ptr + "/url"
			}
		}
	}
	ev, _ := cite(r, citePtr)
	ref, err := repohost.ParseRepositoryURL(s)
	if err != nil {
		p.input("repository_declared", InputServed, "names no repository")
		if ev == nil {
			p.set(notEstablished(TagRepositoryMissing, "the declared repository names no repository, and it cannot be cited"))
			return
		}
		p.set(applied(TagRepositoryMissing, ev, fmt.Sprintf("%s declares a repository (%s) that names no repository: %q", where, citePtr, s)))
		return
	}
	p.input("repository_declared", InputServed, ref.String())
	p.set(notApplied(TagRepositoryMissing, "declares "+ref.String()))
	p.repoEv, p.repoRef = ev, &ref
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "the document root"
	}
	return p
}

func (p *provCtx) npmRepository(doc *StoredRecord, prefix string) {
	p.declaredRepository(doc, prefix+"/repository", prefix, "the registry record of version "+p.in.Package.Version)
}

// personName reads a person member (object with name, or "Name <email>"
// string) and returns its account name and the pointer to cite for it.
func personName(r *StoredRecord, ptr string) (name, citePtr string) {
	raw, ok := r.lookup(ptr)
	if !ok || isNull(raw) {
		return "", ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		n := strings.TrimSpace(s)
		if i := strings.IndexAny(n, "<("); i >= 0 {
			n = strings.TrimSpace(n[:i])
		}
		return n, ptr
	}
	var o struct {
		Name any `json:"name"`
	}
	if json.Unmarshal(raw, &o) == nil {
		n, _ := o.Name.(string)
		if _, ok := r.lookup(ptr + "/name"); ok {
			return strings.TrimSpace(n), ptr + "/name"
		}
		return strings.TrimSpace(n), ptr
	}
	return "", ptr
}

// people reads a list of persons at ptr: their names and the pointer of
// each name. served is false when the member is absent.
func people(r *StoredRecord, ptr string) (names, ptrs []string, served bool) {
	raw, ok := r.lookup(ptr)
	if !ok || isNull(raw) {
		return nil, nil, false
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		n, cp := personName(r, ptr)
		return []string{n}, []string{cp}, true
	}
	for i := range list {
		n, cp := personName(r, fmt.Sprintf("%s/%d", ptr, i))
		names, ptrs = append(names, n), append(ptrs, cp)
	}
	return names, ptrs, true
}

func (p *provCtx) npmPublisher(pack, doc *StoredRecord, prefix string) {
	type served struct {
		what string
		ptr  string
		r    *StoredRecord
		name string
	}
	var got []served
	if raw, ok := doc.lookup(prefix + "/_npmUser"); ok && !isNull(raw) {
		n, cp := personName(doc, prefix+"/_npmUser")
		got = append(got, served{"_npmUser", cp, doc, n})
		p.input("publisher", InputServed, "")
	} else {
		p.input("publisher", InputNotServed, "the version's record has no _npmUser member")
	}
	maintainerSources := []struct {
		r   *StoredRecord
		ptr string
	}{{doc, prefix + "/maintainers"}}
	if st, _ := recordState(pack); st == InputServed {
		maintainerSources = append(maintainerSources, struct {
			r   *StoredRecord
			ptr string
		}{pack, "/maintainers"})
	}
	mServed := false
	for _, src := range maintainerSources {
		names, _, ok := people(src.r, src.ptr)
		if !ok {
			continue
		}
		mServed = true
		joined := ""
		for _, n := range names {
			if n != "" {
				joined = n
				break
			}
		}
		got = append(got, served{"maintainers", src.ptr, src.r, joined})
	}
	if mServed {
		p.input("maintainers", InputServed, "")
	} else {
		p.input("maintainers", InputNotServed, "neither the version's record nor the packument has a maintainers member")
	}
	if len(got) == 0 {
		p.set(notEstablished(TagAnonymousPublisher, "not served by the registry: no _npmUser and no maintainers member"))
		return
	}
	for _, g := range got {
		if g.name != "" {
			p.set(notApplied(TagAnonymousPublisher, fmt.Sprintf("%s (%s) names an account", g.what, g.ptr)))
			return
		}
	}
	ev, ok := cite(got[0].r, got[0].ptr)
	if !ok {
		p.set(notEstablished(TagAnonymousPublisher, "the empty publisher member cannot be cited"))
		return
	}
	p.set(applied(TagAnonymousPublisher, ev, fmt.Sprintf("the registry serves %s (%s) and it names no account", got[0].what, got[0].ptr)))
}

// npmMaintainers: did the set of maintainer accounts change between two
// consecutive versions published up to the examined one?
func (p *provCtx) npmMaintainers(pack *StoredRecord) {
	if st, _ := recordState(pack); st != InputServed {
		p.set(notEstablished(TagMaintainerSetChanged, "the packument was not served"))
		return
	}
	times := packumentTimes(pack)
	self, ok := times[p.in.Package.Version]
	if !ok {
		p.set(notEstablished(TagMaintainerSetChanged, "the packument's time member does not date this version"))
		return
	}
	type vset struct {
		v     string
		t     time.Time
		names []string
		ptrs  []string
	}
	var seq []vset
	for v, t := range times {
		if v == "created" || v == "modified" || t.After(self) {
			continue
		}
		names, ptrs, served := people(pack, Pointer("versions", v, "maintainers"))
		if !served {
			continue
		}
		seq = append(seq, vset{v, t, names, ptrs})
	}
	sort.Slice(seq, func(i, j int) bool {
		if !seq[i].t.Equal(seq[j].t) {
			return seq[i].t.Before(seq[j].t)
		}
		return seq[i].v < seq[j].v
	})
	if len(seq) < 2 {
		p.set(notEstablished(TagMaintainerSetChanged, fmt.Sprintf("not served by the registry: %d version(s) up to this one record maintainers, two are needed", len(seq))))
		return
	}
	for i := len(seq) - 1; i >= 1; i-- {
		prev, cur := seq[i-1], seq[i]
		pset, cset := set(prev.names), set(cur.names)
		for j, n := range cur.names {
			if !pset[strings.ToLower(n)] {
				if ev, ok := cite(pack, cur.ptrs[j]); ok {
					p.set(applied(TagMaintainerSetChanged, ev, fmt.Sprintf("maintainer %q of version %s is not among the maintainers of version %s", n, cur.v, prev.v)))
					return
				}
			}
		}
		for j, n := range prev.names {
			if !cset[strings.ToLower(n)] {
				if ev, ok := cite(pack, prev.ptrs[j]); ok {
					p.set(applied(TagMaintainerSetChanged, ev, fmt.Sprintf("maintainer %q of version %s is not among the maintainers of version %s", n, prev.v, cur.v)))
					return
				}
			}
		}
	}
	p.set(notApplied(TagMaintainerSetChanged, fmt.Sprintf("the same maintainers across the %d versions up to this one", len(seq))))
}

func set(names []string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[strings.ToLower(n)] = true
	}
	return m
}

func packumentTimes(pack *StoredRecord) map[string]time.Time {
	out := map[string]time.Time{}
	raw, ok := pack.lookup("/time")
	if !ok {
		return out
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return out
	}
	for k, v := range m {
		s, _ := v.(string)
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			out[k] = t.UTC()
		}
	}
	return out
}

// npmFirstRelease: the package's first release, for the account-age rule:
// time.created, else the earliest version time.
func (p *provCtx) npmFirstRelease(pack *StoredRecord) {
	if st, _ := recordState(pack); st != InputServed {
		return
	}
	times := packumentTimes(pack)
	if t, ok := times["created"]; ok {
		p.firstRelease, p.firstWhere = t, "/time/created"
		return
	}
	for k, t := range times {
		if k == "modified" {
			continue
		}
		if p.firstRelease.IsZero() || t.Before(p.firstRelease) {
			p.firstRelease, p.firstWhere = t, Pointer("time", k)
		}
	}
}

func (p *provCtx) npmAttestations(doc *StoredRecord, prefix string) {
	att := find(p.in.Records, vocab.KindNPMAttestations)
	attState, attWhy := recordState(att)
	p.input("attestations", attState, attWhy)
	_, distHasAtt := doc.lookup(prefix + "/dist/attestations")
	_, distHasSig := doc.lookup(prefix + "/dist/signatures")

	switch attState {
	case InputServed:
		p.npmVerifyAttestations(att)
	case InputNotFound:
		p.set(notEstablished(TagAttestationInvalid, "no attestation was served"))
		p.set(notEstablished(TagAttestationRepoMismatch, "no attestation was served"))
		switch {
		case distHasAtt:
			p.set(notEstablished(TagNoBuildAttestation, "the version's record names attestations (dist.attestations) that the attestations endpoint did not serve"))
		case distHasSig:
			ev, ok := cite(doc, prefix+"/dist")
			if !ok {
				p.set(notEstablished(TagNoBuildAttestation, "the version's dist member cannot be cited"))
				return
			}
			p.set(applied(TagNoBuildAttestation, ev, fmt.Sprintf("no build attestation: the registry serves signing metadata for this version (%s/dist/signatures) and no dist.attestations, and its attestations endpoint answered 404", prefix)))
		default:
			p.set(notEstablished(TagNoBuildAttestation, "not served by the registry: the version's dist carries neither attestations nor signatures, and the attestations endpoint answered 404, as a registry that does not serve attestations does for every package"))
		}
	default:
		why := "the attestations endpoint was not asked"
		if attState == InputUnavailable {
			why = "the attestations endpoint did not answer (" + attWhy + ")"
		}
		if distHasAtt {
			why += "; the version's record names attestations (dist.attestations)"
		}
		for _, t := range []string{TagNoBuildAttestation, TagAttestationInvalid, TagAttestationRepoMismatch} {
			p.set(notEstablished(t, why))
		}
	}
}

func (p *provCtx) npmVerifyAttestations(att *StoredRecord) {
	raw, ok := att.lookup("/attestations")
	var list []struct {
		PredicateType string          `json:"predicateType"`
		Bundle        json.RawMessage `json:"bundle"`
	}
	if !ok || json.Unmarshal(raw, &list) != nil {
		for _, t := range []string{TagNoBuildAttestation, TagAttestationInvalid, TagAttestationRepoMismatch} {
			p.set(notEstablished(t, "the attestations document has no attestations list"))
		}
		return
	}
	var prov []int
	var types []string
	for i, a := range list {
		types = append(types, a.PredicateType)
		if sigstore.IsBuildProvenance(a.PredicateType) {
			prov = append(prov, i)
		}
	}
	if len(prov) == 0 {
		ptr := "/attestations"
		if len(list) > 0 {
			ptr = "/attestations/0/predicateType"
		}
		ev, ok := cite(att, ptr)
		if !ok {
			p.set(notEstablished(TagNoBuildAttestation, "the attestations list cannot be cited"))
		} else {
			p.set(applied(TagNoBuildAttestation, ev, fmt.Sprintf("no build attestation: the registry serves %d attestation(s), none a build provenance (predicate types %s)", len(list), strings.Join(types, ", "))))
		}
		p.set(notEstablished(TagAttestationInvalid, "no build provenance attestation to verify"))
		p.set(notEstablished(TagAttestationRepoMismatch, "no build provenance attestation to verify"))
		return
	}
	p.set(notApplied(TagNoBuildAttestation, fmt.Sprintf("the registry serves %d build provenance attestation(s)", len(prov))))
	if p.in.Verifier == nil {
		p.set(notEstablished(TagAttestationInvalid, "present, not verified: no trusted root is configured"))
		p.set(notEstablished(TagAttestationRepoMismatch, "present, not verified: no trusted root is configured"))
		return
	}
	digest, err := hex.DecodeString(p.in.ArtifactSHA512)
	if err != nil || len(digest) != 64 {
		p.set(notEstablished(TagAttestationInvalid, "present, not verified: the sha512 of the examined artifact was not recorded"))
		p.set(notEstablished(TagAttestationRepoMismatch, "present, not verified: the sha512 of the examined artifact was not recorded"))
		return
	}
	var verified []struct {
		i int
		v *sigstore.Verified
	}
	for _, i := range prov {
		v, err := p.in.Verifier.VerifyBundle(list[i].Bundle, digest)
		var ie *sigstore.InvalidError
		if errors.As(err, &ie) {
			base := Pointer("attestations", fmt.Sprint(i), "bundle")
			ptrs := []string{base + ie.Pointer, base + "/dsseEnvelope/signatures", base}
			if ie.Pointer == "" {
				ptrs = ptrs[1:]
			}
			for _, ptr := range ptrs {
				if ev, ok := cite(att, ptr); ok {
					p.set(applied(TagAttestationInvalid, ev, fmt.Sprintf("the build provenance attestation (%s) is present and does not verify: %s", base, ie.Reason)))
					p.set(notEstablished(TagAttestationRepoMismatch, "the attestation does not verify, so its identity is not read (attestation_invalid)"))
					return
				}
			}
			p.set(notEstablished(TagAttestationInvalid, "an attestation does not verify ("+ie.Reason+") and cannot be cited"))
			p.set(notEstablished(TagAttestationRepoMismatch, "an attestation does not verify"))
			return
		}
		if err != nil {
			p.set(notEstablished(TagAttestationInvalid, "present, not verified: "+err.Error()))
			p.set(notEstablished(TagAttestationRepoMismatch, "present, not verified"))
			return
		}
		verified = append(verified, struct {
			i int
			v *sigstore.Verified
		}{i, v})
	}
	p.set(notApplied(TagAttestationInvalid, fmt.Sprintf("%d build provenance attestation(s) verify: signature, certificate chain to the trusted root, log entry, workflow identity, subject sha512 of the examined artifact", len(verified))))
	if p.repoRef == nil {
		p.set(notEstablished(TagAttestationRepoMismatch, "the package declares no repository to compare the attested one with (see repository_missing)"))
		return
	}
	for _, x := range verified {
		att0, err := repohost.ParseRepositoryURL(x.v.SourceRepository)
		if err == nil && p.sameRepository(*p.repoRef, att0) {
			continue
		}
		ptr := Pointer("attestations", fmt.Sprint(x.i), "bundle", "dsseEnvelope", "payload")
		ev, ok := cite(att, ptr)
		if !ok {
			p.set(notEstablished(TagAttestationRepoMismatch, "the mismatching attestation cannot be cited"))
			return
		}
		p.set(applied(TagAttestationRepoMismatch, ev, fmt.Sprintf("the build provenance attestation was signed for repository %q by workflow %q; the package declares %s", x.v.SourceRepository, x.v.Identity.SubjectAlternativeName, p.repoRef)))
		return
	}
	p.set(notApplied(TagAttestationRepoMismatch, "every verified attestation names the declared repository "+p.repoRef.String()))
}

// sameRepository compares a declared ref (possibly a shorthand) with an
// attested one (always a URL).
func (p *provCtx) sameRepository(declared, attested repohost.Ref) bool {
	if declared.Host == "" && p.in.Repositories != nil {
		if r, ok := p.in.Repositories.Resolve(declared); ok {
			declared = r
		}
	}
	if declared.Host == "" {
		// An unresolved shorthand: the owner and name are all it says.
		return strings.EqualFold(declared.Owner, attested.Owner) && strings.EqualFold(declared.Name, attested.Name)
	}
	return repohost.Same(declared, attested)
}

// --- PyPI -----------------------------------------------------------------

// pypiRepositoryKeys are the project_urls labels read as the repository,
// in order; "homepage" counts only when it names a repository on the
// configured host.
var pypiRepositoryKeys = []string{"source", "source code", "repository", "code", "github", "homepage"}

func (p *provCtx) pypi() {
	var rel *StoredRecord
	for i := len(p.in.Records) - 1; i >= 0; i-- {
		r := &p.in.Records[i]
		if r.Record.Kind != vocab.KindPyPIJSON {
			continue
		}
		if st, _ := recordState(r); st == InputServed {
			if v, ok := r.lookup("/info/version"); ok && string(v) == fmt.Sprintf("%q", p.in.Package.Version) {
				rel = r
				break
			}
			if rel == nil {
				rel = r
			}
		}
	}
	st, why := recordState(rel)
	p.input("pypi_json", st, why)
	p.set(notEstablished(TagMaintainerSetChanged, "the index serves no per-release maintainer record"))
	if st != InputServed {
		for _, t := range []string{TagRepositoryMissing, TagAnonymousPublisher} {
			p.set(notEstablished(t, "the index served no JSON record of this release"))
		}
	} else {
		p.pypiRepository(rel)
		p.pypiOwnership(rel)
		p.pypiFirstRelease()
	}
	p.pypiProvenance()
}

func (p *provCtx) pypiRepository(rel *StoredRecord) {
	raw, ok := rel.lookup("/info/project_urls")
	var urls map[string]any
	if ok {
		_ = json.Unmarshal(raw, &urls)
	}
	keys := make([]string, 0, len(urls))
	for k := range urls {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, want := range pypiRepositoryKeys {
		for _, k := range keys {
			if strings.ToLower(strings.TrimSpace(k)) != want {
				continue
			}
			s, _ := urls[k].(string)
			ref, err := repohost.ParseRepositoryURL(s)
			if err != nil || ref.Shorthand != "" {
				continue
			}
			if want == "homepage" {
				if p.in.Repositories == nil {
					continue
				}
				if _, served := p.in.Repositories.Resolve(ref); !served {
					continue
				}
			}
			ev, _ := cite(rel, Pointer("info", "project_urls", k))
			p.input("repository_declared", InputServed, ref.String())
			p.set(notApplied(TagRepositoryMissing, "declares "+ref.String()+" (project_urls "+k+")"))
			p.repoEv, p.repoRef = ev, &ref
			return
		}
	}
	p.input("repository_declared", InputServed, "no project URL names a repository")
	ev, ok := cite(rel, "/info/project_urls")
	if !ok {
		ev, ok = cite(rel, "/info/version")
	}
	if !ok {
		p.set(notEstablished(TagRepositoryMissing, "no project URL names a repository, and nothing can be cited"))
		return
	}
	p.set(applied(TagRepositoryMissing, ev, "the release's metadata (/info/project_urls) names no source repository"))
}

func (p *provCtx) pypiOwnership(rel *StoredRecord) {
	raw, ok := rel.lookup("/ownership")
	if !ok || isNull(raw) {
		p.input("publisher", InputNotServed, "the JSON record has no ownership member")
		p.set(notEstablished(TagAnonymousPublisher, "not served by the index: no ownership member"))
		return
	}
	p.input("publisher", InputServed, "")
	var o struct {
		Organization any `json:"organization"`
		Roles        []struct {
			User any `json:"user"`
		} `json:"roles"`
	}
	_ = json.Unmarshal(raw, &o)
	if s, _ := o.Organization.(string); s != "" {
		p.set(notApplied(TagAnonymousPublisher, "the project belongs to organisation "+s))
		return
	}
	for _, r := range o.Roles {
		if s, _ := r.User.(string); s != "" {
			p.set(notApplied(TagAnonymousPublisher, "the project names account "+s))
			return
		}
	}
	ev, ok := cite(rel, "/ownership")
	if !ok {
		p.set(notEstablished(TagAnonymousPublisher, "the ownership member cannot be cited"))
		return
	}
	p.set(applied(TagAnonymousPublisher, ev, "the index serves the project's ownership (/ownership) and it names no account or organisation"))
}

// pypiFirstRelease reads the earliest upload time of a project record
// (the JSON document without a version, whose releases member lists every
// release).
func (p *provCtx) pypiFirstRelease() {
	for i := range p.in.Records {
		r := &p.in.Records[i]
		if r.Record.Kind != vocab.KindPyPIJSON {
			continue
		}
		if st, _ := recordState(r); st != InputServed {
			continue
		}
		raw, ok := r.lookup("/releases")
		if !ok {
			continue
		}
		var rels map[string][]struct {
			UploadTime string `json:"upload_time_iso_8601"`
			Upload     string `json:"upload_time"`
		}
		if json.Unmarshal(raw, &rels) != nil {
			continue
		}
		for v, files := range rels {
			for j, f := range files {
				for _, s := range []string{f.UploadTime, f.Upload} {
					t, err := time.Parse(time.RFC3339Nano, s)
					if err != nil {
						t, err = time.Parse("2006-01-02T15:04:05", s)
					}
					if err == nil && (p.firstRelease.IsZero() || t.Before(p.firstRelease)) {
						p.firstRelease, p.firstWhere = t.UTC(), Pointer("releases", v, fmt.Sprint(j))
					}
				}
			}
		}
	}
}

func (p *provCtx) pypiProvenance() {
	prov := find(p.in.Records, vocab.KindPyPIProvenance)
	st, why := recordState(prov)
	p.input("attestations", st, why)
	const notImpl = "PEP 740 attestations are recorded as present and are not verified in this version (docs/provenance.md)"
	switch st {
	case InputServed:
		p.set(notApplied(TagNoBuildAttestation, "the index serves PEP 740 provenance for the file"))
		p.set(notEstablished(TagAttestationInvalid, notImpl))
		p.set(notEstablished(TagAttestationRepoMismatch, notImpl))
	case InputNotFound:
		p.set(notEstablished(TagAttestationInvalid, "no attestation was served"))
		p.set(notEstablished(TagAttestationRepoMismatch, "no attestation was served"))
		simple := find(p.in.Records, vocab.KindPyPISimple)
		if s, _ := recordState(simple); s == InputServed {
			if ptr, ok := pypiNullProvenance(simple, prov.Record.URL); ok {
				if ev, ok := cite(simple, ptr); ok {
					p.set(applied(TagNoBuildAttestation, ev, fmt.Sprintf("no build attestation: the simple index lists the file with provenance null (%s) and the integrity endpoint answered 404", ptr)))
					return
				}
			}
		}
		p.set(notEstablished(TagNoBuildAttestation, "not served by the index: the integrity endpoint answered 404 and the simple index does not say the file has no provenance"))
	default:
		for _, t := range []string{TagNoBuildAttestation, TagAttestationInvalid, TagAttestationRepoMismatch} {
			p.set(notEstablished(t, "the provenance endpoint was not asked or did not answer ("+why+")"))
		}
	}
}

// pypiNullProvenance finds, in a PEP 691 simple index, the file the
// provenance URL asked about (".../{filename}/provenance") and returns the
// pointer of its provenance member when that member is present and null.
func pypiNullProvenance(simple *StoredRecord, provURL string) (string, bool) {
	u := strings.TrimSuffix(provURL, "/provenance")
	filename := u[strings.LastIndex(u, "/")+1:]
	raw, ok := simple.lookup("/files")
	var files []struct {
		Filename string `json:"filename"`
	}
	if !ok || json.Unmarshal(raw, &files) != nil || filename == "" {
		return "", false
	}
	for i, f := range files {
		if f.Filename != filename {
			continue
		}
		ptr := Pointer("files", fmt.Sprint(i), "provenance")
		if v, ok := simple.lookup(ptr); ok && isNull(v) {
			return ptr, true
		}
	}
	return "", false
}

// --- the repository host ---------------------------------------------------

func (p *provCtx) repositoryHost() {
	tags := []string{TagRepositoryUnreachable, TagAccountYoungerThanPackage, TagUnsignedLatestCommit}
	notEst := func(why string) {
		for _, t := range tags {
			if _, done := p.out[t]; !done {
				p.set(notEstablished(t, why))
			}
		}
	}
	if p.repoRef == nil {
		p.input("repository", InputNotApplicable, "no repository declared")
		notEst("the package declares no repository")
		return
	}
	if p.in.Repositories == nil {
		p.input("repository", InputNotFetched, "no repository host is configured")
		notEst("no repository host is configured")
		return
	}
	ref, served := p.in.Repositories.Resolve(*p.repoRef)
	if !served {
		p.input("repository", InputNotApplicable, ref.String()+" is on a host this project does not query")
		notEst("the declared repository " + ref.String() + " is on a host this project does not query")
		return
	}
	repo := p.hostRecord(vocab.KindRepository, "/repos/"+ref.Owner+"/"+ref.Name)
	st, why := recordState(repo)
	p.input("repository", st, why)
	switch st {
	case InputServed:
		p.set(notApplied(TagRepositoryUnreachable, "the host serves "+ref.String()))
	case InputNotFound:
		if p.repoEv == nil {
			notEst("the host answered 404 for " + ref.String() + ", and the declaration cannot be cited")
			return
		}
		p.set(applied(TagRepositoryUnreachable, p.repoEv, fmt.Sprintf("the declared repository %s does not exist on its host (HTTP %d at %s)", ref, repo.Record.Status, repo.Record.FetchedAt.Format(time.RFC3339))))
		notEst("the repository does not exist on its host (repository_unreachable)")
		return
	default:
		notEst("the repository host did not answer for " + ref.String() + " (" + why + "): an input recorded as such")
		return
	}

	// The owner's account.
	login := jsonString(repo, "/owner/login")
	owner := p.hostRecord(vocab.KindRepositoryOwner, "/users/"+login)
	ost, owhy := recordState(owner)
	p.input("repository_owner", ost, owhy)
	switch {
	case login == "":
		p.set(notEstablished(TagAccountYoungerThanPackage, "the repository record names no owner"))
	case ost != InputServed:
		p.set(notEstablished(TagAccountYoungerThanPackage, "the owner's account was not served ("+owhy+")"))
	case p.firstRelease.IsZero():
		p.set(notEstablished(TagAccountYoungerThanPackage, "not served by the registry: no release time for the package"))
	default:
		created, err := time.Parse(time.RFC3339, jsonString(owner, "/created_at"))
		switch {
		case err != nil:
			p.set(notEstablished(TagAccountYoungerThanPackage, "the owner's account record has no creation time"))
		case created.After(p.firstRelease):
			ev, ok := cite(owner, "/created_at")
			if !ok {
				p.set(notEstablished(TagAccountYoungerThanPackage, "the account's creation time cannot be cited"))
				break
			}
			p.set(applied(TagAccountYoungerThanPackage, ev, fmt.Sprintf("the account %q owning %s was created %s, after the package's first release %s (registry %s)",
				login, ref, created.UTC().Format(time.RFC3339), p.firstRelease.Format(time.RFC3339), p.firstWhere)))
		default:
			p.set(notApplied(TagAccountYoungerThanPackage, fmt.Sprintf("the account %q was created %s, before the first release %s", login, created.UTC().Format(time.RFC3339), p.firstRelease.Format(time.RFC3339))))
		}
	}

	// The latest commit on the default branch.
	branch := jsonString(repo, "/default_branch")
	commit := p.hostRecord(vocab.KindRepositoryCommit, "/repos/"+ref.Owner+"/"+ref.Name+"/commits/")
	cst, cwhy := recordState(commit)
	p.input("latest_commit", cst, cwhy)
	if cst != InputServed {
		p.set(notEstablished(TagUnsignedLatestCommit, "the latest commit of "+branch+" was not served ("+cwhy+")"))
		return
	}
	vraw, ok := commit.lookup("/commit/verification")
	if !ok || isNull(vraw) {
		p.set(notEstablished(TagUnsignedLatestCommit, "the host's commit record carries no verification member"))
		return
	}
	reasonCode := jsonString(commit, "/commit/verification/reason")
	sig := jsonString(commit, "/commit/verification/signature")
	verifiedRaw, _ := commit.lookup("/commit/verification/verified")
	signed := sig != "" || (reasonCode != "" && reasonCode != "unsigned")
	switch {
	case string(verifiedRaw) == "true":
		p.set(notApplied(TagUnsignedLatestCommit, "the host verifies the signature of the latest commit"))
	case signed:
		p.set(notApplied(TagUnsignedLatestCommit, "the latest commit carries a signature the host does not verify (reason "+reasonCode+")"))
	default:
		ev, _ := cite(commit, "/commit/verification")
		p.set(applied(TagUnsignedLatestCommit, ev, fmt.Sprintf("the latest commit %s on %s of %s carries no signature (host reason %q)", jsonString(commit, "/sha"), branch, ref, reasonCode)))
	}
}

// hostRecord finds the repository host's record of a kind whose URL path
// contains the path named (compared case-insensitively: the host's names
// are case-insensitive).
func (p *provCtx) hostRecord(kind, pathPart string) *StoredRecord {
	want := strings.ToLower(pathPart)
	for i := len(p.in.Records) - 1; i >= 0; i-- {
		r := &p.in.Records[i]
		if r.Record.Kind != kind {
			continue
		}
		u := strings.ToLower(r.Record.URL)
		if strings.HasSuffix(want, "/") && strings.Contains(u, want) || strings.HasSuffix(u, want) {
			return r
		}
	}
	return nil
}

func jsonString(r *StoredRecord, ptr string) string {
	if r == nil {
		return ""
	}
	raw, ok := r.lookup(ptr)
	if !ok {
		return ""
	}
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

// DeclaredRepository returns the repository the package's registry records
// declare, read exactly as the check reads it (npm: the version's
// repository; PyPI: the labelled project URLs), so that the fetch stage
// looks up on the repository host the very repository the check will
// compare. ok is false when none is declared. Repositories, when set,
// lets a PyPI Homepage count as a repository on the configured host.
func DeclaredRepository(ctx context.Context, in ProvenanceInput) (repohost.Ref, bool) {
	p := &provCtx{ctx: ctx, in: in, a: &ProvenanceAssessment{}, out: map[string]TagOutcome{}}
	switch in.Package.Registry {
	case vocab.RegistryNPM:
		pack, ver := find(in.Records, vocab.KindNPMPackument), find(in.Records, vocab.KindNPMVersion)
		if doc, prefix, ok := p.npmVersionDoc(pack, ver); ok {
			p.npmRepository(doc, prefix)
		}
	case vocab.RegistryPyPI:
		p.pypi()
	}
	if p.repoRef == nil {
		return repohost.Ref{}, false
	}
	return *p.repoRef, true
}
