package surface

import "testing"

// TestFastMCPRangeRead: fastmcp's dependency range is read as the framework
// only when every release it admits lies in the releases whose listing code
// was read, 3.23.1 up to the next major after 4 (2.3.11); one case per range
// form, inside and outside.
func TestFastMCPRangeRead(t *testing.T) {
	for r, want := range map[string]bool{
		"3.23.1": true, "=3.23.1": true, "v4.3.2": true, "^3.33.0": true, "^4.0.0": true, "~4.20.16": true, " ^4.0.1 ": true,
		"3.23.0": false, "^3.8.2": false, "~2.2.4": false, "^1.27.7": false, // before the first release read
		"5.0.0": false, "^5.1.0": false, // a major not read
		"3": false, "4.x": false, "*": false, ">=3.23.1": false, "^3.23.1 || ^4.0.0": false, "latest": false,
		"4.3.2-beta.1": false, "04.3.2": false, "+4.3.2": false, "": false,
	} {
		if got := fastmcpRangeRead(r); got != want {
			t.Errorf("fastmcpRangeRead(%q) = %v, want %v", r, got, want)
		}
	}
}

// TestStaleAdvertisementFastMCPRange: a package that loads fastmcp within
// the releases read lets a stale advertised name go, as a package on the SDK
// does; outside them fastmcp is an MCP library the package loads, and the
// name keeps refusing (2.3.11).
func TestStaleAdvertisementFastMCPRange(t *testing.T) {
	fast := "import { FastMCP } from \"fastmcp\";\nconst f = new FastMCP({ name: \"f\", version: \"1\" });\n"
	for _, c := range []struct {
		rng, want string
	}{
		{"3.23.1", "stale"},
		{"^3.33.0", "stale"},
		{"^4.0.1", "stale"},
		{"4.3.2", "stale"},
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
