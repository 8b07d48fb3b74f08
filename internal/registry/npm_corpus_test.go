//go:build corpus

package registry_test

// The opt-in real-registry test: go test -tags corpus -run Corpus ./internal/registry/
// It talks to whatever registry this machine's npm client is configured for
// (DefaultNPMRegistry: $ATTESTARI_NPM_REGISTRY, else `npm config get
// registry`), fetches one small real MCP server, and checks that the client
// reads the real wire format and that integrity verification accepts the
// real tarball.

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/vocab"
)

const corpusPackage = "@modelcontextprotocol/server-memory" // scoped, small, an MCP server

func TestCorpusNPMPackage(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base, err := registry.DefaultNPMRegistry(ctx)
	if err != nil {
		t.Fatalf("no registry configured: %v", err)
	}
	c, err := registry.NewNPM(base, registry.Options{Version: "corpus-test"})
	if err != nil {
		t.Fatal(err)
	}

	p, err := c.Packument(ctx, corpusPackage)
	if err != nil {
		t.Fatalf("packument: %v (record %+v)", err, p.Response.Record)
	}
	if p.Name != corpusPackage || len(p.Versions) == 0 || p.DistTags["latest"] == "" {
		t.Fatalf("packument: name %q, %d versions, tags %v", p.Name, len(p.Versions), p.DistTags)
	}
	if p.Response.Record.SHA256 == "" || len(p.Response.Body) == 0 {
		t.Errorf("packument record = %+v", p.Response.Record)
	}

	res, err := registry.ResolveVersion(p, "latest")
	if err != nil || res.How != registry.HowDistTag {
		t.Fatalf("resolve latest: %+v %v", res, err)
	}
	v := p.Versions[res.Version]
	if v.Dist.Integrity == "" || p.Time[res.Version].IsZero() {
		t.Errorf("version %s: integrity %q, time %v", res.Version, v.Dist.Integrity, p.Time[res.Version])
	}
	// Some registries (mirrors) strip the publisher record; say so rather
	// than fail, since publisher_provenance must then record the absence.
	t.Logf("publisher record here: %d maintainers, _npmUser present %v, dist.attestations present %v, problems %v",
		len(p.Maintainers), v.NPMUser != nil, v.Dist.Attestations != nil, p.Problems)

	doc, err := c.Version(ctx, corpusPackage, res.Version)
	if err != nil {
		t.Fatalf("version manifest: %v", err)
	}
	if doc.Manifest.Version != res.Version || doc.Manifest.Dist.Integrity != v.Dist.Integrity {
		t.Errorf("version manifest disagrees with packument: %q %q", doc.Manifest.Version, doc.Manifest.Dist.Integrity)
	}

	a, err := c.Tarball(ctx, v)
	if err != nil {
		t.Fatalf("tarball: %v (record %+v)", err, a.Response.Record)
	}
	if a.Algorithm != "sha512" || a.Response.Record.Outcome != vocab.RecordOK || !bytes.HasPrefix(a.Response.Body, []byte{0x1f, 0x8b}) {
		t.Errorf("tarball: %q %+v", a.Algorithm, a.Response.Record)
	}

	// Tampering with the published integrity must refuse the same bytes.
	bad := *v
	bad.Dist.Integrity = registry.SRI(append([]byte("x"), a.Response.Body...))
	if _, err := c.Tarball(ctx, &bad); !errors.As(err, new(*registry.IntegrityError)) {
		t.Errorf("tampered integrity accepted: %v", err)
	}

	att, err := c.Attestations(ctx, corpusPackage, res.Version)
	switch {
	case v.Dist.Attestations != nil && err != nil:
		t.Errorf("dist.attestations published but endpoint failed: %v", err)
	case err != nil && !errors.Is(err, registry.ErrNotFound):
		t.Errorf("attestations: %v", err)
	case err == nil && len(att.Attestations) == 0:
		t.Errorf("attestations answered with none")
	}
	t.Logf("%s@%s: packument %d bytes, tarball %d bytes (sha256 %s), attestations outcome %s",
		corpusPackage, res.Version, len(p.Response.Body), len(a.Response.Body), a.Response.Record.SHA256, att.Response.Record.Outcome)
}
