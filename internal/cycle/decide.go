package cycle

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/artifact"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/evstore"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/publish"
	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/rundir"
)

// DecideOptions is what deciding a run takes besides its directory.
type DecideOptions struct {
	// Home is $ATTESTARI_HOME: its evidence/ is the store a run cites when
	// the run carries none of its own (EvidenceRoot) and Evidence names none.
	Home string
	// Evidence names the evidence store (evstore.FromEnv:
	// ATTESTARI_EVIDENCE_URL) a run carrying none of its own cites; zero
	// means Home/evidence (OpenEvidence).
	Evidence evstore.Config
	// Now is the clock of decided_at and of the day-0 notices.
	Now func() time.Time
	// CodeCommit and CodeDirty identify the deciding code (stamps).
	CodeCommit string
	CodeDirty  bool
	// RegistryContacts are the registries' security contacts the day-0
	// notices name (publish.RegistryContactsFromEnv).
	RegistryContacts map[string]string
	// MachineSharedHosts reads the deciding machine's configuration for the
	// shared hosts of the context tags. It is called only for a run whose
	// run.json records none (written before methodology 2.3.5), and the
	// decision is then stamped shared_hosts_source "deciding_machine". Nil
	// reads nothing: such a run's tags use the code's labels alone.
	MachineSharedHosts func(ctx context.Context) []string
}

// Decide decides dir, writes its decision files and its day-0 notices. It
// reads the run directory and the blobs it cites; the shared hosts of the
// context tags come from the run's run.json (rundir.DecideInputs), so two
// machines decide the same run alike.
func Decide(ctx context.Context, dir string, o DecideOptions) (*policy.Decisions, error) {
	store, err := OpenEvidence(ctx, o.Evidence, o.Home, dir)
	if err != nil {
		return nil, err
	}
	now := o.Now
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	opts := policy.Options{
		Now:          now,
		CodeCommit:   o.CodeCommit,
		CodeDirty:    o.CodeDirty,
		OpenArtifact: OpenArtifact,
	}
	if files, err := rundir.Read(dir); err == nil {
		shared, fromMachine := SharedHostsFor(ctx, files.Header, o.MachineSharedHosts)
		opts.ContextTags = contextTagger(files, store, shared)
		opts.SharedHostsFromMachine = fromMachine
	}
	d, err := policy.Decide(ctx, dir, store, opts)
	if err != nil {
		return nil, err
	}
	if err := policy.WriteDecisions(dir, d); err != nil {
		return nil, err
	}
	// Day 0: a notice for every high or medium finding, to the registry's
	// security contact and the publisher. Files for an operator; nothing is sent.
	if _, err := publish.Notices(ctx, dir, d, now().UTC(), publish.NoticeOptions{
		Blobs: store, RegistryContacts: o.RegistryContacts,
	}); err != nil {
		return nil, fmt.Errorf("write day-0 notices: %w", err)
	}
	return d, nil
}

// SharedHostsFor is the shared-host list a decision of a run with header h
// uses: the code's labels (checks.DefaultSharedLabels) plus the entries
// run.json records. A header that records none (a run written before
// methodology 2.3.5) decides as such runs were decided: the code's labels,
// $ATTESTARI_SHARED_HOSTS and the hosts machine reads (nil: none), and
// fromMachine says so.
func SharedHostsFor(ctx context.Context, h rundir.Header, machine func(context.Context) []string) (shared checks.SharedHosts, fromMachine bool) {
	if h.DecideInputs != nil {
		shared = checks.SharedHosts{Labels: append([]string(nil), checks.DefaultSharedLabels...)}
		shared.Add(h.DecideInputs.SharedHosts...)
		return shared, false
	}
	var hosts []string
	if machine != nil {
		hosts = machine(ctx)
	}
	return checks.DefaultSharedHosts(hosts...), true
}

// RecordDecideInputs is what run.json records of the running machine's
// configuration for the decision (rundir.DecideInputs): the entries of
// $ATTESTARI_SHARED_HOSTS (through getenv), then the hosts of the npm
// registry and the PyPI index the machine is configured with (machine), in
// the order the shared-host list adds them.
func RecordDecideInputs(ctx context.Context, getenv func(string) string, machine func(context.Context) []string) *rundir.DecideInputs {
	in := &rundir.DecideInputs{SharedHosts: []string{}}
	for _, e := range strings.Split(getenv(checks.EnvSharedHosts), ",") {
		if e = strings.TrimSpace(e); e != "" {
			in.SharedHosts = append(in.SharedHosts, e)
		}
	}
	if machine != nil {
		in.SharedHosts = append(in.SharedHosts, machine(ctx)...)
	}
	return in
}

// SharedHostsFromConfig are the hosts of the registries this machine is
// configured with: never a publisher's own domain (methodology §5).
func SharedHostsFromConfig(ctx context.Context) []string {
	var out []string
	for _, f := range []func(context.Context) (string, error){registry.DefaultNPMRegistry, registry.DefaultPyPIURL} {
		if u, err := f(ctx); err == nil {
			if p, err := url.Parse(u); err == nil && p.Hostname() != "" {
				out = append(out, p.Hostname())
			}
		}
	}
	return out
}

// contextTagger computes the exfiltrate_data context tags at decision time,
// reading the version's registry record from the run's own records.
func contextTagger(files *rundir.Files, blobs policy.Blobs, shared checks.SharedHosts) func(context.Context, rundir.Finding, *rundir.Surface, func(string) ([]byte, bool)) ([]rundir.ContextTag, error) {
	t := checks.ExfilTagger{
		Shared: shared,
		RegistryRecord: func(ctx context.Context, pkg rundir.PackageRef) ([]byte, bool) {
			for _, r := range files.Records {
				if r.Package == pkg && r.SHA256 != "" && (r.Kind == "npm_version" || r.Kind == "pypi_json") {
					b, err := blobs.Get(ctx, r.SHA256)
					return b, err == nil
				}
			}
			return nil, false
		},
	}
	return t.Tags
}

// EvidenceRoot is the store a run cites: its own evidence/ when it carries
// one (fixtures and copied runs do), else home's evidence/.
func EvidenceRoot(home, runDir string) string {
	own := filepath.Join(runDir, "evidence")
	if fi, err := os.Stat(filepath.Join(own, "blobs")); err == nil && fi.IsDir() {
		return own
	}
	return filepath.Join(home, "evidence")
}

// OpenArtifact reads a stored artifact so capabilities can be verified against its members.
func OpenArtifact(ctx context.Context, data []byte) (func(string) ([]byte, bool), error) {
	a, err := artifact.Read(ctx, data, artifact.DetectFormat("", data), artifact.Limits{})
	if err != nil {
		return nil, err
	}
	if a.Outcome != "ok" {
		return nil, fmt.Errorf("artifact unreadable: %s", a.Reason)
	}
	return a.Bytes, nil
}
