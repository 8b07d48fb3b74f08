package corpus

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTruthFileName(t *testing.T) {
	for _, c := range []struct{ name, version, want string }{
		{"@modelcontextprotocol/server-filesystem", "2026.8.31", "modelcontextprotocol__server-filesystem@2026.8.31.json"},
		{"mcp-hello-world", "1.1.2", "mcp-hello-world@1.1.2.json"},
		{"deepl-mcp-server", "0.1.3-beta.0", "deepl-mcp-server@0.1.3-beta.0.json"},
	} {
		if got := TruthFileName(c.name, c.version); got != c.want {
			t.Errorf("TruthFileName(%q, %q) = %q, want %q", c.name, c.version, got, c.want)
		}
	}
}

func TestParseCandidates(t *testing.T) {
	in := "# name\tversion\ttier\tdownloads\n\n@a/b\t1.0.0\tofficial\t12\nc\t2.0.0\tofficial_older\t-\n"
	cs, err := ParseCandidates(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 2 || cs[0].Name != "@a/b" || cs[0].DownloadsAMonth != 12 || cs[1].Tier != TierOfficialOlder || cs[1].DownloadsAMonth != 0 {
		t.Fatalf("got %+v", cs)
	}
	for _, bad := range []string{"a\t1\tnope\t1\n", "a\t1\tofficial\n", "a\t1\tofficial\tmany\n", "\t1\tofficial\t1\n"} {
		if _, err := ParseCandidates(strings.NewReader(bad)); err == nil {
			t.Errorf("ParseCandidates(%q): no error", bad)
		}
	}
}

func validPackage(name string) Package {
	return Package{Name: name, Version: "1.0.0", Tier: TierLongTail, TarballSHA256: strings.Repeat("ab", 32), Integrity: "sha512-AAAA", Bin: []string{"x"}}
}

func TestListValidate(t *testing.T) {
	ok := List{Packages: []Package{validPackage("a"), validPackage("b")}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid list: %v", err)
	}
	dup := List{Packages: []Package{validPackage("a"), validPackage("a")}}
	badSHA := List{Packages: []Package{validPackage("a")}}
	badSHA.Packages[0].TarballSHA256 = strings.Repeat("AB", 32)
	badSRI := List{Packages: []Package{validPackage("a")}}
	badSRI.Packages[0].Integrity = "sha1-xx"
	noVersion := List{Packages: []Package{validPackage("a")}}
	noVersion.Packages[0].Version = ""
	for name, l := range map[string]List{"dup": dup, "upper-case sha": badSHA, "sha1 sri": badSRI, "no version": noVersion} {
		if err := l.Validate(); !errors.Is(err, ErrInvalidList) {
			t.Errorf("%s: err = %v, want ErrInvalidList", name, err)
		}
	}
}

func TestListRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "packages.json")
	l := &List{Generated: "2026-11-30", Rule: "r", Packages: []Package{validPackage("@s/a")}, Excluded: []Excluded{}}
	if err := WriteJSON(path, l); err != nil {
		t.Fatal(err)
	}
	got, err := LoadList(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Packages[0].Key() != "@s/a@1.0.0" {
		t.Fatalf("got %+v", got.Packages[0])
	}
	// Unknown fields are refused, so a typo in a hand edit is caught.
	if err := os.WriteFile(path, []byte(`{"packages":[],"excluded":[],"extra":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadList(path); err == nil {
		t.Fatal("LoadList accepted an unknown field")
	}
}

func TestTruthsRoundTripAndHTMLKept(t *testing.T) {
	dir := t.TempDir()
	tr := Truth{Name: "@s/b", Version: "2.0.0", Started: true, Tools: []ToolTruth{{Name: "t", Description: "a <b> & c"}}, LowerBound: true}
	if err := WriteJSON(filepath.Join(dir, TruthFileName(tr.Name, tr.Version)), tr); err != nil {
		t.Fatal(err)
	}
	tr2 := Truth{Name: "a", Version: "1.0.0"}
	if err := WriteJSON(filepath.Join(dir, TruthFileName(tr2.Name, tr2.Version)), tr2); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "s__b@2.0.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte("a <b> & c")) {
		t.Errorf("description escaped in the file: %s", b)
	}
	ts, err := LoadTruths(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].Key() != "@s/b@2.0.0" || ts[1].Key() != "a@1.0.0" || ts[0].Tools[0].Description != "a <b> & c" {
		t.Fatalf("got %+v", ts)
	}
}

func TestSchemaHashIgnoresKeyOrder(t *testing.T) {
	a := map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}
	b := []byte(`{"properties":{"x":{"type":"string"}},"type":"object"}`)
	var bv any
	if err := jsonUnmarshal(b, &bv); err != nil {
		t.Fatal(err)
	}
	if SchemaHash(a) != SchemaHash(bv) {
		t.Error("same schema, different key order, different hash")
	}
	if SchemaHash(a) == SchemaHash(map[string]any{"type": "object"}) {
		t.Error("different schemas hash alike")
	}
}

func TestParamDescriptions(t *testing.T) {
	got := paramTruthsOf(t, `{
		"type":"object","description":"root, not a parameter",
		"properties":{
			"path":{"type":"string","description":"Where"},
			"a/b":{"type":"object","properties":{"deep":{"description":"Nested"}}},
			"mode":{"enum":[{"description":"inside enum, a value not a schema"}]},
			"list":{"type":"array","items":{"description":"Each"}}
		}}`)
	want := []ParamTruth{
		{"/properties/a~1b/properties/deep", "Nested"},
		{"/properties/list/items", "Each"},
		{"/properties/path", "Where"},
	}
	wantParamTruths(t, got, want)
}

// A property whose name is also a keyword of JSON Schema is a schema like
// any other: its own description is a parameter text, read by where it stands
// (under "properties"), not dropped or taken by its name.
func TestParamDescriptionsKeywordNamedProperties(t *testing.T) {
	got := paramTruthsOf(t, `{
		"type":"object","description":"root",
		"properties":{
			"description":{"type":"string","description":"Short summary"},
			"title":{"type":"string","description":"The title"},
			"properties":{"type":"object","description":"Custom fields",
				"properties":{"default":{"description":"A field named default"}}},
			"items":{"type":"array","description":"The items",
				"items":{"type":"object","properties":{"enum":{"description":"A field named enum"}}}},
			"examples":{"description":"A field named examples","examples":[{"description":"data, not a schema"}]},
			"const":{"description":"A field named const","default":{"description":"data"},"const":{"description":"data"}},
			"loose":{"type":"object","name":{"type":"string","description":"Beside type, no properties"}},
			"either":{"anyOf":[{"type":"string","description":"As text"},{"type":"boolean"}]}
		},
		"$defs":{"description":{"description":"A definition named description"}}}`)
	want := []ParamTruth{
		{"/$defs/description", "A definition named description"},
		{"/properties/const", "A field named const"},
		{"/properties/description", "Short summary"},
		{"/properties/either/anyOf/0", "As text"},
		{"/properties/examples", "A field named examples"},
		{"/properties/items", "The items"},
		{"/properties/items/items/properties/enum", "A field named enum"},
		{"/properties/loose/name", "Beside type, no properties"},
		{"/properties/properties", "Custom fields"},
		{"/properties/properties/properties/default", "A field named default"},
		{"/properties/title", "The title"},
	}
	wantParamTruths(t, got, want)
}

// The walk is bounded: a schema nested far deeper than 64 levels returns
// the texts above the bound and does not run away.
func TestParamDescriptionsDepthBound(t *testing.T) {
	var node any = map[string]any{"description": "bottom"}
	for i := 0; i < 200; i++ {
		node = map[string]any{"description": "level", "properties": map[string]any{"p": node}}
	}
	got := ParamDescriptions(node)
	if len(got) == 0 || len(got) > 64 {
		t.Fatalf("got %d texts, want 1..64", len(got))
	}
}

// paramTruthsOf is ParamDescriptions of the schema written as JSON in js.
func paramTruthsOf(t *testing.T, js string) []ParamTruth {
	t.Helper()
	var schema any
	if err := jsonUnmarshal([]byte(js), &schema); err != nil {
		t.Fatal(err)
	}
	return ParamDescriptions(schema)
}

// wantParamTruths fails t unless got is want, entry for entry.
func wantParamTruths(t *testing.T, got, want []ParamTruth) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestFilterJSONLines(t *testing.T) {
	in := "starting server...\n{\"level\":30,\"msg\":\"pino log\"}\n\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n[{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]\nDone"
	var out, noise bytes.Buffer
	skipped := filterJSONLines(strings.NewReader(in), &out, &noise)
	if noise.String() != "starting server...\n{\"level\":30,\"msg\":\"pino log\"}\nDone" {
		t.Errorf("noise = %q", noise.String())
	}
	if skipped != 3 {
		t.Errorf("skipped = %d, want 3", skipped)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n[{\"jsonrpc\":\"2.0\",\"method\":\"x\"}]\n"
	if out.String() != want {
		t.Errorf("kept %q, want %q", out.String(), want)
	}
}

func TestChooseBin(t *testing.T) {
	for _, c := range []struct {
		name, bin, want string
	}{
		{"@s/one", `"dist/index.js"`, "one -> dist/index.js"},
		{"@s/pkg", `{"other":"a.js","pkg":"b.js"}`, "pkg -> b.js"},
		{"x", `{"cli":"a.js","x-mcp":"b.js"}`, "x-mcp -> b.js"},
		{"y", `{"b":"b.js","a":"a.js"}`, "a -> a.js"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"`+c.name+`","bin":`+c.bin+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		got, _, err := chooseBin(dir, c.name, "")
		if err != nil || got != c.want {
			t.Errorf("chooseBin(%s) = %q, %v; want %q", c.bin, got, err, c.want)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"w","bin":{"w":"cli.js","w-mcp":"srv.js"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, _, err := chooseBin(dir, "w", "w-mcp"); err != nil || got != "w-mcp -> srv.js" {
		t.Errorf("chooseBin with an override = %q, %v", got, err)
	}
	if _, _, err := chooseBin(dir, "w", "nope"); err == nil {
		t.Error("chooseBin accepted an override the package lacks")
	}
	for _, bad := range []string{`{}`, `"../../etc/passwd"`, `{"a":"/abs"}`} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"z","bin":`+bad+`}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := chooseBin(dir, "z", ""); err == nil {
			t.Errorf("chooseBin(%s): no error", bad)
		}
	}
}

func TestTailStringKeepsUTF8(t *testing.T) {
	s := strings.Repeat("é", 10) // 2 bytes each
	got := tailString(s, 5)
	if !strings.HasPrefix(got, "…") || strings.ContainsRune(got, '\uFFFD') || !isValidUTF8(got) {
		t.Errorf("tailString = %q", got)
	}
}

func TestSetupFor(t *testing.T) {
	if a := SetupFor("@modelcontextprotocol/server-basic-react").Args; len(a) != 1 || a[0] != "--stdio" {
		t.Errorf("MCP Apps example args = %v", a)
	}
	if a := SetupFor("@modelcontextprotocol/server-filesystem").Args; len(a) != 1 || a[0] != DataPlaceholder {
		t.Errorf("filesystem args = %v", a)
	}
	if s := SetupFor("@modelcontextprotocol/server-memory"); len(s.Args) != 0 || len(s.Env) != 0 {
		t.Errorf("memory setup = %+v", s)
	}
	// No dummy value may point anywhere but the loopback address.
	for k, v := range DummyEnv() {
		if strings.Contains(v, "://") && !strings.Contains(v, "127.0.0.1") {
			t.Errorf("%s=%s points off the machine", k, v)
		}
	}
}

func TestRedactHosts(t *testing.T) {
	for in, want := range map[string]string{
		"npm error 404 Not Found - GET https://registry.example.org/@x%2fy": "npm error 404 Not Found - GET https://<host>/@x%2fy",
		"getaddrinfo ENOTFOUND codeload.example.com":                        "getaddrinfo ENOTFOUND <host>",
		"ssh://git@example.com/a.git":                                       "ssh://<host>/a.git",
		"connect ECONNREFUSED 127.0.0.1:9 (redis://127.0.0.1:9)":            "connect ECONNREFUSED 127.0.0.1:9 (redis://127.0.0.1:9)",
		"Cannot find module index.js":                                       "Cannot find module index.js",
	} {
		if got := RedactHosts(in); got != want {
			t.Errorf("RedactHosts(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRedactDiagnosticsKeepsListedText(t *testing.T) {
	tr := Truth{
		Error: "GET https://api.example.com/x", StderrTail: "ENOTFOUND api.example.com",
		Lists: map[string]ListStatus{"resources/list": {Status: ListError, Error: "fetch https://example.org failed"}},
		Tools: []ToolTruth{{Name: "t", Description: "Calls https://api.example.com"}},
	}
	tr.RedactDiagnostics()
	if strings.Contains(tr.Error+tr.StderrTail+tr.Lists["resources/list"].Error, "example") {
		t.Errorf("host left in diagnostics: %+v", tr)
	}
	if tr.Tools[0].Description != "Calls https://api.example.com" {
		t.Errorf("listed text changed: %q", tr.Tools[0].Description)
	}
}
