package httpapi

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/attestari/attestari/api"
)

// TestReproStepsRun: the "Check this yourself" commands of the evidence and
// of the tool hashes are pasted into a shell as the page prints them, against
// the site serving the page and a directory unpacked the way the steps say,
// and each prints what the page says it must.
func TestReproStepsRun(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"sh", "curl", "jq", "sha256sum", "cmp", "sed", "grep"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not on PATH (.ci/run installs curl and jq): %v", tool, err)
		}
	}
	ts, _ := seeded(t)
	srv := httptest.NewServer(ts.Server)
	defer srv.Close()
	for _, name := range []string{"@acme/files/1.0.0", "@acme/notes/2.0.0"} {
		parts := strings.SplitN(name, "/", 3)
		d, err := ts.opts.Reader.Package(context.Background(), "npm", parts[0]+"/"+parts[1], parts[2])
		if err != nil {
			t.Fatal(err)
		}
		v := reproSteps(d, false, srv.URL)
		dir := t.TempDir()
		// Unpacked as the steps say: the artifact's files under attestari-check/.
		for _, f := range d.Findings {
			body := fetch(t, srv.URL+"/evidence/"+f.Evidence.SHA256)
			p := filepath.Join(dir, v.Dir, f.Evidence.Path)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, body, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		page := fetch(t, srv.URL+packageURL("npm", parts[0]+"/"+parts[1], parts[2]))
		var cmds []reproCommand
		for _, e := range v.Evidence {
			cmds = append(cmds, e.Commands...)
		}
		cmds = append(cmds, v.ToolHashes...)
		if len(d.Findings) > 0 && len(v.Evidence) == 0 || len(v.ToolHashes) == 0 {
			t.Fatalf("%s: %d evidence steps, %d tool hash steps", name, len(v.Evidence), len(v.ToolHashes))
		}
		for _, c := range cmds {
			if !strings.Contains(string(page), "<code>"+html.EscapeString(c.Command)+"</code>") {
				t.Errorf("%s: the page does not print %q as it is", name, c.Command)
			}
			out, err := shell(dir, c.Command)
			switch {
			case err != nil:
				t.Errorf("%s: %s: %v: %s", name, c.Command, err, out)
			case strings.HasPrefix(c.Command, "sed "):
				if !strings.Contains(out, d.Findings[0].Evidence.Excerpt) && !strings.Contains(out, d.Findings[len(d.Findings)-1].Evidence.Excerpt) {
					t.Errorf("%s: %s prints %q, without the quote", name, c.Command, out)
				}
			case strings.HasPrefix(c.Command, "grep -cF"):
				if n, err := strconv.Atoi(strings.TrimSpace(out)); err != nil || n < 1 {
					t.Errorf("%s: %s prints %q", name, c.Command, out)
				}
			case strings.Contains(c.Command, "| cmp "):
				if out != "" {
					t.Errorf("%s: %s prints %q", name, c.Command, out)
				}
			default:
				if strings.TrimSpace(out) != c.Expect {
					t.Errorf("%s: %s prints %q, the page says %q", name, c.Command, out, c.Expect)
				}
			}
		}
	}
}

// TestReproStepsRecordAndDemo: a finding citing a projected record gets the
// record's fetch and its jq path, not a file of the artifact; a demo package
// says it cannot be fetched and drops the comparison with the artifact.
func TestReproStepsRecordAndDemo(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	d := &api.PackageDetail{Registry: "pypi", Name: "pkg", Version: "1.0", Findings: []api.Finding{
		{ID: "P-1", Evidence: api.Evidence{SHA256: sha, Path: "/info/project_urls/0~1x", Excerpt: "it's"}},
		{ID: "P-2", Evidence: api.Evidence{SHA256: sha, Path: "src/a.py", LineStart: 2, LineEnd: 3, Excerpt: "a\nb"}},
	}}
	v := reproSteps(d, true, "https://site.example")
	if !v.Demo || len(v.Evidence) != 2 || !v.Evidence[0].Record || v.Evidence[1].Record {
		t.Fatalf("%+v", v)
	}
	rec := v.Evidence[0].Commands
	if rec[0].Command != "curl -s 'https://site.example/evidence/"+sha+"' -o record.json && sha256sum record.json" ||
		rec[1].Command != `jq 'getpath(["info","project_urls","0/x"])' record.json` {
		t.Errorf("record commands %+v", rec)
	}
	for _, c := range v.Evidence[1].Commands {
		if strings.Contains(c.Command, "cmp") || strings.HasPrefix(c.Command, "grep") {
			t.Errorf("a demo file is compared with an artifact, or a multi-line quote grepped: %s", c.Command)
		}
	}
	if v.Evidence[1].Commands[0].Command != "sed -n '2,3p' 'attestari-check/src/a.py'" {
		t.Errorf("sed command %q", v.Evidence[1].Commands[0].Command)
	}
	if got := jqPath("#/a/0/b~0c%20d"); got != `["a",0,"b~c d"]` {
		t.Errorf("jqPath = %s", got)
	}
	if shellQuote("it's") != `'it'\''s'` {
		t.Errorf("shellQuote %s", shellQuote("it's"))
	}
}

func fetch(t *testing.T, u string) []byte {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d", u, res.StatusCode)
	}
	return b
}

func shell(dir, cmd string) (string, error) {
	c := exec.Command("sh", "-c", cmd)
	c.Dir = dir
	out, err := c.CombinedOutput()
	return string(out), err
}
