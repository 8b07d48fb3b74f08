package corpus

import (
	"strings"
	"testing"
)

// The packer applies hatchling's sdist selection where it is written in the
// options it reads, and packs the whole tree (saying why) otherwise.
func TestSelectSdistFiles(t *testing.T) {
	const hatch = "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n\n[project]\nname = \"p\"\nreadme = \"README.md\"\n\n"
	for _, tc := range []struct {
		name, toml string
		whole      string          // a substring of the whole-tree reason, or "" when a rule applies
		keep       map[string]bool // path -> kept
	}{
		{"generic include, read by the sdist", hatch + "[tool.hatch.build]\ninclude = [\n  \"pkg/**/*.py\",  # code\n  \"conf/**/*.json\"\n]\n", "",
			map[string]bool{"pkg/server.py": true, "pkg/sub/a.py": true, "ext/x/pkg/y.py": false, "ext/spaces/a.py": false, "pyproject.toml": true, "README.md": true, "LICENSE": true, "conf/a/b.json": true, "pkg/data.json": false}},
		{"the sdist target overrides, exclude wins", hatch + "[tool.hatch.build]\ninclude = [\"nothing\"]\n[tool.hatch.build.targets.sdist]\ninclude = [\"src/p/**/*\", \"/tests\"]\nexclude = [\"*.json\"]\n", "",
			map[string]bool{"src/p/a.py": true, "src/p/a.json": false, "tests/t.py": true, "docs/tests/x.py": false, "nothing": false}},
		{"only-include", hatch + "[tool.hatch.build.targets.sdist]\nonly-include = [\"src/p\"]\n", "",
			map[string]bool{"src/p/a.py": true, "src/pp/a.py": false, "scripts/x.py": false, "pyproject.toml": true}},
		{"negative: packages is not applied", hatch + "[tool.hatch.build]\npackages = [\"src/p\"]\n", "packages", nil},
		{"negative: force-include is not applied", hatch + "[tool.hatch.build.targets.sdist.force-include]\n\"../x\" = \"x\"\n", "force-include", nil},
		{"negative: a negated pattern", hatch + "[tool.hatch.build]\ninclude = [\"!pkg\"]\n", "patterns", nil},
		{"negative: no selection options", hatch, "no selection options", nil},
		{"negative: another backend", "[build-system]\nbuild-backend = \"setuptools.build_meta\"\n", "setuptools.build_meta", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel := selectSdistFiles([]byte(tc.toml))
			if tc.whole != "" {
				if sel.keep != nil || !strings.HasPrefix(sel.Rule, "whole tree") || !strings.Contains(sel.Rule, tc.whole) {
					t.Fatalf("rule %q (keep set %v), want the whole tree because of %q", sel.Rule, sel.keep != nil, tc.whole)
				}
				return
			}
			if sel.keep == nil || !strings.HasPrefix(sel.Rule, "hatchling sdist:") {
				t.Fatalf("rule %q, want a hatchling selection", sel.Rule)
			}
			for p, want := range tc.keep {
				if got := sel.keep(p); got != want {
					t.Errorf("%s kept %v, want %v (rule %q)", p, got, want, sel.Rule)
				}
			}
		})
	}
}
