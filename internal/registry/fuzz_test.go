package registry

import (
	"testing"
)

// Registry documents are untrusted bytes: parsing them must end in a value
// or an error, never a panic.
func FuzzParsePackument(f *testing.F) {
	f.Add([]byte(`{"name":"p","dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"name":"p","version":"1.0.0","_npmUser":"A <a@b>","dist":{"integrity":"sha512-x"}}},"time":{"1.0.0":"2020-01-01T00:00:00Z","unpublished":{}},"maintainers":["x",{"name":1}],"repository":"o/r"}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"versions":{"1":null},"time":null,"maintainers":{"name":"x"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var p Packument
		if err := parsePackument(&p, b); err != nil {
			return
		}
		for _, v := range p.Versions {
			if v == nil {
				t.Fatal("nil version kept")
			}
		}
		_, _ = ResolveVersion(&p, "^1.0.0")
	})
}

func FuzzPEP440(f *testing.F) {
	for _, s := range []string{"1.0", "1!2.0a1.post2.dev3+abc.1", "v1.0-1", "1.0.*", "01.002"} {
		f.Add(s, "1.0rc1")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		va, errA := ParsePEP440(a)
		vb, errB := ParsePEP440(b)
		if errA == nil {
			// Normalising is idempotent and preserves order.
			again, err := ParsePEP440(va.String())
			if err != nil || again.Compare(va) != 0 || again.String() != va.String() {
				t.Fatalf("%q → %q → %v %q", a, va.String(), err, again.String())
			}
		}
		if errA == nil && errB == nil && va.Compare(vb) != -vb.Compare(va) {
			t.Fatalf("Compare not antisymmetric: %q %q", a, b)
		}
		if s, err := ParsePEP440Specifier(a); err == nil && errB == nil {
			_ = s.Admits(vb)
		}
	})
}

func FuzzResolveVersionNPM(f *testing.F) {
	p := &Packument{Name: "p", DistTags: map[string]string{"latest": "1.0.0"}, Versions: map[string]*VersionManifest{}}
	for _, v := range []string{"0.1.0", "1.0.0", "1.1.0-beta.1", "2.0.0"} {
		p.Versions[v] = &VersionManifest{Version: v}
	}
	for _, s := range []string{"^1", "~1.1.0-beta.0", "1 - 2", ">=1 <2 || 0.x", "latest", "*", "v1.0.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		r, err := ResolveVersion(p, spec)
		if err == nil {
			if _, ok := p.Versions[r.Version]; !ok {
				t.Fatalf("%q resolved to unpublished %q", spec, r.Version)
			}
		}
	})
}
