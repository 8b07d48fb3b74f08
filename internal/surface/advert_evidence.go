package surface

import (
	"path"
	"regexp"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Advertised tools, methodology 2.3.10 (§5.2): what the stale rule of 2.3.4
// reads more exactly.
//
//   - The official SDK is every package it is published as: v1's
//     `@modelcontextprotocol/sdk`, v2's split `@modelcontextprotocol/server`,
//     `client` and `core`, and its middleware packages (`node`, `express`,
//     `hono`, `fastify`), thin adapters that add no MCP functionality. A
//     framework whose registration sites section 5.2 reads (FastMCP for
//     TypeScript, `fastmcp`) registers only what the package hands it, as
//     the SDK does. Neither is "an MCP library other than the SDK".
//   - A declared MCP library that the package never loads registers nothing:
//     it is not loaded when its name is contained in no piece of a parsed
//     member (string literals, template segments, identifiers, property
//     names) and in the bytes of no other member except the root
//     package.json that declares it. Any occurrence (an import, a require,
//     a literal in a bundle) keeps the 2.3.4 reading: nothing is stale.
//   - A tool name has no whitespace, so a name is sought in the
//     whitespace-free runs of a piece or a data member, not across them: the
//     sentence "Get elevation data" is no occurrence of `get_elevation`,
//     while `toolName="get_errors"` is one of `get_errors`.
//   - The README's translations at the package root (`README.ja.md`,
//     `README_zh.md`, `README-CN.md`) are the document the names were read
//     from, in another language, and are not searched, unless a piece of
//     the package names a readme (code that could open one).
//   - A shortened mention (stale_by prefix): when every parsed tool's name
//     begins with one prefix ending in a separator (`maps_`, `acme-`), an
//     advertised name that is a parsed tool's name without that prefix, and
//     that is the whole value of no string literal or template segment and
//     in the bytes of no other member, names that tool.

// frameworkLibrary reports a dependency that registers only the names the
// package hands it: the official SDK's packages (FastMCP for TypeScript
// within the releases read: frameworkDependency, resnames_fastmcp.go).
func frameworkLibrary(name string) bool {
	switch name {
	case "@modelcontextprotocol/sdk", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "@modelcontextprotocol/core",
		"@modelcontextprotocol/node", "@modelcontextprotocol/express", "@modelcontextprotocol/hono", "@modelcontextprotocol/fastify":
		return true
	}
	return false
}

// readmeTranslation is the base name of a README in another language: a
// two-letter language code, with an optional region or script
// (README.ja.md, README_zh.md, README.zh-CN.md, README.zh-Hans.md,
// README-es-419.md). Another suffix (README-tools.md, README.dev.md) is a
// member like any other, searched as before.
var readmeTranslation = regexp.MustCompile(`(?i)^readme[._-][a-z]{2}(?:[-_](?:[a-z]{2}|[a-z]{4}|[0-9]{3}))?\.(?:md|markdown)$`)

// isReadmeTranslation reports a member at the package root that is a
// translation of its README.
func (x *extractor) isReadmeTranslation(p string) bool {
	dir, base := path.Split(p)
	return path.Clean(dir) == path.Clean(x.root) && readmeTranslation.MatchString(base)
}

// libraryScan records which of the package's other MCP libraries some piece
// or data member names.
type libraryScan struct {
	names []string
	found map[string]bool
}

func (l *libraryScan) add(s string) {
	for _, n := range l.names {
		if !l.found[n] && strings.Contains(s, n) {
			l.found[n] = true
		}
	}
}

// loaded reports that some other MCP library may be loaded by the package.
func (l *libraryScan) loaded() bool {
	return len(l.found) > 0
}

// writeRuns writes the normalised whitespace-free runs of s to b, each
// followed by a 0 byte (never in a normalised name).
func writeRuns(b *strings.Builder, s string) {
	open := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			if open {
				b.WriteByte(0)
				open = false
			}
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
			open = true
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			b.WriteByte(c)
			open = true
		}
	}
	if open {
		b.WriteByte(0)
	}
}

// toolPrefix is the prefix every parsed tool's name begins with, cut after
// its last separator, or "" when the package has fewer than two parsed
// tools or they share none.
func (x *extractor) toolPrefix() string {
	var names []string
	for n := range x.parsedNames() {
		names = append(names, n)
	}
	return prefixOf(names)
}

// prefixOf is the prefix every name begins with, cut after its last
// separator; "" for fewer than two names, or when it is a whole name.
func prefixOf(names []string) string {
	if len(names) < 2 {
		return ""
	}
	p := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(p) && i < len(n) && p[i] == n[i] {
			i++
		}
		p = p[:i]
	}
	i := strings.LastIndexAny(p, "_-./:")
	if i < 0 {
		return ""
	}
	p = p[:i+1]
	for _, n := range names {
		if len(n) == len(p) {
			return ""
		}
	}
	return p
}

// parsedNames is the set of the parsed tools' names.
func (x *extractor) parsedNames() map[string]bool {
	out := map[string]bool{}
	for _, t := range x.s.Tools {
		if t.NameState == "" || t.NameState == vocab.StateReadable {
			out[t.Name] = true
		}
	}
	return out
}

// mentionsReadme reports that s holds the word "readme", any case, not
// inside a longer word ("README.md", "readme_zh", not "readMessage").
func mentionsReadme(s string) bool {
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := 0; i+6 <= len(s); i++ {
		if !strings.EqualFold(s[i:i+6], "readme") {
			continue
		}
		if (i == 0 || !letter(s[i-1])) && (i+6 == len(s) || !letter(s[i+6])) {
			return true
		}
	}
	return false
}
