package surface

import (
	"strconv"
	"strings"
)

// FastMCP for TypeScript (the `fastmcp` package) as a framework that
// registers only what the package hands it (methodology §5.2, advertised
// tools; 2.3.10 counted it so on measurement, 2.3.11 on a reading of its
// code). Its published code was read at 3.23.1, 3.33.0, 3.35.0, 4.0.0, 4.3.2
// and 4.20.16 (src/FastMCP.ts, as its source map ships it, checked against
// the dist chunk that runs). In each, a session's tools/list answers with one
// entry per tool the package added (`addTool`, `addTools`; a later tool of
// the same name replaces the earlier one; a tool whose `canAccess` refuses
// the session's auth is left out), built as `{annotations, description,
// inputSchema, name, outputSchema?, _meta?}` of the package's own values,
// unchanged: no prefix, no default description, and no tool of its own (its
// `/health` and `/ready` are HTTP routes, and `ping` is the protocol's
// keep-alive, not a tool). Prompts, resources and resource templates are
// listed the same way from `addPrompt(s)`, `addResource(s)` and
// `addResourceTemplate(s)`, and the server's instructions are the
// `instructions` option unchanged. So, within the releases read, nothing the
// client sees is FastMCP's own.
//
// A package is read this way only when its own dependency on `fastmcp`
// admits no release outside that reading. From 2.3.11 to 2.3.12 a caret or
// tilde range from 3.23.1 below major 5 counted; such a range admits every
// later release of its major, published after the reading or never read, so
// since 2.3.13 only an exact version (`3.33.0`, `=3.33.0`, `v3.33.0`) from
// 3.23.1, the first release read, up to 4.20.16, the newest, counts. Any other
// range (`^`, `~`, `>=`, `*`, an x-range, a tag, a URL, a union, an earlier or
// later release) keeps fastmcp among the MCP libraries other than the SDK,
// whose presence keeps every advertised name refusing, as before 2.3.10. The
// package's lockfile is not read, so a range stays a range.

// fastmcpRead bounds the releases of fastmcp whose listing code was read:
// the first and the newest release read, both included.
var (
	fastmcpReadFrom = [3]int{3, 23, 1}
	fastmcpReadTo   = [3]int{4, 20, 16}
)

// fastmcpRangeRead reports whether the npm range r is one exact release of
// fastmcp within the releases whose listing code was read.
func fastmcpRangeRead(r string) bool {
	r = strings.TrimPrefix(strings.TrimSpace(r), "=")
	v, ok := exactVersion(strings.TrimPrefix(r, "v"))
	return ok && !less3(v, fastmcpReadFrom) && !less3(fastmcpReadTo, v)
}

// exactVersion parses MAJOR.MINOR.PATCH with no pre-release or build.
func exactVersion(s string) ([3]int, bool) {
	var out [3]int
	parts := strings.Split(s, ".")
	if len(parts) != 3 {
		return out, false
	}
	for i, p := range parts {
		if p == "" || len(p) > 1 && p[0] == '0' {
			return out, false
		}
		if strings.Trim(p, "0123456789") != "" {
			return out, false
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, false
		}
		out[i] = n
	}
	return out, true
}

func less3(a, b [3]int) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// frameworkDependency reports a dependency, declared with the range r, that
// registers only the names the package hands it: the official SDK's
// packages, and fastmcp within the releases read.
func frameworkDependency(name, r string) bool {
	if name == "fastmcp" {
		return fastmcpRangeRead(r)
	}
	return frameworkLibrary(name)
}
