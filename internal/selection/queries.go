package selection

import (
	"strings"

	"github.com/attestari/attestari/internal/registry"
)

// QuerySet is a fixed, named list of search queries. Its name is written into
// every selection record it draws; a change to any query is a new set with a
// new name, never an edit of this one.
type QuerySet struct {
	Name string
	// NPM are search API texts, sent exactly as written.
	NPM []string
	// PyPI are hyphen-separated words: a project matches when its PEP 503
	// name holds them as consecutive hyphen-separated parts ("mcp" matches
	// mcp-server-vcs and vcs-mcp, not quickmcp).
	PyPI []string
}

// Queries1 is the first query set: the keywords MCP server packages tag
// themselves with and the words their descriptions use.
var Queries1 = QuerySet{
	Name: "attestari-queries-1",
	NPM: []string{
		"keywords:mcp",
		"keywords:mcp-server",
		"keywords:modelcontextprotocol",
		"keywords:model-context-protocol",
		"mcp server",
		"model context protocol",
	},
	PyPI: []string{"mcp", "model-context-protocol"},
}

// matchesPyPIQuery reports whether name's PEP 503 form holds the query's
// words as consecutive parts.
func matchesPyPIQuery(name, query string) bool {
	parts := strings.Split(registry.NormalizePyPIName(name), "-")
	words := strings.Split(registry.NormalizePyPIName(query), "-")
	for i := 0; i+len(words) <= len(parts); i++ {
		ok := true
		for j, w := range words {
			if parts[i+j] != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
