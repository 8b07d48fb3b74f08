package pipeline

import (
	"bytes"
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"time"
)

// CodeVersion returns the git commit of the code in dir and whether the
// working tree has uncommitted changes, from `git rev-parse HEAD` and
// `git status --porcelain`. When git cannot answer (no git, not a
// checkout), it falls back to the vcs.revision and vcs.modified the Go
// toolchain stamped into the binary. When neither is known the commit is
// "unknown" and dirty is true: a run must not claim a clean tree it could
// not see.
func CodeVersion(dir string) (commit string, dirty bool) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	git := func(args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		return cmd.Output()
	}
	if out, err := git("rev-parse", "HEAD"); err == nil {
		if c := strings.TrimSpace(string(out)); c != "" {
			st, err := git("status", "--porcelain")
			return c, err != nil || len(bytes.TrimSpace(st)) > 0
		}
	}
	return buildInfoVersion(debug.ReadBuildInfo)
}

func buildInfoVersion(read func() (*debug.BuildInfo, bool)) (string, bool) {
	info, ok := read()
	if !ok {
		return "unknown", true
	}
	commit, modified := "", ""
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if commit == "" {
		return "unknown", true
	}
	return commit, modified != "false"
}
