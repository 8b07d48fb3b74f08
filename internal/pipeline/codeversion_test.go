package pipeline

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

func TestCodeVersionFromGit(t *testing.T) {
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.txt")
	git("commit", "-q", "-m", "one")
	head := git("rev-parse", "HEAD")

	if c, dirty := CodeVersion(dir); c != head || dirty {
		t.Fatalf("clean tree: %q %v, want %q false", c, dirty, head)
	}
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if c, dirty := CodeVersion(dir); c != head || !dirty {
		t.Fatalf("modified tree: %q %v", c, dirty)
	}
}

func TestCodeVersionFallsBackToBuildInfo(t *testing.T) {
	info := func(settings ...debug.BuildSetting) func() (*debug.BuildInfo, bool) {
		return func() (*debug.BuildInfo, bool) { return &debug.BuildInfo{Settings: settings}, true }
	}
	if c, d := buildInfoVersion(info(debug.BuildSetting{Key: "vcs.revision", Value: "abc"}, debug.BuildSetting{Key: "vcs.modified", Value: "false"})); c != "abc" || d {
		t.Fatalf("clean build: %q %v", c, d)
	}
	if c, d := buildInfoVersion(info(debug.BuildSetting{Key: "vcs.revision", Value: "abc"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"})); c != "abc" || !d {
		t.Fatalf("dirty build: %q %v", c, d)
	}
	if c, d := buildInfoVersion(info()); c != "unknown" || !d {
		t.Fatalf("no vcs stamp: %q %v", c, d)
	}
	if c, d := buildInfoVersion(func() (*debug.BuildInfo, bool) { return nil, false }); c != "unknown" || !d {
		t.Fatalf("no build info: %q %v", c, d)
	}
	// Outside any checkout the answer comes from the binary, never a guess
	// of a clean tree.
	if c, d := CodeVersion(t.TempDir()); c == "" || (c == "unknown" && !d) {
		t.Fatalf("outside a checkout: %q %v", c, d)
	}
}
