package pipeline

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// shimTarball is a one-file shim: it registers nothing and loads target.
func shimTarball(t testing.TB, name, reg, target, spec string) []byte {
	return tgz(t, "package.json", `{"name":"`+name+`","version":"0.0.0"}`,
		"index.js", "module.exports = require('"+target+"');\n",
		"delegate.json", fmt.Sprintf(`{"registry":%q,"name":%q,"specifier":%q}`, reg, target, spec))
}

// newDelegationWorld serves every shape of delegation methodology §4 names:
//
//   - shim-a → server-b "^1.0.0": server-b publishes 1.0.0, 1.4.0,
//     1.5.0-beta.1 and 2.0.0, so the target is 1.4.0 (pre-release excluded);
//   - a two-hop chain: shim-c → shim-d "~2.1.0" (2.1.3) → server-e
//     "latest" (a dist-tag, 3.0.0);
//   - a cycle: cyc-a → cyc-b "^1" → cyc-a "^1.0.0", which is in the run;
//   - a target already selected: shim-f → listed-g "^1", and listed-g is a
//     candidate by range resolving to the same 1.0.0;
//   - a chain longer than three hops: h0 → h1 → h2 → h3 → h4;
//   - targets that do not resolve: shim-u → nowhere (not at the registry),
//     shim-v → server-b "^9" (nothing matches);
//   - a PyPI shim → py-target ">=0.2,<1" (0.5.0; 0.6.0rc1 excluded).
func newDelegationWorld(t testing.TB) *world {
	t.Helper()
	w := &world{fake: fakeregistry.New(), home: t.TempDir()}
	w.srv = httptest.NewServer(w.fake)
	t.Cleanup(w.srv.Close)
	npm := func(name, version string, tarball []byte) {
		w.fake.AddNPM(name, version, tarball, fakeregistry.NPMOptions{})
	}
	npm("shim-a", "1.0.0", shimTarball(t, "shim-a", "npm", "server-b", "^1.0.0"))
	for _, v := range []string{"1.0.0", "1.4.0", "1.5.0-beta.1", "2.0.0"} {
		npm("server-b", v, serverTarball(t, "server-b", "b_tool_"+strings.NewReplacer(".", "_", "-", "_").Replace(v)))
	}
	npm("shim-c", "1.0.0", shimTarball(t, "shim-c", "npm", "shim-d", "~2.1.0"))
	npm("shim-d", "2.1.0", shimTarball(t, "shim-d", "npm", "server-e", "latest"))
	npm("shim-d", "2.1.3", shimTarball(t, "shim-d", "npm", "server-e", "latest"))
	npm("server-e", "2.0.0", serverTarball(t, "server-e", "e_old"))
	npm("server-e", "3.0.0", serverTarball(t, "server-e", "e_tool"))
	npm("cyc-a", "1.0.0", shimTarball(t, "cyc-a", "npm", "cyc-b", "^1"))
	npm("cyc-b", "1.0.0", shimTarball(t, "cyc-b", "npm", "cyc-a", "^1.0.0"))
	npm("shim-f", "1.0.0", shimTarball(t, "shim-f", "npm", "listed-g", "^1"))
	npm("listed-g", "1.0.0", serverTarball(t, "listed-g", "g_tool"))
	for i := range 4 {
		npm(fmt.Sprintf("h%d", i), "1.0.0", shimTarball(t, fmt.Sprintf("h%d", i), "npm", fmt.Sprintf("h%d", i+1), "1.0.0"))
	}
	npm("h4", "1.0.0", serverTarball(t, "h4", "h4_tool"))
	npm("shim-u", "1.0.0", shimTarball(t, "shim-u", "npm", "nowhere", "^1"))
	npm("shim-v", "1.0.0", shimTarball(t, "shim-v", "npm", "server-b", "^9"))
	w.fake.AddPyPI("py-shim", "0.1.0", []fakeregistry.PyPIFile{{Filename: "py_shim-0.1.0-py3-none-any.whl",
		Content: wheel(t, "py_shim/__init__.py", "from py_target import app\n", "delegate.json", `{"registry":"pypi","name":"py-target","specifier":">=0.2,<1"}`)}}, fakeregistry.PyPIOptions{})
	for _, v := range []string{"0.2.0", "0.5.0", "0.6.0rc1", "1.0.0"} {
		w.fake.AddPyPI("py-target", v, []fakeregistry.PyPIFile{{Filename: "py_target-" + v + "-py3-none-any.whl",
			Content: wheel(t, "py_target/__init__.py", "app = None\n", "tools.json", `[{"name":"py_target_`+strings.ReplaceAll(v, ".", "_")+`","description":"Py target"}]`)}}, fakeregistry.PyPIOptions{})
	}
	var cs []cand
	for _, n := range []string{"shim-a", "shim-c", "cyc-a", "shim-f", "h0", "shim-u", "shim-v"} {
		cs = append(cs, cand{Registry: "npm", Name: n, Version: "1.0.0", Rank: len(cs) + 1})
	}
	cs = append(cs, cand{Registry: "npm", Name: "listed-g", Range: "^1", Rank: len(cs) + 1},
		cand{Registry: "pypi", Name: "py-shim", Version: "0.1.0", Rank: 1})
	w.cands = filepath.Join(w.home, "candidates.json")
	writeCandidates(t, w.cands, cs)
	return w
}

// joinedTargets are the packages newDelegationWorld's run adds, by key.
var joinedTargets = map[string]int{
	"npm:server-b@1.4.0": 1, "npm:shim-d@2.1.3": 1, "npm:server-e@3.0.0": 2, "npm:cyc-b@1.0.0": 1,
	"npm:h1@1.0.0": 1, "npm:h2@1.0.0": 2, "npm:h3@1.0.0": 3, "pypi:py-target@0.5.0": 1,
}

func delegationOf(t *testing.T, f *rundir.Files, name string) *rundir.Delegation {
	t.Helper()
	s := surfaceOf(t, f, name)
	if s == nil || s.DelegatesTo == nil {
		t.Fatalf("%s: no delegates_to on its surface row", name)
	}
	return s.DelegatesTo
}

func refs(keys ...string) []string { return keys }

func keysOf(rs []rundir.PackageRef) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Key())
	}
	return out
}

// TestDelegationTargetsJoinTheRun is methodology §4's delegation rules, one
// assertion per rule.
func TestDelegationTargetsJoinTheRun(t *testing.T) {
	w := newDelegationWorld(t)
	o := w.options(t)
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != rundir.StatusFinished || res.Packages != 9+len(joinedTargets) || res.Joined != len(joinedTargets) || res.Examined != res.Packages {
		t.Fatalf("result %+v", res)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}

	// Rule 1: every target joined, with why; rule 5: at most three hops.
	for _, s := range f.Summary.Packages {
		hop, joined := joinedTargets[s.Package.Key()]
		switch {
		case joined && (s.JoinedBy != rundir.JoinedByDelegation || s.Hop != hop):
			t.Errorf("%s: joined_by %q hop %d, want delegation hop %d", s.Package.Key(), s.JoinedBy, s.Hop, hop)
		case !joined && (s.JoinedBy != "" || s.Hop != 0):
			t.Errorf("%s is selected, yet joined_by %q hop %d", s.Package.Key(), s.JoinedBy, s.Hop)
		}
	}
	if got := byName(t, f.Summary.Packages, func(p rundir.PackageSummary) rundir.PackageRef { return p.Package }, "h4"); len(got) != 0 {
		t.Errorf("h4 is four hops from h0 and joined: %+v", got)
	}
	if d := delegationOf(t, f, "h3"); d.ResolvedVersion != "1.0.0" || d.NotFollowed != NotFollowedHopLimit {
		t.Errorf("h3 delegates_to %+v, want resolved and not followed (hop_limit)", d)
	}

	// Rule 2: the highest release the specifier admits, pre-releases
	// excluded; dist-tags; PEP 440.
	for name, want := range map[string][2]string{
		"shim-a":  {"1.4.0", registry.HowHighestMatch},
		"shim-c":  {"2.1.3", registry.HowHighestMatch},
		"shim-d":  {"3.0.0", registry.HowDistTag},
		"cyc-a":   {"1.0.0", registry.HowHighestMatch},
		"cyc-b":   {"1.0.0", registry.HowHighestMatch},
		"shim-f":  {"1.0.0", registry.HowHighestMatch},
		"h0":      {"1.0.0", registry.HowExact},
		"py-shim": {"0.5.0", registry.HowHighestMatch},
	} {
		d := delegationOf(t, f, name)
		if d.ResolvedVersion != want[0] || d.ResolvedHow != want[1] || d.NotFollowed != "" || d.Evidence.File != "index.js" {
			t.Errorf("%s delegates_to %+v, want %s (%s)", name, d, want[0], want[1])
		}
	}
	// The document resolved against is indexed on the delegating row
	// under a kind no check reads as the package's own.
	var kinds []string
	for _, r := range byName(t, f.Records, func(r rundir.Record) rundir.PackageRef { return r.Package }, "shim-a") {
		kinds = append(kinds, r.Kind)
		if r.Kind == RecordDelegationNPM && (r.SHA256 == "" || !strings.HasSuffix(r.URL, "/server-b")) {
			t.Errorf("delegation record %+v", r)
		}
	}
	if !slices.Contains(kinds, RecordDelegationNPM) || slices.Index(kinds, "npm_packument") < 0 {
		t.Errorf("shim-a record kinds %v", kinds)
	}

	// Rule 4 and 5: delegated_from lists every delegating package of the
	// run; a target already in the sample is examined once and carries both.
	for name, want := range map[string][]string{
		"server-b":  refs("npm:shim-a@1.0.0"),
		"shim-d":    refs("npm:shim-c@1.0.0"),
		"server-e":  refs("npm:shim-d@2.1.3"),
		"cyc-a":     refs("npm:cyc-b@1.0.0"),
		"cyc-b":     refs("npm:cyc-a@1.0.0"),
		"listed-g":  refs("npm:shim-f@1.0.0"),
		"h3":        refs("npm:h2@1.0.0"),
		"py-target": refs("pypi:py-shim@0.1.0"),
		"shim-a":    refs(),
	} {
		if got := keysOf(summaryOf(t, f, name).DelegatedFrom); !slices.Equal(got, want) {
			t.Errorf("%s delegated_from %v, want %v", name, got, want)
		}
	}
	for _, p := range []string{NPMTarballPathOf("listed-g", "1.0.0"), NPMTarballPathOf("cyc-a", "1.0.0"), NPMTarballPathOf("server-b", "1.4.0")} {
		if n := w.fake.Count(p); n != 1 {
			t.Errorf("%s fetched %d times, want once", p, n)
		}
	}
	if summaryOf(t, f, "listed-g").JoinedBy != "" {
		t.Error("listed-g is selected and must not say it joined by delegation")
	}

	// Targets that do not resolve are recorded, not followed.
	for name, kind := range map[string]string{"shim-u": vocab.RecordNotFound, "shim-v": vocab.FailureNoMatchingVersion} {
		d := delegationOf(t, f, name)
		if d.ResolvedVersion != "" || d.NotFollowed != kind || d.NotFollowedDetail == "" {
			t.Errorf("%s delegates_to %+v, want not followed (%s)", name, d, kind)
		}
		if got := failureKinds(summaryOf(t, f, name)); !slices.Equal(got, []string{StageDelegation + ":" + kind}) {
			t.Errorf("%s failures %v", name, got)
		}
	}
	c := f.Summary.Counts
	if c[CountJoinedByDelegation] != len(joinedTargets) || c[CountDelegating] != 13 ||
		c[countDelegationNotFollowedPf+NotFollowedHopLimit] != 1 || c[countDelegationNotFollowedPf+vocab.FailureNoMatchingVersion] != 1 {
		t.Errorf("counts %v", c)
	}

	// Rule 3: a target is examined and recorded exactly as the same
	// package would be if it were selected.
	aloneHome := t.TempDir()
	aloneCands := filepath.Join(aloneHome, "candidates.json")
	writeCandidates(t, aloneCands, []cand{{Registry: "npm", Name: "server-b", Version: "1.4.0", Rank: 1}})
	ao := optionsFor(t, w.srv.URL, aloneHome, aloneCands)
	ares, err := Run(context.Background(), ao)
	if err != nil {
		t.Fatal(err)
	}
	af, err := rundir.Read(ares.Dir)
	if err != nil {
		t.Fatal(err)
	}
	pick := func(f *rundir.Files) any {
		return []any{surfaceOf(t, f, "server-b"), resultsOf(t, f, "server-b"), gradeableOf(t, f, "server-b"),
			byName(t, f.Findings, func(x rundir.Finding) rundir.PackageRef { return x.Package }, "server-b")}
	}
	if a, b := normaliseValue(t, pick(f)), normaliseValue(t, pick(af)); a != b || a == "" {
		t.Errorf("server-b joined by delegation differs from server-b selected:\n%s\n---\n%s", a, b)
	}

	// Rule 6 and the decision rows: the shim is refused under
	// no_registration_site whatever it delegates to; the rows carry
	// delegates_to and delegated_from.
	do := o
	do.RunID, do.Extractor = "decided", pairedExtractor{}
	dres, err := Run(context.Background(), do)
	if err != nil {
		t.Fatal(err)
	}
	d, err := policy.Decide(context.Background(), dres.Dir, w.store(t), policy.Options{Now: func() time.Time { return time.Unix(0, 0) }})
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]policy.PackageRow{}
	for _, r := range d.Packages {
		rows[r.Package.Key()] = r
	}
	if len(rows) != res.Packages || d.Header.VersionPairAllowed != true {
		t.Fatalf("%d decision rows for %d packages", len(rows), res.Packages)
	}
	for _, k := range []string{"npm:shim-a@1.0.0", "npm:shim-u@1.0.0", "npm:h3@1.0.0"} {
		r := rows[k]
		if r.Verdict != vocab.VerdictNotGradeable || !slices.Contains(r.BlockedBy, vocab.CodeNoRegistrationSite) || r.DelegatesTo == nil {
			t.Errorf("%s: verdict %s blocked_by %v delegates_to %+v", k, r.Verdict, r.BlockedBy, r.DelegatesTo)
		}
	}
	if g, u := gradeableOf(t, f, "shim-a"), gradeableOf(t, f, "shim-u"); g.OK || !slices.Equal(g.Reasons, u.Reasons) {
		t.Errorf("a shim's gate depends on its delegation: %+v vs %+v", g, u)
	}
	for key, want := range map[string][]string{
		"npm:server-b@1.4.0": refs("npm:shim-a@1.0.0"),
		"npm:cyc-a@1.0.0":    refs("npm:cyc-b@1.0.0"),
		"npm:listed-g@1.0.0": refs("npm:shim-f@1.0.0"),
	} {
		if got := keysOf(rows[key].DelegatedFrom); !slices.Equal(got, want) {
			t.Errorf("%s decision delegated_from %v, want %v", key, got, want)
		}
	}
	if r := rows["npm:cyc-a@1.0.0"]; r.DelegatesTo == nil || r.DelegatesTo.Name != "cyc-b" {
		t.Errorf("cyc-a carries both records: %+v", r.DelegatesTo)
	}

	// Same inputs, same files.
	o.RunID = "second"
	again, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	want, got := seven(t, res.Dir), seven(t, again.Dir)
	for _, name := range rundir.SevenFiles {
		if want[name] != got[name] {
			t.Errorf("%s differs between two runs over the same inputs", name)
		}
	}
}

// TestDelegationResumesAcrossWaves cancels a run while the second wave of
// targets is in flight: the resumed run carries over the candidates and the
// first wave (not fetching them again) and ends with the files of an
// uninterrupted run.
func TestDelegationResumesAcrossWaves(t *testing.T) {
	w := newDelegationWorld(t)
	o := w.options(t)
	o.Concurrency = 2
	ref, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	o.RunID = "cancelled"
	o.afterFetch = func(ctx context.Context, p rundir.PackageRef) {
		if p.Name == "server-e" {
			cancel()
		}
	}
	res, err := Run(ctx, o)
	if !errors.Is(err, ErrCancelled) || res.Status != rundir.StatusCancelled {
		t.Fatalf("got %+v, %v", res, err)
	}
	done := len(packageFiles(t, res.Dir))
	// The nine candidates and the five first-hop targets had finished.
	if done < 9+5 || done > 9+5+1 {
		t.Fatalf("%d packages finished before the cancel", done)
	}
	b14 := w.fake.Count(NPMTarballPathOf("server-b", "1.4.0"))

	o.afterFetch = nil
	o.CandidatesPath, o.Resume = "", res.RunID
	again, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Status != rundir.StatusFinished || again.Carried != done || again.Examined != again.Packages-done || again.Joined != len(joinedTargets) {
		t.Fatalf("resumed %+v with %d done", again, done)
	}
	if n := w.fake.Count(NPMTarballPathOf("server-b", "1.4.0")); n != b14 {
		t.Errorf("resume fetched the first-hop target again (%d → %d)", b14, n)
	}
	want, got := seven(t, ref.Dir), seven(t, again.Dir)
	for _, name := range rundir.SevenFiles {
		if want[name] != got[name] {
			t.Errorf("%s after cancel and resume differs from the uninterrupted run:\n%s\n---\n%s", name, got[name], want[name])
		}
	}
}

// NPMTarballPathOf is fakeregistry's tarball path (a shorter name here).
func NPMTarballPathOf(name, version string) string { return fakeregistry.NPMTarballPath(name, version) }

// normaliseValue encodes v as run files are encoded, times and measured
// figures masked.
func normaliseValue(t testing.TB, v any) string {
	t.Helper()
	b, err := rundir.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return normalise(t, b)
}

// pairedExtractor is fakeExtractor under the extractor version the version
// table pairs with the methodology in force, so that a decision gets past
// the version-pair check to the package's own reasons.
type pairedExtractor struct{ fakeExtractor }

func (pairedExtractor) Version() string {
	for _, p := range methodology.VersionTable() {
		if p.Methodology == methodology.Version {
			return p.Extractor
		}
	}
	return ""
}

func (e pairedExtractor) Extract(ctx context.Context, in ExtractInput) (rundir.Surface, error) {
	s, err := e.fakeExtractor.Extract(ctx, in)
	s.ExtractorVersion = e.Version()
	return s, err
}
