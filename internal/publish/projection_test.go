package publish

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/vocab"
)

func TestParsePointer(t *testing.T) {
	cases := []struct {
		in   string
		want []string
		err  bool
	}{
		{"", nil, false},
		{"#", nil, false},
		{"/a/b", []string{"a", "b"}, false},
		{"/versions/1.0.0/_npmUser", []string{"versions", "1.0.0", "_npmUser"}, false},
		{"/a~1b/c~0d/~01", []string{"a/b", "c~d", "~1"}, false},
		{"#/a%20b/c", []string{"a b", "c"}, false},
		{"/", []string{""}, false},
		{"a/b", nil, true},
		{"/a~2", nil, true},
		{"#/%zz", nil, true},
	}
	for _, c := range cases {
		got, err := ParsePointer(c.in)
		if (err != nil) != c.err || !slices.Equal(got, c.want) {
			t.Errorf("ParsePointer(%q) = %q, %v", c.in, got, err)
		}
		if c.err && !errors.Is(err, ErrNotProjectable) {
			t.Errorf("ParsePointer(%q): error %v is not ErrNotProjectable", c.in, err)
		}
	}
	if IsPointer("index.js") || IsPointer("dist/a.js") || !IsPointer("/x") || !IsPointer("#/x") {
		t.Error("IsPointer")
	}
}

func TestProject(t *testing.T) {
	up := []byte(`{
  "name": "demo",
  "maintainers": [{"name": "alice", "email": "alice@demo-corp.io"}, {"name": "bob"}],
  "versions": {"1.0.0": {"_npmUser": {"email": "alice@demo-corp.io", "name": "alice"}, "dist": {"attestations": null, "unpackedSize": 1.50e3}}},
  "a/b": {"c~d": "x"},
  "keywords": ["mcp", "notes"]
}`)
	sha := vocab.SHA256Hex(up)
	cases := []struct {
		name, path, excerpt  string
		want, pointer, found string
	}{
		// The member is the pointer's last token and its value, from the
		// object the rest of the pointer names.
		{"string value", "/versions/1.0.0/_npmUser/name", `"alice"`, `{"member":{"name":"alice"},"pointer":"/versions/1.0.0/_npmUser","source_sha256":"` + sha + `"}`, "/versions/1.0.0/_npmUser", `"alice"`},
		{"null value", "/versions/1.0.0/dist/attestations", `null`, `{"member":{"attestations":null},"pointer":"/versions/1.0.0/dist","source_sha256":"` + sha + `"}`, "/versions/1.0.0/dist", `null`},
		// A quoted value whose upstream bytes canonical form changes is found
		// by its canonical form.
		{"number canonicalised", "/versions/1.0.0/dist/unpackedSize", `1.50e3`, `{"member":{"unpackedSize":1500},"pointer":"/versions/1.0.0/dist","source_sha256":"` + sha + `"}`, "/versions/1.0.0/dist", `1500`},
		{"object value re-ordered", "/versions/1.0.0/dist", `{"attestations": null, "unpackedSize": 1.50e3}`, `{"member":{"dist":{"attestations":null,"unpackedSize":1500}},"pointer":"/versions/1.0.0","source_sha256":"` + sha + `"}`, "/versions/1.0.0", `{"attestations":null,"unpackedSize":1500}`},
		{"array element", "/keywords/1", `"notes"`, `{"member":{"1":"notes"},"pointer":"/keywords","source_sha256":"` + sha + `"}`, "/keywords", `"notes"`},
		{"object in an array", "/maintainers/1", `{"name": "bob"}`, `{"member":{"1":{"name":"bob"}},"pointer":"/maintainers","source_sha256":"` + sha + `"}`, "/maintainers", `{"name":"bob"}`},
		{"escaped pointer, parent is the root", "/a~1b", `{"c~d": "x"}`, `{"member":{"a/b":{"c~d":"x"}},"pointer":"","source_sha256":"` + sha + `"}`, "", `{"c~d":"x"}`},
		{"fragment form", "#/a~1b/c~0d", `"x"`, `{"member":{"c~d":"x"},"pointer":"/a~1b","source_sha256":"` + sha + `"}`, "/a~1b", `"x"`},
		// A fragment of upstream bytes that is not a JSON value, and whose
		// spacing canonical form removes, is not found: nothing is projected.
		{"member fragment with upstream spacing", "/versions/1.0.0/_npmUser/name", `"name": "alice"`, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ptr, found, err := Project(up, sha, c.path, c.excerpt)
			if c.want == "" {
				if !errors.Is(err, ErrNotProjectable) {
					t.Fatalf("want ErrNotProjectable, got %s, %v", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != c.want || ptr != c.pointer || found != c.found {
				t.Errorf("got %s at %q finding %s\nwant %s at %q finding %s", got, ptr, found, c.want, c.pointer, c.found)
			}
			if !strings.Contains(string(got), found) {
				t.Errorf("%s not in the projection", found)
			}
			if strings.Contains(string(got), "alice@") {
				t.Error("the projection carries a member the finding does not cite")
			}
		})
	}
	// The whole document: every member.
	if got, ptr, _, err := Project(up, sha, "", `"demo"`); err != nil || ptr != "" || !strings.Contains(string(got), `"keywords":["mcp","notes"]`) {
		t.Errorf("root: %s %q %v", got, ptr, err)
	}
	for name, c := range map[string]struct{ path, excerpt string }{
		"pointer does not resolve":  {"/versions/2.0.0", `x`},
		"not a pointer":             {"versions", `x`},
		"root is an array":          {"", `1`},
		"excerpt absent":            {"/name", `"nope"`},
		"excerpt beside the member": {"/name", `"alice"`},
		"empty excerpt":             {"/name", ``},
	} {
		t.Run(name, func(t *testing.T) {
			in := up
			if name == "root is an array" {
				in = []byte(`[1,2]`)
			}
			if _, _, _, err := Project(in, sha, c.path, c.excerpt); !errors.Is(err, ErrNotProjectable) {
				t.Errorf("want ErrNotProjectable, got %v", err)
			}
		})
	}
	if _, _, _, err := Project([]byte(`{"a":1,"a":2}`), sha, "/a", "1"); !errors.Is(err, ErrNotProjectable) {
		t.Errorf("repeated name: %v", err)
	}
	if _, _, _, err := Project([]byte(`not json`), sha, "/a", "1"); !errors.Is(err, ErrNotProjectable) {
		t.Errorf("not JSON: %v", err)
	}
}

// A projection never carries more than the member: the unit a publisher can
// check, and all the personal data there is is what the finding cites.
func TestProjectionOfMemberWithEmailIsScanned(t *testing.T) {
	up := []byte(`{"_npmUser":{"name":"alice","email":"alice@demo-corp.io"}}`)
	b, _, _, err := Project(up, vocab.SHA256Hex(up), "/_npmUser", `{"name":"alice","email":"alice@demo-corp.io"}`)
	if err != nil {
		t.Fatal(err)
	}
	if hits := ScanPersonalData(b); len(hits) != 1 || hits[0].Kind != KindEmail {
		t.Errorf("hits %+v in %s", hits, b)
	}
}

func FuzzProject(f *testing.F) {
	f.Add([]byte(`{"a":{"b":[1,{"c":"d"}]}}`), "/a/b/1", `"c":"d"`)
	f.Add([]byte(`{"a":1,"a":2}`), "/a", "1")
	f.Add([]byte(`[]`), "#/0", "x")
	f.Fuzz(func(t *testing.T, up []byte, path, excerpt string) {
		b, _, found, err := Project(up, "s", path, excerpt)
		if err != nil {
			if !errors.Is(err, ErrNotProjectable) {
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if found == "" || !strings.Contains(string(b), found) {
			t.Fatalf("projection %s does not carry %q", b, found)
		}
	})
}

func FuzzScanPersonalData(f *testing.F) {
	f.Add([]byte("mail jane@kestrel-labs.io or +1 (415) 555-0132, 1600 Harbor Boulevard, Oakland, CA 94607"))
	f.Add([]byte("@scope/x pkg@1.2.3 Torstraße 109"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, h := range ScanPersonalData(b) {
			if h.Start < 0 || h.End > len(b) || h.Start >= h.End || h.Line < 1 {
				t.Fatalf("hit %+v out of range of %d bytes", h, len(b))
			}
		}
	})
}

func TestScanPersonalDataRules(t *testing.T) {
	hit := []struct{ kind, text string }{
		{KindEmail, "write to jane.doe@kestrel-labs.io today"},
		{KindEmail, "mailto:jane@kestrel-labs.io"},
		{KindEmail, "Author: Jana Novak <jana@kestrel-labs.io>"},
		{KindEmail, "12345+jane@users.noreply.codehost.dev"},
		{KindEmail, "ops@xn--bcher-kva.ch"},
		{KindPhone, "+1 (415) 555-0132"},
		{KindPhone, "+14155550132"},
		{KindPhone, "+44 20 7946 0958"},
		{KindPhone, "call (415) 555-0132 now"},
		{KindPhone, "415.555.0132"},
		{KindPhone, "1-800-555-0199"},
		{KindPhone, "Tel.: 030 2844 9170"},
		{KindPhone, "tel:0302844917"},
		{KindStreetAddress, "221B Baker Street, London"},
		{KindStreetAddress, "at 1600 Harbor Boulevard."},
		{KindStreetAddress, "350 Fifth Avenue Suite 3"},
		{KindStreetAddress, "Hauptstraße 5"},
		{KindStreetAddress, "Musterstr. 12a"},
		{KindStreetAddress, "12 rue de la Paix"},
		{KindStreetAddress, "Calle Mayor 5"},
		{KindStreetAddress, "P.O. Box 4417"},
		{KindStreetAddress, "Oakland, CA 94607"},
	}
	for _, c := range hit {
		hs := ScanPersonalData([]byte(c.text))
		if len(hs) == 0 || !slices.ContainsFunc(hs, func(h Hit) bool { return h.Kind == c.kind }) {
			t.Errorf("%q: want a %s hit, got %+v", c.text, c.kind, hs)
		}
	}
	clean := []string{
		"@scope/x", "npm i @kestrel-labs/notes@2.4.1", "pkg@1.2.3", "lodash@4.17.21", "react@latest", "logo@2x.png",
		"dist/index@v2.js", "someone@example.com", "team@notes.test", "x@y.invalid", "git@codehost.dev:org/repo.git",
		"git+ssh://git@codehost.dev/org/repo.git", "https://user@codehost.dev/x", "`${user}@${domain}`", "/^[^@]+@[^@]+$/",
		"@mcp.tool()", "@Injectable()",
		"2025-03-14", "14.03.2025", "03/14/2025", "12:30:45", "2025-04-01T14:30:00+02:00", "192.168.100.200", "10.0.0.1:8080",
		"1.2.3", "v10.24.1", "1700000000", "10485760", "1e+21", "x = +0.75", "4111-1111-1111-1111", "978-0-306-40615-7",
		"123e4567-e89b-12d3-a456-426614174000", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"returns up to 10 Google Drive files", "Step 3: click Way Back", "HTTP 404 Not Found", "ports 3000-3001",
		"String 5", "call(20240101)", "Telemetry 1234567",
	}
	for _, s := range clean {
		if hs := ScanPersonalData([]byte(s)); len(hs) > 0 {
			t.Errorf("%q: want no hit, got %+v", s, hs)
		}
	}
	// Line numbers and offsets point at the hit, never carry its text.
	hs := ScanPersonalData([]byte("a\nb\n  jane@kestrel-labs.io"))
	if len(hs) != 1 || hs[0].Line != 3 || hs[0].Start != 6 {
		t.Errorf("%+v", hs)
	}
}
