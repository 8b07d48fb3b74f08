package api_test

import (
	"errors"
	"testing"

	"github.com/attestari/attestari/api"
)

func TestParsePURL(t *testing.T) {
	for in, want := range map[string]api.PackageKey{
		"pkg:npm/%40scope/name@1.2.3":                                 {Registry: "npm", Name: "@scope/name", Version: "1.2.3"},
		"pkg:npm/@scope/name@1.2.3":                                   {Registry: "npm", Name: "@scope/name", Version: "1.2.3"},
		"pkg:npm/name@1.2.3":                                          {Registry: "npm", Name: "name", Version: "1.2.3"},
		"pkg:NPM/Name@1.0.0-beta.1":                                   {Registry: "npm", Name: "name", Version: "1.0.0-beta.1"},
		"pkg://npm/name@1.0.0":                                        {Registry: "npm", Name: "name", Version: "1.0.0"},
		"pkg:npm/name@1.0.0?checksum=sha256:ab":                       {Registry: "npm", Name: "name", Version: "1.0.0"},
		"pkg:npm/name@1.0.0#dist/index.js":                            {Registry: "npm", Name: "name", Version: "1.0.0"},
		"pkg:npm/%40s/n@1.0.0%2Bbuild.5":                              {Registry: "npm", Name: "@s/n", Version: "1.0.0+build.5"},
		"pkg:pypi/name@1.0":                                           {Registry: "pypi", Name: "name", Version: "1.0"},
		"pkg:pypi/Django_Rest@3.0":                                    {Registry: "pypi", Name: "django-rest", Version: "3.0"},
		"pkg:pypi/mcp-server-fetch@2025.1.17":                         {Registry: "pypi", Name: "mcp-server-fetch", Version: "2025.1.17"},
		"pkg:pypi/name@1!2.0.post1":                                   {Registry: "pypi", Name: "name", Version: "1!2.0.post1"},
		"pkg:npm/%40modelcontextprotocol/server-everything@2025.9.25": {Registry: "npm", Name: "@modelcontextprotocol/server-everything", Version: "2025.9.25"},
	} {
		got, err := api.ParsePURL(in)
		if err != nil || got != want {
			t.Errorf("ParsePURL(%q) = %+v, %v; want %+v", in, got, err, want)
		}
	}
	for _, bad := range []string{
		"", "pkg:", "npm/name@1", "pkg:npm/name", "pkg:npm/name@", "pkg:maven/g/a@1", "pkg:npm/a/b/c@1",
		"pkg:npm/scope/name@1", "pkg:pypi/a/b@1", "pkg:npm/%zz@1", "pkg:npm/name@%zz", "pkg:npm/na%2Fme@1",
		"pkg:npm/name@1?repository_url=example.invalid", "pkg:npm/@scope@1", "pkg:npm/name@1 2", "pkg:pypi/-bad@1",
		"pkg:npm/%00@1", "pkg:npm/.hidden@1", "pkg:npm/name@1?a=%zz",
	} {
		if k, err := api.ParsePURL(bad); !errors.Is(err, api.ErrBadPURL) {
			t.Errorf("ParsePURL(%q) = %+v, %v; want ErrBadPURL", bad, k, err)
		}
	}
}

func TestPURLRoundTrip(t *testing.T) {
	for _, k := range []api.PackageKey{
		{Registry: "npm", Name: "@scope/name", Version: "1.2.3"},
		{Registry: "npm", Name: "a.b_c~d", Version: "0.0.1-rc.1+x"},
		{Registry: "pypi", Name: "some.pkg", Version: "1!2.0.post1"},
	} {
		s := k.PURL()
		got, err := api.ParsePURL(s)
		if err != nil || got != k {
			t.Errorf("%+v → %s → %+v, %v", k, s, got, err)
		}
	}
	if s := (api.PackageKey{Registry: "npm", Name: "@scope/name", Version: "1.0.0"}).PURL(); s != "pkg:npm/%40scope/name@1.0.0" {
		t.Errorf("canonical form: %s", s)
	}
}

// FuzzParsePURL: any input ends in a key or ErrBadPURL, never a panic; a key
// is valid under its registry's rules and survives a round trip through its
// canonical form.
func FuzzParsePURL(f *testing.F) {
	for _, s := range []string{"pkg:npm/%40scope/name@1.2.3", "pkg:pypi/Name_X@1.0", "pkg:npm/a@1?x=y#z", "pkg://npm//a//@1", "pkg:npm/%40a%2Fb/c@1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := api.ParsePURL(s)
		if err != nil {
			if !errors.Is(err, api.ErrBadPURL) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if err := k.Validate(); err != nil {
			t.Fatalf("%q parsed to an invalid key %+v: %v", s, k, err)
		}
		again, err := api.ParsePURL(k.PURL())
		if err != nil || again != k {
			t.Fatalf("%q → %+v → %q → %+v, %v", s, k, k.PURL(), again, err)
		}
	})
}
