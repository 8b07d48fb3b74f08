package pipeline

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry/fakeregistry"
	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/repohost/fakehost"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestProvenanceCheckRecordsRepositoryHost runs publisher_provenance in the
// pipeline against a fake registry and a fake code host: the check has a
// result row, and the host's responses are stored and indexed in records.json.
func TestProvenanceCheckRecordsRepositoryHost(t *testing.T) {
	host := fakehost.New()
	hostSrv := httptest.NewServer(host)
	defer hostSrv.Close()
	host.AddRepo(fakehost.Repo{Owner: "acme", Name: "srv", CreatedAt: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	host.SetCommit("acme", "srv", "main", fakehost.Commit{SHA: "abc123"})

	reg := fakeregistry.New()
	regSrv := httptest.NewServer(reg)
	defer regSrv.Close()
	reg.AddNPM("srv", "1.0.0", serverTarball(t, "srv", "tool_one"), fakeregistry.NPMOptions{Repository: "git+https://code.example/acme/srv.git"})

	home := t.TempDir()
	cands := filepath.Join(home, "candidates.json")
	writeCandidates(t, cands, []cand{{Registry: "npm", Name: "srv", Version: "1.0.0", Rank: 1}})
	o := optionsFor(t, regSrv.URL, home, cands)
	client, err := repohost.New(repohost.Config{APIURL: hostSrv.URL, WebHost: "code.example"}, repohost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o.Checks = []Check{SurfaceCheck{}, ProvenanceCheck{Repositories: client}}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := rundir.Read(res.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var prov *rundir.Result
	for i, r := range f.Results {
		if r.Check == vocab.CheckProvenance {
			prov = &f.Results[i]
		}
	}
	if prov == nil || prov.Outcome == "" || prov.Outcome == vocab.ResultError {
		t.Fatalf("no usable publisher_provenance result row: %+v", f.Results)
	}
	kinds := map[string]bool{}
	for _, r := range f.Records {
		kinds[r.Kind] = true
		if r.Package.Name != "srv" {
			t.Errorf("record %s carries package %v", r.Kind, r.Package)
		}
	}
	if len(host.Requests()) == 0 {
		t.Fatal("the code host was never asked")
	}
	var hostRecords int
	for _, r := range f.Records {
		if r.URL != "" && len(r.URL) > len(hostSrv.URL) && r.URL[:len(hostSrv.URL)] == hostSrv.URL {
			hostRecords++
			if r.SHA256 == "" {
				t.Errorf("host record %s has no blob", r.URL)
			}
		}
	}
	if hostRecords == 0 {
		t.Fatalf("no repository-host record indexed in records.json: %v", kinds)
	}
}
