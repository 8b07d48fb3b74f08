package checks

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/attestari/attestari/internal/rundir"
)

func tagsOf(t *testing.T, in ExfilContextInput) map[string]rundir.ContextTag {
	t.Helper()
	got, err := ExfilContext(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d tags", len(got))
	}
	out := map[string]rundir.ContextTag{}
	for i, tag := range got {
		if tag.Tag != ExfilContextTags[i] || tag.Why == "" || tag.Applied != (tag.Evidence != "") {
			t.Fatalf("tag %d = %+v", i, tag)
		}
		out[tag.Tag] = tag
	}
	return out
}

func files(m map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for k, v := range m {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys
}

var shared = SharedHosts{Labels: DefaultSharedLabels}

func TestAllThreeTagsEstablished(t *testing.T) {
	in := ExfilContextInput{Shared: shared, Files: files(map[string]string{
		"package.json":      `{"name": "tool", "homepage": "https://acme.example", "repository": "github:acme/tool"}`,
		"dist/index.js":     "const base = 'https://api.acme.example/v1';\nawait fetch(base + '/q', {body});\n",
		"dist/telemetry.js": "if (process.env.ACME_TELEMETRY_DISABLED) return;\n",
		"README.md":         "# tool\n\nAnonymous usage data is collected to improve the tool.\n",
	})}
	got := tagsOf(t, in)
	for _, tag := range ExfilContextTags {
		if !got[tag].Applied {
			t.Errorf("%s not applied: %s", tag, got[tag].Why)
		}
	}
	if !strings.Contains(got[TagDestinationPublisherOwned].Evidence, "api.acme.example (dist/index.js:1) on acme.example") {
		t.Errorf("evidence %q", got[TagDestinationPublisherOwned].Evidence)
	}
	if !strings.HasPrefix(got[TagDisclosedInReadme].Evidence, "README.md:3: ") {
		t.Errorf("evidence %q", got[TagDisclosedInReadme].Evidence)
	}
	if !strings.HasPrefix(got[TagOptOutAvailable].Evidence, "dist/telemetry.js:1: ") || !strings.Contains(got[TagOptOutAvailable].Why, "ACME_TELEMETRY_DISABLED") {
		t.Errorf("%+v", got[TagOptOutAvailable])
	}
}

func TestSharedHostIsNeverOwn(t *testing.T) {
	in := ExfilContextInput{Shared: shared, Files: files(map[string]string{
		"package.json": `{"homepage": "https://acme.github.example/tool#readme", "repository": {"url": "git+https://forge.github.example/acme/tool.git"}}`,
		"index.js":     "fetch('https://acme.github.example/collect')\n",
	})}
	got := tagsOf(t, in)
	o := got[TagDestinationPublisherOwned]
	if o.Applied || !strings.Contains(o.Why, "shared host") {
		t.Fatalf("%+v", o)
	}
}

func TestForeignDestinationIsNotOwned(t *testing.T) {
	in := ExfilContextInput{Shared: shared, Files: files(map[string]string{
		"package.json": `{"homepage": "https://acme.example"}`,
		"a.py":         "import requests\nrequests.post(\"https://api.acme.example/x\")\nrequests.post('https://collector.other.example/y')\n",
	})}
	o := tagsOf(t, in)[TagDestinationPublisherOwned]
	if o.Applied || !strings.Contains(o.Why, "collector.other.example (a.py:3)") {
		t.Fatalf("%+v", o)
	}
}

func TestNoDestinationOrNoNetworkFile(t *testing.T) {
	in := ExfilContextInput{Shared: shared, Files: files(map[string]string{
		"package.json": `{"homepage": "https://acme.example"}`,
		"docs.js":      "const schema = 'https://schemas.other.example/s.json';\n",
	})}
	o := tagsOf(t, in)[TagDestinationPublisherOwned]
	if o.Applied || !strings.Contains(o.Why, "no network destination") {
		t.Fatalf("%+v", o)
	}
}

func TestRegistryRecordSuppliesOwnDomain(t *testing.T) {
	in := ExfilContextInput{Shared: shared, Registry: []byte(`{"homepage": "https://www.acme.example/"}`), Files: files(map[string]string{
		"package.json": `{"name": "tool"}`,
		"i.ts":         "await fetch(`https://acme.example/api/${x}`)\n",
	})}
	// The destination acme.example is not a subdomain of www.acme.example.
	if o := tagsOf(t, in)[TagDestinationPublisherOwned]; o.Applied {
		t.Fatalf("%+v", o)
	}
	in.Registry = []byte(`{"repository": {"url": "git+https://acme.example/tool.git"}}`)
	if o := tagsOf(t, in)[TagDestinationPublisherOwned]; !o.Applied || !strings.Contains(o.Why, "registry record repository") {
		t.Fatalf("%+v", o)
	}
}

func TestCapabilityInventoryDecidesNetworkFiles(t *testing.T) {
	fsys := files(map[string]string{
		"package.json": `{"homepage": "https://acme.example"}`,
		"a.js":         "client.call('https://api.acme.example/')\n",
		"b.js":         "fetch('https://elsewhere.example/')\n",
	})
	s := &rundir.Surface{Capabilities: []rundir.Capability{{Kind: "network", File: "a.js", Target: "api.acme.example"}},
		Files: []rundir.SourceFile{{Path: "b.js"}, {Path: "a.js"}}}
	if o := tagsOf(t, ExfilContextInput{Shared: shared, Files: fsys, Surface: s})[TagDestinationPublisherOwned]; !o.Applied || !strings.Contains(o.Why, "capability inventory") {
		t.Fatalf("%+v", o)
	}
	// A vendored member is not read.
	s.Files[0].Vendored = true
	s.Capabilities = append(s.Capabilities, rundir.Capability{Kind: "network", File: "b.js"})
	if o := tagsOf(t, ExfilContextInput{Shared: shared, Files: fsys, Surface: s})[TagDestinationPublisherOwned]; !o.Applied {
		t.Fatalf("vendored member read: %+v", o)
	}
}

func TestReadmeLinkIsNotADisclosure(t *testing.T) {
	base := map[string]string{
		"package.json": `{"homepage": "https://acme.example"}`,
		"index.js":     "fetch('https://api.acme.example/q')\n",
	}
	for readmeText, want := range map[string]bool{
		"See [the API](https://api.acme.example/docs/report-a-bug).\n": false,
		"Docs: https://api.acme.example/sent-items\n":                  false,
		"Your query is sent to api.acme.example for ranking.\n":        true,
		"We use analytics.\n": false,
		"Telemetry: the tool reports anonymous counts; set ACME_NO_TRACK=1.\n":  true,
		"This README mentions api.acme.example and nothing else of interest.\n": false,
	} {
		m := map[string]string{"README.md": readmeText}
		for k, v := range base {
			m[k] = v
		}
		if o := tagsOf(t, ExfilContextInput{Shared: shared, Files: files(m)})[TagDisclosedInReadme]; o.Applied != want {
			t.Errorf("%q: %+v", readmeText, o)
		}
	}
	if o := tagsOf(t, ExfilContextInput{Shared: shared, Files: files(base)})[TagDisclosedInReadme]; o.Applied || o.Why != "the artifact has no README" {
		t.Errorf("%+v", o)
	}
}

func TestOptOut(t *testing.T) {
	for src, want := range map[string]bool{
		"if (fs.existsSync(path.join(os.homedir(), '.acme-telemetry-opt-out'))) return\n": true,
		"import os\nif os.getenv('DO_NOT_TRACK'): pass\n":                                 true,
		"const k = process.env.ACME_API_KEY\n":                                            false,
		"// set DO_NOT_TRACK to disable, but this file reads no environment\n":            false,
		"if (existsSync('/etc/acme.conf')) load()\n":                                      false,
	} {
		o := tagsOf(t, ExfilContextInput{Shared: shared, Files: files(map[string]string{"src/x.js": src})})[TagOptOutAvailable]
		if o.Applied != want {
			t.Errorf("%q: %+v", src, o)
		}
	}
}

func TestSharedHostsConfiguration(t *testing.T) {
	t.Setenv(EnvSharedHosts, "mirror.example, label:forge ,")
	s := DefaultSharedHosts("https://npm.proxy.example/registry/", "git@code.example:o/r")
	for h, want := range map[string]bool{
		"mirror.example": true, "pkgs.mirror.example": true, "notmirror.example": false,
		"x.forge.example": true, "forge": false, "npm.proxy.example": true, "code.example": true,
		"acme.example": false, "pages.gitlab.example": true,
	} {
		if s.Shared(h) != want {
			t.Errorf("Shared(%q) = %v", h, !want)
		}
	}
}

func TestTaggerHook(t *testing.T) {
	members := map[string]string{
		"package.json": `{"homepage": "https://acme.example"}`,
		"dist/a.js":    "fetch('https://api.acme.example/')\n",
		"README.md":    "Usage data is shared with the acme team.\n",
	}
	member := func(p string) ([]byte, bool) {
		s, ok := members[p]
		return []byte(s), ok
	}
	s := &rundir.Surface{Files: []rundir.SourceFile{{Path: "dist/a.js"}, {Path: "../escape.js"}}}
	tg := ExfilTagger{Shared: shared, RegistryRecord: func(context.Context, rundir.PackageRef) ([]byte, bool) { return nil, false }}
	got, err := tg.Tags(context.Background(), rundir.Finding{Tag: "exfiltrate_data"}, s, member)
	if err != nil || len(got) != 3 || !got[0].Applied || !got[1].Applied || got[2].Applied {
		t.Fatalf("%+v %v", got, err)
	}
}

func FuzzExfilContext(f *testing.F) {
	f.Add([]byte(`{"homepage":"https://a.example"}`), []byte("fetch('https://a.example/x')"), []byte("telemetry is sent"))
	f.Add([]byte(`{"repository":{"url":7}}`), []byte("`https://"), []byte("\xff"))
	f.Fuzz(func(t *testing.T, pj, src, rd []byte) {
		in := ExfilContextInput{Shared: shared, Registry: pj, Files: fstest.MapFS{
			"package.json": {Data: pj}, "a.js": {Data: src}, "README.md": {Data: rd}, "pyproject.toml": {Data: rd}, "PKG-INFO": {Data: pj},
		}}
		got, err := ExfilContext(context.Background(), in)
		if err != nil || len(got) != 3 {
			t.Fatalf("%v %v", got, err)
		}
	})
}
