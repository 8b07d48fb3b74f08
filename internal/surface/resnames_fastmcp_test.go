package surface

import "testing"

// TestFastMCPRangeRead: fastmcp's dependency is read as the framework only
// when it is one exact release from 3.23.1, the first release read, to
// 4.20.16, the newest (2.3.13); a caret or tilde range admits later releases
// nobody read and no longer counts; one case per range form, inside and
// outside.
func TestFastMCPRangeRead(t *testing.T) {
	for r, want := range map[string]bool{
		"3.23.1": true, "=3.23.1": true, "v4.3.2": true, "4.20.16": true, " 4.0.1 ": true, "3.33.0": true,
		"3.23.0": false, "^3.8.2": false, "~2.2.4": false, "^1.27.7": false, // before the first release read
		"4.20.17": false, "4.21.0": false, "5.0.0": false, "^5.1.0": false, // after the newest release read
		"^3.33.0": false, "^4.0.0": false, "^4.0.1": false, "~3.33.0": false, "~4.20.16": false, "^3.23.1": false, // ranges
		">=3.23.1": false, "<=4.20.16": false, "3.23.1 - 4.20.16": false,
		"3": false, "4.x": false, "*": false, "^3.23.1 || ^4.0.0": false, "latest": false,
		"4.3.2-beta.1": false, "04.3.2": false, "+4.3.2": false, "": false,
	} {
		if got := fastmcpRangeRead(r); got != want {
			t.Errorf("fastmcpRangeRead(%q) = %v, want %v", r, got, want)
		}
	}
}

// TestStaleAdvertisementFastMCPRange: a package that loads fastmcp within
// the releases read (an exact version, 2.3.13) lets a stale advertised name
// go, as a package on the SDK does; a range, or a release outside them,
// leaves fastmcp an MCP library the package loads, and the name keeps
// refusing.
func TestStaleAdvertisementFastMCPRange(t *testing.T) {
	fast := "import { FastMCP } from \"fastmcp\";\nconst f = new FastMCP({ name: \"f\", version: \"1\" });\n"
	for _, c := range []struct {
		rng, want string
	}{
		{"3.23.1", "stale"},
		{"4.3.2", "stale"},
		{"=4.20.16", "stale"},
		{"^3.33.0", "refuses"},
		{"~3.33.0", "refuses"},
		{"^4.0.0", "refuses"},
		{"^4.0.1", "refuses"},
		{">=3.23.1", "refuses"},
		{"4.20.17", "refuses"},
		{"3.23.0", "refuses"},
		{"^1.27.7", "refuses"},
		{"^5.0.0", "refuses"},
		{">=3", "refuses"},
	} {
		t.Run(c.rng, func(t *testing.T) {
			files := map[string]string{
				"package.json": `{"name": "s", "main": "index.js", "dependencies": {"@modelcontextprotocol/sdk": "1", "fastmcp": "` + c.rng + `"}}`,
				"index.js":     staleServer, "README.md": staleReadme, "fast.js": fast,
			}
			if got := advertisedStates(t, files)["retired_lookup"]; got != c.want {
				t.Errorf("retired_lookup %s, want %s", got, c.want)
			}
		})
	}
}
