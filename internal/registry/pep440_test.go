package registry_test

import (
	"errors"
	"testing"

	"github.com/attestari/attestari/internal/registry"
)

func TestParsePEP440Normalises(t *testing.T) {
	cases := map[string]string{
		"1.0":              "1.0",
		"v1.0":             "1.0",
		"1.0.0":            "1.0.0",
		"1!2.0":            "1!2.0",
		"1.0a1":            "1.0a1",
		"1.0-alpha.1":      "1.0a1",
		"1.0.beta2":        "1.0b2",
		"1.0c3":            "1.0rc3",
		"1.0pre4":          "1.0rc4",
		"1.0preview5":      "1.0rc5",
		"1.0RC1":           "1.0rc1",
		"1.0a":             "1.0a0",
		"1.0-1":            "1.0.post1",
		"1.0.post":         "1.0.post0",
		"1.0-r2":           "1.0.post2",
		"1.0rev3":          "1.0.post3",
		"1.0.dev":          "1.0.dev0",
		"1.0-dev7":         "1.0.dev7",
		"1.0a1.post2.dev3": "1.0a1.post2.dev3",
		"1.0+ubuntu-1":     "1.0+ubuntu.1",
		"1.0+ABC_def.3":    "1.0+abc.def.3",
		" 2.1 ":            "2.1",
	}
	for in, want := range cases {
		v, err := registry.ParsePEP440(in)
		if err != nil || v.String() != want {
			t.Errorf("%q: got %q, %v; want %q", in, v.String(), err, want)
		}
	}
	for _, bad := range []string{"", "abc", "1.0-", "1..0", "1.0+", "1.0+a..b", "1.0 beta", "99999999999999999999999.0", "1.0.x"} {
		if _, err := registry.ParsePEP440(bad); !errors.Is(err, registry.ErrInvalidSpecifier) {
			t.Errorf("%q parsed: %v", bad, err)
		}
	}
}

func TestPEP440Order(t *testing.T) {
	// Strictly increasing, from PEP 440's own ordering examples.
	ordered := []string{
		"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12",
		"1.0b1.dev456", "1.0b2", "1.0b2.post345.dev456", "1.0b2.post345",
		"1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0+abc.7", "1.0+5", "1.0.post456.dev34",
		"1.0.post456", "1.0.15", "1.1.dev1", "1!0.1",
	}
	for i := range ordered {
		a, err := registry.ParsePEP440(ordered[i])
		if err != nil {
			t.Fatal(err)
		}
		if a.Compare(a) != 0 {
			t.Errorf("%s != itself", ordered[i])
		}
		for j := i + 1; j < len(ordered); j++ {
			b, _ := registry.ParsePEP440(ordered[j])
			if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
				t.Errorf("want %s < %s", ordered[i], ordered[j])
			}
		}
	}
	for _, eq := range [][2]string{{"1.0", "1.0.0"}, {"1.0", "1.0.0.0"}, {"0!1.0", "1.0"}, {"1.0a1", "1.0alpha1"}, {"1.0.post1", "1.0-1"}} {
		a, _ := registry.ParsePEP440(eq[0])
		b, _ := registry.ParsePEP440(eq[1])
		if a.Compare(b) != 0 {
			t.Errorf("want %s == %s", eq[0], eq[1])
		}
	}
}

func TestPEP440Specifiers(t *testing.T) {
	cases := []struct {
		spec  string
		admit []string
		deny  []string
	}{
		{"", []string{"1.0", "0.1", "1.0.post1", "1.0+local"}, []string{"1.0a1", "1.0.dev1"}},
		{"==1.0", []string{"1.0", "1.0.0", "1.0+local"}, []string{"1.0.1", "1.0.post1", "1.0a1"}},
		{"==1.0+local", []string{"1.0+local"}, []string{"1.0", "1.0+other"}},
		{"==1.0.*", []string{"1.0", "1.0.5", "1.0.5.post1"}, []string{"1.1", "1.0.5a1", "10.0"}},
		{"==1.*", []string{"1.0", "1.99"}, []string{"2.0", "0.9"}},
		{"!=1.0", []string{"1.0.1", "0.9"}, []string{"1.0", "1.0.0", "1.0+x"}},
		{"!=1.0.*", []string{"1.1", "0.9"}, []string{"1.0", "1.0.3"}},
		{"~=2.2", []string{"2.2", "2.3", "2.9.1", "2.2.post3"}, []string{"3.0", "2.1", "2.3a1"}},
		{"~=1.4.5", []string{"1.4.5", "1.4.9"}, []string{"1.5.0", "1.4.4"}},
		{"~=2.2.0rc1", []string{"2.2.0rc1", "2.2.0", "2.2.3"}, []string{"2.3", "2.2.0b1"}},
		{">=1.0", []string{"1.0", "2.0", "1.0+x", "1.0.post1"}, []string{"0.9", "1.1a1"}},
		{"<=1.0", []string{"1.0", "0.5", "1.0+x"}, []string{"1.0.post1", "1.1"}},
		{">1.7", []string{"1.7.1", "1.8"}, []string{"1.7", "1.7.post2", "1.7+local"}},
		{">1.7.post2", []string{"1.7.post3", "1.8"}, []string{"1.7.post2", "1.7.post1"}},
		{"<2.0", []string{"1.9", "1.9.post1"}, []string{"2.0", "2.0.post1"}},
		{"<2.0rc1", []string{"1.9", "2.0b1", "2.0a1"}, []string{"2.0rc1", "2.0"}},
		{">=1.0a1", []string{"1.0a1", "1.0", "1.1b2"}, []string{"1.0.dev3", "0.9"}},
		{">=1.0, <2.0, !=1.5", []string{"1.0", "1.4", "1.6"}, []string{"1.5", "2.0", "0.9"}},
		{"===1.0", []string{"1.0"}, []string{"1.0.0", "1.0+x"}},
		{"==1.0.dev2", []string{"1.0.dev2"}, []string{"1.0"}},
	}
	for _, c := range cases {
		s, err := registry.ParsePEP440Specifier(c.spec)
		if err != nil {
			t.Errorf("%q: %v", c.spec, err)
			continue
		}
		check := func(v string, want bool) {
			pv, err := registry.ParsePEP440(v)
			if err != nil {
				t.Fatalf("%q: %v", v, err)
			}
			if got := s.Admits(pv); got != want {
				t.Errorf("%q admits %q = %v, want %v", c.spec, v, got, want)
			}
		}
		for _, v := range c.admit {
			check(v, true)
		}
		for _, v := range c.deny {
			check(v, false)
		}
	}
	for _, bad := range []string{">=1.0.*", "~=1", "=1.0", ">=1.0+local", "==1.0.post1.*", "1.0", ">=", ">=1.0 <2.0"} {
		if _, err := registry.ParsePEP440Specifier(bad); !errors.Is(err, registry.ErrInvalidSpecifier) {
			t.Errorf("%q: err = %v, want ErrInvalidSpecifier", bad, err)
		}
	}
	for _, unsup := range []string{`>=1.0; python_version < "3.8"`, "pkg @ https://example.test/x.whl", "[extra]>=1"} {
		if _, err := registry.ParsePEP440Specifier(unsup); !errors.Is(err, registry.ErrUnsupportedSpecifier) {
			t.Errorf("%q: err = %v, want ErrUnsupportedSpecifier", unsup, err)
		}
	}
}

func TestResolvePEP440(t *testing.T) {
	versions := []string{"0.9", "1.0", "1.0.post1", "1.1", "1.2rc1", "1.2.dev3", "2.0", "2.1a1", "2.1.0b2", "legacy-junk", "3.0+local"}
	cases := []struct {
		spec, want, how string
		err             error
	}{
		{"", "3.0+local", registry.HowHighestMatch, nil},
		{"<3", "2.0", registry.HowHighestMatch, nil},
		{">=1.0,<2", "1.1", registry.HowHighestMatch, nil},
		{"~=1.0", "1.1", registry.HowHighestMatch, nil},
		{"~=1.0.0", "1.0.post1", registry.HowHighestMatch, nil},
		{"==1.0", "1.0", registry.HowExact, nil},
		{"==1.*", "1.1", registry.HowHighestMatch, nil},
		{">=1.2rc1,<2", "1.2rc1", registry.HowHighestMatch, nil},
		{">=2.1a1,<3", "2.1.0b2", registry.HowHighestMatch, nil},
		{">=2.0,<3", "2.0", registry.HowHighestMatch, nil},
		{"==1.2rc1", "1.2rc1", registry.HowExact, nil},
		{">5", "", "", registry.ErrNoMatch},
		{"bogus", "", "", registry.ErrInvalidSpecifier},
	}
	for _, c := range cases {
		got, err := registry.ResolvePEP440(versions, c.spec)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%q: err = %v, want %v", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || got.Version != c.want || got.How != c.how {
			t.Errorf("%q: got %+v %v, want %s (%s)", c.spec, got, err, c.want, c.how)
		}
	}
	// The version comes back as listed, not normalised, so it can go
	// back into a URL.
	got, err := registry.ResolvePEP440([]string{"1.0-1", "0.5"}, ">=1")
	if err != nil || got.Version != "1.0-1" {
		t.Errorf("spelling kept: %+v %v", got, err)
	}
}
