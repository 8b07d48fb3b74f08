package checks

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/repohost/fakehost"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/sigstore"
	"github.com/attestari/attestari/internal/vocab"
	sgdata "github.com/sigstore/sigstore-go/pkg/testing/data"
)

const testWebHost = "code.example"

var pkg = rundir.PackageRef{Registry: "npm", Name: "tool", Version: "1.1.0"}

func rec(kind, url, outcome string, status int, body []byte) StoredRecord {
	r := StoredRecord{Record: rundir.Record{Package: pkg, Kind: kind, URL: url, Status: status, Outcome: outcome,
		FetchedAt: time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)}}
	if body != nil {
		r.Body = body
		r.Record.SHA256 = vocab.SHA256Hex(body)
	}
	return r
}

func okRec(kind string, body string) StoredRecord {
	return rec(kind, "https://registry.example/"+kind, "ok", 200, []byte(body))
}

// fullPackument is what a registry that serves everything sends: per-version
// maintainers and _npmUser, dist.signatures, time.
func fullPackument(repo string, maint0, maint1 string, npmUser string) string {
	repoMember := ""
	if repo != "" {
		repoMember = `"repository": {"type": "git", "url": ` + repo + `},`
	}
	return `{"name": "tool", "dist-tags": {"latest": "1.1.0"},
  "maintainers": [` + maint1 + `],
  "time": {"created": "2025-01-01T00:00:00.000Z", "modified": "2025-03-01T00:00:00.000Z", "1.0.0": "2025-01-01T00:00:00.000Z", "1.1.0": "2025-03-01T00:00:00.000Z"},
  "versions": {
    "1.0.0": {"name": "tool", "version": "1.0.0", ` + repoMember + ` "maintainers": [` + maint0 + `], "_npmUser": ` + npmUser + `,
      "dist": {"integrity": "sha512-AAAA", "tarball": "https://registry.example/tool/-/tool-1.0.0.tgz", "signatures": [{"keyid": "k", "sig": "s"}]}},
    "1.1.0": {"name": "tool", "version": "1.1.0", ` + repoMember + ` "maintainers": [` + maint1 + `], "_npmUser": ` + npmUser + `,
      "dist": {"integrity": "sha512-BBBB", "tarball": "https://registry.example/tool/-/tool-1.1.0.tgz", "signatures": [{"keyid": "k", "sig": "s"}]}}
  }}`
}

// mirrorPackument is what the mirror this project reaches sends: no
// maintainers, no _npmUser, no dist.attestations or dist.signatures.
const mirrorPackument = `{"_id": "tool", "name": "tool", "dist-tags": {"latest": "1.1.0"},
  "time": {"created": "2025-01-01T00:00:00.000Z", "1.0.0": "2025-01-01T00:00:00.000Z", "1.1.0": "2025-03-01T00:00:00.000Z"},
  "versions": {"1.1.0": {"name": "tool", "version": "1.1.0", "repository": {"type": "git", "url": "git+https://code.example/acme/tool.git"},
    "author": {"name": "A", "email": "a@example.org"},
    "dist": {"integrity": "sha512-BBBB", "shasum": "00", "tarball": "https://registry.example/tool/-/tool-1.1.0.tgz"}}}}`

const alice = `{"name": "alice", "email": "alice@example.org"}`
const bob = `{"name": "bob", "email": "bob@example.org"}`

func attNotFound() StoredRecord {
	return rec(vocab.KindNPMAttestations, "https://registry.example/-/npm/v1/attestations/tool@1.1.0", "not_found", 404, nil)
}

func outcome(t *testing.T, a *ProvenanceAssessment, tag string) TagOutcome {
	t.Helper()
	for _, o := range a.Tags {
		if o.Tag == tag {
			return o
		}
	}
	t.Fatalf("no outcome for %s", tag)
	return TagOutcome{}
}

// checkEvidence asserts what G6 and publication rely on: the excerpt is the
// exact bytes of the member the pointer designates, and it occurs in the
// cited blob.
func checkEvidence(t *testing.T, in ProvenanceInput, f rundir.Finding) {
	t.Helper()
	for _, r := range in.Records {
		if r.Record.SHA256 != f.Evidence.SHA256 {
			continue
		}
		raw, ok := LookupPointer(r.Body, f.Evidence.Path)
		if !ok || string(raw) != f.Evidence.Excerpt || f.Evidence.Excerpt == "" || !bytes.Contains(r.Body, []byte(f.Evidence.Excerpt)) {
			t.Fatalf("%s: evidence %+v does not resolve in its blob", f.Tag, f.Evidence)
		}
		if !strings.HasPrefix(f.Evidence.Path, "/") {
			t.Fatalf("%s: path %q is not a JSON pointer", f.Tag, f.Evidence.Path)
		}
		return
	}
	t.Fatalf("%s: evidence cites blob %s, which is no record of the input", f.Tag, f.Evidence.SHA256)
}

func run(t *testing.T, in ProvenanceInput) (*ProvenanceAssessment, rundir.Result, []rundir.Finding) {
	t.Helper()
	a := AssessProvenance(context.Background(), in)
	res, fs := RunProvenance(context.Background(), in)
	if res.Check != vocab.CheckProvenance || res.Outcome != "ran" || res.Package != in.Package {
		t.Fatalf("result %+v", res)
	}
	if len(a.Tags) != len(ProvenanceTags) {
		t.Fatalf("%d tag outcomes", len(a.Tags))
	}
	for _, o := range a.Tags {
		if o.Why == "" {
			t.Errorf("%s has no why", o.Tag)
		}
		if o.Applied && (!o.Established || o.Evidence == nil) {
			t.Errorf("%s applied without evidence", o.Tag)
		}
	}
	for _, f := range fs {
		checkEvidence(t, in, f)
	}
	if len(fs) != len(a.Applied()) {
		t.Fatalf("%d findings for applied %v", len(fs), a.Applied())
	}
	return a, res, fs
}

func TestMirrorWithoutPublisherFieldsIsNotServedNeverAnonymous(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, mirrorPackument), attNotFound()}}
	a, res, fs := run(t, in)
	if len(fs) != 0 {
		t.Fatalf("findings from a mirror that serves no publisher fields: %+v", fs)
	}
	for _, tag := range []string{TagAnonymousPublisher, TagNoBuildAttestation, TagMaintainerSetChanged} {
		o := outcome(t, a, tag)
		if o.Established || !strings.Contains(o.Why, "not served") {
			t.Errorf("%s = %+v", tag, o)
		}
	}
	if o := outcome(t, a, TagRepositoryMissing); o.Applied || !o.Established {
		t.Errorf("repository_missing = %+v", o)
	}
	if !strings.Contains(res.Detail, "input publisher: not_served") || !strings.Contains(res.Detail, "input maintainers: not_served") {
		t.Errorf("detail = %s", res.Detail)
	}
}

func TestRepositoryMissingCitesTheVersion(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument("", alice, alice, alice)), attNotFound()}}
	a, _, fs := run(t, in)
	o := outcome(t, a, TagRepositoryMissing)
	if !o.Applied || o.Evidence.Path != "/versions/1.1.0/version" || o.Evidence.Excerpt != `"1.1.0"` {
		t.Fatalf("repository_missing = %+v", o)
	}
	// Two independent tags (repository_missing, no_build_attestation): D6 high.
	if len(fs) != 2 {
		t.Fatalf("findings %+v", fs)
	}
	for _, f := range fs {
		if f.Severity != "high" || f.Check != vocab.CheckProvenance || !strings.HasPrefix(f.ID, "prov-") {
			t.Errorf("finding %+v", f)
		}
	}
	if o := outcome(t, a, TagRepositoryUnreachable); o.Established {
		t.Errorf("unreachable established without a repository: %+v", o)
	}
}

func TestUnparseableRepositoryIsMissing(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument(`"see website"`, alice, alice, alice)), attNotFound()}}
	a, _, _ := run(t, in)
	o := outcome(t, a, TagRepositoryMissing)
	if !o.Applied || o.Evidence.Path != "/versions/1.1.0/repository/url" || o.Evidence.Excerpt != `"see website"` {
		t.Fatalf("%+v", o)
	}
}

func TestSingleTagIsLow(t *testing.T) {
	// Full registry with a repository, signatures, attestations 404:
	// no_build_attestation alone.
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument(`"git+https://code.example/acme/tool.git"`, alice, alice, alice)), attNotFound()}}
	a, res, fs := run(t, in)
	if got := a.Applied(); len(got) != 1 || got[0] != TagNoBuildAttestation {
		t.Fatalf("applied %v\n%s", got, res.Detail)
	}
	if fs[0].Severity != "low" || fs[0].Evidence.Path != "/versions/1.1.0/dist" {
		t.Fatalf("finding %+v", fs[0])
	}
	if res.Counts["tags_applied"] != 1 {
		t.Fatalf("counts %v", res.Counts)
	}
}

func TestAnonymousPublisher(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, "", "", `{"name": ""}`)), attNotFound()}}
	a, _, _ := run(t, in)
	o := outcome(t, a, TagAnonymousPublisher)
	if !o.Applied || o.Evidence.Path != "/versions/1.1.0/_npmUser/name" {
		t.Fatalf("%+v", o)
	}
	// A named maintainer is enough to not be anonymous.
	in.Records[0] = okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice, alice, `{"name": ""}`))
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAnonymousPublisher); o.Applied || !o.Established {
		t.Fatalf("%+v", o)
	}
}

func TestMaintainerSetChanged(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice, alice+","+bob, alice)), attNotFound()}}
	a, _, _ := run(t, in)
	o := outcome(t, a, TagMaintainerSetChanged)
	if !o.Applied || o.Evidence.Path != "/versions/1.1.0/maintainers/1/name" || o.Evidence.Excerpt != `"bob"` {
		t.Fatalf("%+v", o)
	}
	// The same set in another order and case is no change.
	in.Records[0] = okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice+","+bob, bob+`,{"name": "ALICE"}`, alice))
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagMaintainerSetChanged); o.Applied || !o.Established {
		t.Fatalf("%+v", o)
	}
}

const publishPredicate = "https://registry.example/npm/attestation/tree/main/specs/publish/v0.1"
const provenancePredicate = "https://slsa.example/provenance/v1"

func attDoc(entries ...[2]string) string {
	var parts []string
	for _, e := range entries {
		parts = append(parts, `{"predicateType": "`+e[0]+`", "bundle": `+e[1]+`}`)
	}
	return `{"attestations": [` + strings.Join(parts, ", ") + `]}`
}

func TestPublishAttestationOnlyIsNoBuildAttestation(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{
		okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice, alice, alice)),
		okRec(vocab.KindNPMAttestations, attDoc([2]string{publishPredicate, `{"mediaType": "x"}`})),
	}}
	a, _, _ := run(t, in)
	o := outcome(t, a, TagNoBuildAttestation)
	if !o.Applied || o.Evidence.Path != "/attestations/0/predicateType" {
		t.Fatalf("%+v", o)
	}
}

// fakeVerifier answers per bundle: a bundle containing "bad" is invalid,
// any other verifies for the repository it names in "repo".
type fakeVerifier struct{ calls int }

func (f *fakeVerifier) VerifyBundle(b []byte, digest []byte) (*sigstore.Verified, error) {
	f.calls++
	if len(digest) != 64 {
		panic("digest length")
	}
	var doc struct {
		Repo string `json:"repo"`
		Bad  string `json:"bad"`
	}
	_ = json.Unmarshal(b, &doc)
	if doc.Bad != "" {
		return nil, &sigstore.InvalidError{Reason: doc.Bad, Pointer: "/dsseEnvelope/payload"}
	}
	return &sigstore.Verified{PredicateType: provenancePredicate, SourceRepository: doc.Repo,
		Identity: sigstore.Identity{SubjectAlternativeName: doc.Repo + "/.ci/release.yml@refs/heads/main"}}, nil
}

var sha512hex = strings.Repeat("ab", 64)

func TestInvalidAttestationIsItsOwnTag(t *testing.T) {
	v := &fakeVerifier{}
	in := ProvenanceInput{Package: pkg, ArtifactSHA512: sha512hex, Verifier: v, Records: []StoredRecord{
		okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice, alice, alice)),
		okRec(vocab.KindNPMAttestations, attDoc([2]string{publishPredicate, `{}`},
			[2]string{provenancePredicate, `{"bad": "subject_digest_mismatch", "dsseEnvelope": {"payload": "cGF5bG9hZA=="}}`})),
	}}
	a, _, fs := run(t, in)
	o := outcome(t, a, TagAttestationInvalid)
	if !o.Applied || o.Evidence.Path != "/attestations/1/bundle/dsseEnvelope/payload" || !strings.Contains(o.Why, "subject_digest_mismatch") {
		t.Fatalf("%+v", o)
	}
	if nb := outcome(t, a, TagNoBuildAttestation); nb.Applied || !nb.Established {
		t.Fatalf("an invalid attestation read as unattested: %+v", nb)
	}
	if len(fs) != 1 || fs[0].Severity != "low" {
		t.Fatalf("%+v", fs)
	}
}

func TestAttestationRepositoryMismatch(t *testing.T) {
	v := &fakeVerifier{}
	in := ProvenanceInput{Package: pkg, ArtifactSHA512: sha512hex, Verifier: v, Records: []StoredRecord{
		okRec(vocab.KindNPMPackument, fullPackument(`"git+https://code.example/acme/tool.git"`, alice, alice, alice)),
		okRec(vocab.KindNPMAttestations, attDoc([2]string{provenancePredicate, `{"repo": "https://code.example/mallory/tool", "dsseEnvelope": {"payload": "cA=="}}`})),
	}}
	a, _, _ := run(t, in)
	o := outcome(t, a, TagAttestationRepoMismatch)
	if !o.Applied || o.Evidence.Path != "/attestations/0/bundle/dsseEnvelope/payload" || !strings.Contains(o.Why, "mallory") {
		t.Fatalf("%+v", o)
	}
	if inv := outcome(t, a, TagAttestationInvalid); inv.Applied || !inv.Established {
		t.Fatalf("%+v", inv)
	}
	// The same repository, differently cased, with a shorthand declaration
	// resolved by the host: no mismatch.
	in.Records[0] = okRec(vocab.KindNPMPackument, fullPackument(`"github:Acme/Tool"`, alice, alice, alice))
	in.Records[1] = okRec(vocab.KindNPMAttestations, attDoc([2]string{provenancePredicate, `{"repo": "https://code.example/acme/tool"}`}))
	in.Repositories = resolver{}
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAttestationRepoMismatch); o.Applied || !o.Established {
		t.Fatalf("%+v", o)
	}
}

func TestAttestationNotVerifiableWithoutRootOrDigest(t *testing.T) {
	recs := []StoredRecord{
		okRec(vocab.KindNPMPackument, fullPackument(`"acme/tool"`, alice, alice, alice)),
		okRec(vocab.KindNPMAttestations, attDoc([2]string{provenancePredicate, `{"bad": "signature_invalid"}`})),
	}
	for _, in := range []ProvenanceInput{
		{Package: pkg, Records: recs, ArtifactSHA512: sha512hex},
		{Package: pkg, Records: recs, Verifier: &fakeVerifier{}},
	} {
		a, _, fs := run(t, in)
		if len(fs) != 0 {
			t.Fatalf("findings %+v", fs)
		}
		if o := outcome(t, a, TagAttestationInvalid); o.Established || !strings.Contains(o.Why, "present, not verified") {
			t.Fatalf("%+v", o)
		}
	}
}

type resolver struct{}

func (resolver) Resolve(r repohost.Ref) (repohost.Ref, bool) {
	if r.Host == "" && r.Shorthand == repohost.ShorthandDefault {
		r.Host = testWebHost
	}
	return r, strings.EqualFold(r.Host, testWebHost)
}

// hostRecords looks a repository up on a fake host through the real client
// and stores what it answered, as the pipeline does.
func hostRecords(t *testing.T, setup func(f *fakehost.Fake), ref repohost.Ref) ([]StoredRecord, *repohost.Client) {
	t.Helper()
	f := fakehost.New()
	setup(f)
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := repohost.New(repohost.Config{APIURL: srv.URL, WebHost: testWebHost, Shorthand: true},
		repohost.Options{MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	l, err := c.Lookup(context.Background(), ref)
	if err != nil {
		t.Fatal(err)
	}
	var out []StoredRecord
	for _, r := range l.Responses() {
		sr := StoredRecord{Record: rundir.Record{Package: pkg, Kind: r.Record.Kind, URL: r.Record.URL, Status: r.Record.Status,
			Outcome: r.Record.Outcome, SHA256: r.Record.SHA256, FetchedAt: r.Record.FetchedAt}}
		if r.Body != nil {
			sr.Body = r.Body
		}
		out = append(out, sr)
	}
	return out, c
}

func TestRepositoryHostTags(t *testing.T) {
	registryRecs := []StoredRecord{okRec(vocab.KindNPMPackument, fullPackument(`"git+https://code.example/acme/tool.git"`, alice, alice, alice)), attNotFound()}
	ref := repohost.Ref{Host: testWebHost, Owner: "acme", Name: "tool"}

	// The repository exists, its owner was created after the first release
	// (2025-01-01), and the tip is unsigned.
	host, c := hostRecords(t, func(f *fakehost.Fake) {
		f.AddRepo(fakehost.Repo{Owner: "acme", Name: "tool", CreatedAt: time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)})
		f.AddAccount(fakehost.Account{Login: "acme", CreatedAt: time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)})
		f.SetCommit("acme", "tool", "main", fakehost.Commit{SHA: "c0ffee"})
	}, ref)
	in := ProvenanceInput{Package: pkg, Records: append(append([]StoredRecord{}, registryRecs...), host...), Repositories: c}
	a, _, fs := run(t, in)
	if o := outcome(t, a, TagAccountYoungerThanPackage); !o.Applied || o.Evidence.Path != "/created_at" || o.Evidence.Excerpt != `"2025-05-01T00:00:00Z"` {
		t.Fatalf("account: %+v", o)
	}
	if o := outcome(t, a, TagUnsignedLatestCommit); !o.Applied || o.Evidence.Path != "/commit/verification" || !strings.Contains(o.Evidence.Excerpt, `"unsigned"`) {
		t.Fatalf("commit: %+v", o)
	}
	if o := outcome(t, a, TagRepositoryUnreachable); o.Applied || !o.Established {
		t.Fatalf("unreachable: %+v", o)
	}
	if len(fs) != 3 {
		t.Fatalf("findings %+v", fs)
	}

	// An older account and a signed (even unverified) tip: neither tag.
	host, c = hostRecords(t, func(f *fakehost.Fake) {
		f.AddRepo(fakehost.Repo{Owner: "acme", Name: "tool", CreatedAt: time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC)})
		f.SetCommit("acme", "tool", "main", fakehost.Commit{SHA: "c0ffee", Reason: "unknown_key", Signature: "sig"})
	}, ref)
	in = ProvenanceInput{Package: pkg, Records: append(append([]StoredRecord{}, registryRecs...), host...), Repositories: c}
	a, _, _ = run(t, in)
	for _, tag := range []string{TagAccountYoungerThanPackage, TagUnsignedLatestCommit} {
		if o := outcome(t, a, tag); o.Applied || !o.Established {
			t.Fatalf("%s: %+v", tag, o)
		}
	}

	// The host answers 404: repository_unreachable, citing the declaration.
	host, c = hostRecords(t, func(*fakehost.Fake) {}, ref)
	in = ProvenanceInput{Package: pkg, Records: append(append([]StoredRecord{}, registryRecs...), host...), Repositories: c}
	a, _, _ = run(t, in)
	o := outcome(t, a, TagRepositoryUnreachable)
	if !o.Applied || o.Evidence.Path != "/versions/1.1.0/repository/url" {
		t.Fatalf("404: %+v", o)
	}
	if o := outcome(t, a, TagUnsignedLatestCommit); o.Established {
		t.Fatalf("%+v", o)
	}

	// The host fails (5xx, then rate limit): an input recorded as such,
	// no tag.
	for _, st := range []int{503, 401} {
		host, c = hostRecords(t, func(f *fakehost.Fake) {
			f.Inject("/repos/acme/tool", fakehost.Fault{Status: st, Times: -1})
		}, ref)
		in = ProvenanceInput{Package: pkg, Records: append(append([]StoredRecord{}, registryRecs...), host...), Repositories: c}
		a, res, _ := run(t, in)
		if o := outcome(t, a, TagRepositoryUnreachable); o.Established {
			t.Fatalf("%d: %+v", st, o)
		}
		if !strings.Contains(res.Detail, "input repository: unavailable (http_error") {
			t.Fatalf("%d: detail %s", st, res.Detail)
		}
	}

	// A repository on a host nobody configured: not looked up.
	in = ProvenanceInput{Package: pkg, Records: registryRecs, Repositories: nil}
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagRepositoryUnreachable); o.Established || !strings.Contains(o.Why, "no repository host") {
		t.Fatalf("%+v", o)
	}
}

func TestHostileRecordsEndInOutcomes(t *testing.T) {
	bodies := []string{"", "null", "[]", `{"versions": []}`, `{"versions": {"1.1.0": "x"}}`, `{"versions": {"1.1.0": {"repository": 7, "maintainers": {"name": 3}, "_npmUser": [], "dist": null}}, "time": 5}`, "\xff\xfe"}
	for _, b := range bodies {
		in := ProvenanceInput{Package: pkg, Verifier: &fakeVerifier{}, ArtifactSHA512: sha512hex, Repositories: resolver{}, Records: []StoredRecord{
			okRec(vocab.KindNPMPackument, b), okRec(vocab.KindNPMAttestations, b), okRec(vocab.KindRepository, b),
		}}
		run(t, in)
	}
	run(t, ProvenanceInput{Package: rundir.PackageRef{Registry: "cargo", Name: "x", Version: "1"}})
}

func TestLookupPointer(t *testing.T) {
	doc := []byte(` {"a/b": {"~x": [1, {"c": "d\u00e9"}]}, "v": null, "a": 1, "a": 2} `)
	for ptr, want := range map[string]string{
		"/a~1b/~0x/1/c": `"d\u00e9"`, "/a~1b/~0x/0": "1", "/v": "null", "/a": "2", "": strings.TrimSpace(string(doc)),
	} {
		got, ok := LookupPointer(doc, ptr)
		if !ok || string(got) != want {
			t.Errorf("%q = %q, %v; want %q", ptr, got, ok, want)
		}
	}
	for _, ptr := range []string{"/missing", "/a~1b/~0x/2", "/a~1b/~0x/01", "/a/b", "x"} {
		if _, ok := LookupPointer(doc, ptr); ok {
			t.Errorf("%q found", ptr)
		}
	}
	if Pointer("versions", "1.0.0/x~") != "/versions/1.0.0~1x~0" {
		t.Fatal(Pointer("versions", "1.0.0/x~"))
	}
}

// The real npm provenance of sigstore@2.0.0 (kept by sigstore-go as test
// data) through the whole check, with the project's trusted root.
func realVerifier(t *testing.T) *sigstore.Verifier {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", sigstore.DefaultTrustedRootPath))
	if err != nil {
		t.Fatal(err)
	}
	v, err := sigstore.NewVerifier(b, sigstore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const realSHA512 = "46d4e2f74c4877316640000a6fdf8a8b59f1e0847667973e9859f774dd31b8f1e0937813b777fb66a2ac67d50540fe34640966eee9fc2ccca387082b4c85cd3c"

func TestRealProvenanceThroughTheCheck(t *testing.T) {
	bundleJSON, err := sgdata.Bundle(t, "sigstore.js@2.0.0-provenance.sigstore.json").MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	v := realVerifier(t)
	digest, _ := hex.DecodeString(realSHA512)
	ver, err := v.VerifyBundle(bundleJSON, digest)
	if err != nil {
		t.Fatal(err)
	}
	sigPkg := rundir.PackageRef{Registry: "npm", Name: "sigstore", Version: "2.0.0"}
	packFor := func(repo string) StoredRecord {
		return okRec(vocab.KindNPMPackument, `{"name": "sigstore", "time": {"created": "2022-01-01T00:00:00.000Z", "2.0.0": "2023-08-18T00:00:00.000Z"},
		  "versions": {"2.0.0": {"name": "sigstore", "version": "2.0.0", "repository": {"type": "git", "url": "git+`+repo+`.git"}, "dist": {"signatures": []}}}}`)
	}
	att := okRec(vocab.KindNPMAttestations, attDoc([2]string{ver.PredicateType, string(bundleJSON)}))
	in := ProvenanceInput{Package: sigPkg, ArtifactSHA512: realSHA512, Verifier: v, Records: []StoredRecord{packFor(ver.SourceRepository), att}}
	a, res, fs := run(t, in)
	if len(fs) != 0 {
		t.Fatalf("a real, matching provenance produced findings: %+v\n%s", fs, res.Detail)
	}
	if a.TrustedRootSHA256 == "" || !strings.Contains(res.Detail, "trusted root sha256") {
		t.Fatal("the trusted root's hash is not recorded")
	}

	in.Records[0] = packFor("https://code.example/someone/else")
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAttestationRepoMismatch); !o.Applied {
		t.Fatalf("%+v", o)
	}

	// The tarball examined is not the one attested.
	in.Records[0] = packFor(ver.SourceRepository)
	in.ArtifactSHA512 = strings.Repeat("00", 64)
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAttestationInvalid); !o.Applied || !strings.Contains(o.Why, sigstore.ReasonSubjectDigest) {
		t.Fatalf("%+v", o)
	}

	// A tampered copy of the attestation.
	var doc map[string]any
	if err := json.Unmarshal(bundleJSON, &doc); err != nil {
		t.Fatal(err)
	}
	sig := doc["dsseEnvelope"].(map[string]any)["signatures"].([]any)[0].(map[string]any)
	sig["sig"] = "AAAA" + sig["sig"].(string)
	tampered, _ := json.Marshal(doc)
	in.ArtifactSHA512 = realSHA512
	in.Records[1] = okRec(vocab.KindNPMAttestations, attDoc([2]string{ver.PredicateType, string(tampered)}))
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAttestationInvalid); !o.Applied || !strings.Contains(o.Why, sigstore.ReasonSignature) {
		t.Fatalf("%+v", o)
	}
}

// FuzzProvenanceRecords feeds hostile bytes as every record the check
// reads: it must end in outcomes whose evidence resolves, never a panic.
func FuzzProvenanceRecords(f *testing.F) {
	f.Add([]byte(fullPackument(`"acme/tool"`, alice, bob, alice)), []byte(attDoc([2]string{provenancePredicate, `{"repo":"x"}`})), []byte(`{"owner":{"login":"acme"},"default_branch":"main"}`))
	f.Add([]byte(mirrorPackument), []byte(`{"attestations":7}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, pack, att, repo []byte) {
		in := ProvenanceInput{Package: pkg, Verifier: &fakeVerifier{}, ArtifactSHA512: sha512hex, Repositories: resolver{}, Records: []StoredRecord{
			okRec(vocab.KindNPMPackument, string(pack)), okRec(vocab.KindNPMAttestations, string(att)),
			rec(vocab.KindRepository, "https://api.code.example/repos/acme/tool", "ok", 200, repo),
			rec(vocab.KindRepositoryOwner, "https://api.code.example/users/acme", "ok", 200, repo),
			rec(vocab.KindRepositoryCommit, "https://api.code.example/repos/acme/tool/commits/main", "ok", 200, repo),
		}}
		run(t, in)
	})
}

func TestDeclaredRepository(t *testing.T) {
	in := ProvenanceInput{Package: pkg, Records: []StoredRecord{okRec(vocab.KindNPMPackument, mirrorPackument)}}
	ref, ok := DeclaredRepository(context.Background(), in)
	if !ok || ref != (repohost.Ref{Host: testWebHost, Owner: "acme", Name: "tool"}) {
		t.Fatalf("%+v %v", ref, ok)
	}
	in.Records[0] = okRec(vocab.KindNPMPackument, fullPackument("", alice, alice, alice))
	if _, ok := DeclaredRepository(context.Background(), in); ok {
		t.Fatal("a package without a repository declared one")
	}
	py := ProvenanceInput{Package: rundir.PackageRef{Registry: "pypi", Name: "tool", Version: "1.0"}, Repositories: resolver{},
		Records: []StoredRecord{okRec(vocab.KindPyPIJSON, `{"info": {"version": "1.0", "project_urls": {"Homepage": "https://code.example/acme/tool", "Docs": "https://docs.acme.example"}}}`)}}
	ref, ok = DeclaredRepository(context.Background(), py)
	if !ok || ref.FullName() != "acme/tool" {
		t.Fatalf("pypi: %+v %v", ref, ok)
	}
}

func TestPyPIProvenance(t *testing.T) {
	py := rundir.PackageRef{Registry: "pypi", Name: "tool", Version: "1.0"}
	rel := okRec(vocab.KindPyPIJSON, `{"info": {"version": "1.0", "project_urls": {"Docs": "https://docs.acme.example"}}, "ownership": {"organization": null, "roles": []}}`)
	simple := okRec(vocab.KindPyPISimple, `{"files": [{"filename": "tool-1.0.tar.gz", "provenance": null}, {"filename": "tool-1.0-py3-none-any.whl", "provenance": "https://files.example/p"}]}`)
	notFound := rec(vocab.KindPyPIProvenance, "https://index.example/integrity/tool/1.0/tool-1.0.tar.gz/provenance", "not_found", 404, nil)
	in := ProvenanceInput{Package: py, Records: []StoredRecord{rel, simple, notFound}}
	a, _, fs := run(t, in)
	for _, tag := range []string{TagRepositoryMissing, TagAnonymousPublisher, TagNoBuildAttestation} {
		if o := outcome(t, a, tag); !o.Applied {
			t.Errorf("%s: %+v", tag, o)
		}
	}
	if o := outcome(t, a, TagNoBuildAttestation); o.Evidence.Path != "/files/0/provenance" {
		t.Errorf("%+v", o.Evidence)
	}
	if len(fs) != 3 || fs[0].Severity != "high" {
		t.Fatalf("%+v", fs)
	}
	// The wheel has provenance listed: a 404 for it is not an absence the
	// index stated.
	in.Records[2] = rec(vocab.KindPyPIProvenance, "https://index.example/integrity/tool/1.0/tool-1.0-py3-none-any.whl/provenance", "not_found", 404, nil)
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagNoBuildAttestation); o.Established {
		t.Errorf("%+v", o)
	}
	// Served provenance: present, not verified in this version.
	in.Records[2] = okRec(vocab.KindPyPIProvenance, `{"version": 1, "attestation_bundles": []}`)
	a, _, _ = run(t, in)
	if o := outcome(t, a, TagAttestationInvalid); o.Established || !strings.Contains(o.Why, "not verified") {
		t.Errorf("%+v", o)
	}
	if o := outcome(t, a, TagNoBuildAttestation); o.Applied || !o.Established {
		t.Errorf("%+v", o)
	}
}
