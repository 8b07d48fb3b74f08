package registry_test

import (
	"context"
	"errors"
	"testing"

	"github.com/attestari/attestari/internal/registry"
	"github.com/attestari/attestari/internal/registry/fakeregistry"
)

func packumentOf(versions []string, tags map[string]string) *registry.Packument {
	p := &registry.Packument{Name: "p", DistTags: tags, Versions: map[string]*registry.VersionManifest{}}
	for _, v := range versions {
		p.Versions[v] = &registry.VersionManifest{Name: "p", Version: v}
	}
	return p
}

// Expected values follow the npm client's semver semantics, except where
// the methodology chooses differently (highest match, never "latest first").
func TestResolveVersionNPM(t *testing.T) {
	p := packumentOf([]string{
		"0.0.1", "0.0.2", "0.1.0", "0.1.5", "0.2.0", "1.0.0", "1.2.3", "1.2.4-beta.1", "1.2.4",
		"1.3.0-rc.1", "1.9.9", "2.0.0-alpha.1", "2.0.0", "2.1.0", "3.0.0-beta.2", "not-semver",
	}, map[string]string{"latest": "2.0.0", "next": "3.0.0-beta.2", "broken": "9.9.9"})

	cases := []struct {
		spec, want, how string
		err             error
	}{
		{"", "2.1.0", registry.HowHighestMatch, nil},
		{"*", "2.1.0", registry.HowHighestMatch, nil},
		{"x", "2.1.0", registry.HowHighestMatch, nil},
		{"  ^1.2.3  ", "1.9.9", registry.HowHighestMatch, nil},
		{"latest", "2.0.0", registry.HowDistTag, nil},
		{"next", "3.0.0-beta.2", registry.HowDistTag, nil},
		{"beta", "", "", registry.ErrNoMatch},
		{"broken", "", "", registry.ErrNoMatch},
		{"1.2.3", "1.2.3", registry.HowExact, nil},
		{"=1.2.3", "1.2.3", registry.HowExact, nil},
		{"v1.2.3", "1.2.3", registry.HowExact, nil},
		{"1.2.4-beta.1", "1.2.4-beta.1", registry.HowExact, nil},
		{"1.2.5", "", "", registry.ErrNoMatch},
		{"^1.2.3", "1.9.9", registry.HowHighestMatch, nil},
		{"~1.2.3", "1.2.4", registry.HowHighestMatch, nil},
		{"^0.1.0", "0.1.5", registry.HowHighestMatch, nil},
		{"^0.0.1", "0.0.1", registry.HowHighestMatch, nil},
		{"~0", "0.2.0", registry.HowHighestMatch, nil},
		{"1.x", "1.9.9", registry.HowHighestMatch, nil},
		{"1.2.x", "1.2.4", registry.HowHighestMatch, nil},
		{"1.2.*", "1.2.4", registry.HowHighestMatch, nil},
		{"1", "1.9.9", registry.HowHighestMatch, nil},
		{"1.2", "1.2.4", registry.HowHighestMatch, nil},
		{">=1.2.4 <2", "1.9.9", registry.HowHighestMatch, nil},
		{">=1.2.4, <2", "1.9.9", registry.HowHighestMatch, nil},
		{">1.2", "2.1.0", registry.HowHighestMatch, nil},
		{">1.2 <2.0.0", "1.9.9", registry.HowHighestMatch, nil},
		{"<1.2", "1.0.0", registry.HowHighestMatch, nil},
		{"<=1.2", "1.2.4", registry.HowHighestMatch, nil},
		{"1.0.0 - 1.2.3", "1.2.3", registry.HowHighestMatch, nil},
		{"1.2.3 - 2", "2.1.0", registry.HowHighestMatch, nil},
		{"^1.0.0 || ^2.0.0", "2.1.0", registry.HowHighestMatch, nil},
		{"<1.0.0 || >=2.0.0 <2.1.0", "2.0.0", registry.HowHighestMatch, nil},
		{"<0.1.0 || <0.0.2", "0.0.2", registry.HowHighestMatch, nil},
		// Pre-releases: excluded unless named, and then only for the
		// same major.minor.patch.
		{"<2.0.0", "1.9.9", registry.HowHighestMatch, nil},
		{">=3", "", "", registry.ErrNoMatch},
		{">=1.2.4-beta.1 <1.2.4", "1.2.4-beta.1", registry.HowHighestMatch, nil},
		{"^1.2.4-beta.0", "1.9.9", registry.HowHighestMatch, nil},
		{">=1.2.4-beta.0 <1.9.0", "1.2.4", registry.HowHighestMatch, nil},
		{"~1.3.0-rc.0", "1.3.0-rc.1", registry.HowHighestMatch, nil},
		{">=1.2.4-beta.0 <1.3.1", "1.2.4", registry.HowHighestMatch, nil},
		{"^3.0.0-beta.1", "3.0.0-beta.2", registry.HowHighestMatch, nil},
		{"^3.0.0-beta.1 || ^1.0.0", "3.0.0-beta.2", registry.HowHighestMatch, nil},
		{"^4", "", "", registry.ErrNoMatch},
		// Not registry versions.
		{"npm:other@^1.0.0", "", "", registry.ErrUnsupportedSpecifier},
		{"git+https://example.test/x.git", "", "", registry.ErrUnsupportedSpecifier},
		{"https://example.test/x.tgz", "", "", registry.ErrUnsupportedSpecifier},
		{"owner/repo", "", "", registry.ErrUnsupportedSpecifier},
		{"file:../x", "", "", registry.ErrUnsupportedSpecifier},
		{"workspace:*", "", "", registry.ErrUnsupportedSpecifier},
		{">=>1", "", "", registry.ErrInvalidSpecifier},
		{"1.2.3.4", "", "", registry.ErrInvalidSpecifier},
	}
	for _, c := range cases {
		got, err := registry.ResolveVersion(p, c.spec)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%q: err = %v (version %q), want %v", c.spec, err, got.Version, c.err)
			}
			continue
		}
		if err != nil || got.Version != c.want || got.How != c.how || got.Specifier != c.spec {
			t.Errorf("%q: got %+v, %v; want %s (%s)", c.spec, got, err, c.want, c.how)
		}
	}
}

func TestResolveVersionNoVersions(t *testing.T) {
	if _, err := registry.ResolveVersion(packumentOf(nil, nil), "*"); !errors.Is(err, registry.ErrNoMatch) {
		t.Errorf("empty packument: %v", err)
	}
	if _, err := registry.ResolveVersion(nil, "*"); !errors.Is(err, registry.ErrNoMatch) {
		t.Errorf("nil packument: %v", err)
	}
}

// Through the wire: a packument from the fake resolves like a built one.
func TestResolveVersionFromFake(t *testing.T) {
	e := newEnv(t)
	for _, v := range []string{"1.0.0", "1.4.0", "2.0.0-rc.1"} {
		e.fake.AddNPM("@s/target", v, tgz, fakeregistry.NPMOptions{})
	}
	p, err := e.npm.Packument(context.Background(), "@s/target")
	if err != nil {
		t.Fatal(err)
	}
	r, err := registry.ResolveVersion(p, "^1")
	if err != nil || r.Version != "1.4.0" {
		t.Errorf("^1: %+v %v", r, err)
	}
	r, err = registry.ResolveVersion(p, "latest")
	if err != nil || r.Version != "1.4.0" {
		t.Errorf("latest: %+v %v", r, err)
	}
}
