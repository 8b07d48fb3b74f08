package surface

import (
	"encoding/json"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// readAdvertised reads the tool names the artifact declares outside its
// registration code (DESIGN.md decision 3): an MCPB/DXT manifest.json, a
// server.json, and the README's list under a heading that names tools.
func (x *extractor) readAdvertised(fsys fs.FS) {
	seen := map[string]bool{}
	add := func(name, source string, line int) {
		key := source + "\x00" + name
		if name == "" || seen[key] {
			return
		}
		seen[key] = true
		x.s.AdvertisedTools = append(x.s.AdvertisedTools, rundir.Advertised{Name: name, Source: source, Line: line})
	}
	for _, name := range []string{"manifest.json", "server.json"} {
		b, err := fs.ReadFile(fsys, path.Join(x.root, name))
		if err != nil {
			continue
		}
		var doc struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if json.Unmarshal(b, &doc) != nil {
			continue
		}
		for _, t := range doc.Tools {
			var obj struct {
				Name string `json:"name"`
			}
			var s string
			if json.Unmarshal(t, &obj) == nil && obj.Name != "" {
				add(obj.Name, name, 0)
			} else if json.Unmarshal(t, &s) == nil {
				add(s, name, 0)
			}
		}
	}
	ents, err := fs.ReadDir(fsys, x.root)
	if err != nil {
		return
	}
	var readmes []string
	for _, e := range ents {
		n := strings.ToLower(e.Name())
		if !e.IsDir() && (n == "readme.md" || n == "readme" || n == "readme.markdown" || n == "readme.rst" || n == "readme.txt") {
			readmes = append(readmes, e.Name())
		}
	}
	sort.Strings(readmes)
	for _, r := range readmes {
		b, err := fs.ReadFile(fsys, path.Join(x.root, r))
		if err != nil || len(b) > 4<<20 {
			continue
		}
		for _, a := range readmeTools(string(b)) {
			add(a.Name, r, a.Line)
		}
		break
	}
}

var (
	mdHeading    = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	toolsWord    = regexp.MustCompile(`(?i)\btools\b`)
	listItemName = regexp.MustCompile("^ ?[-*+]\\s+(?:\\*\\*`?([A-Za-z][A-Za-z0-9_.\\-]*)`?\\*\\*|`([A-Za-z][A-Za-z0-9_.\\-]*)`)")
	tableSep     = regexp.MustCompile(`^\|?\s*:?-{3,}`)
	toolName     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.\-]*$`)
	paramDoc     = regexp.MustCompile(`(?i)^\s*[:\-–—]?\s*\((string|number|integer|boolean|bool|array|object|optional|required|int|float)\b`)
)

// readmeTools lists the names a README gives under a heading naming tools:
// top-level list items that start with a bold or code name, and the first
// column of tables, up to the next heading. Parameter lists ("- `url`
// (string)") are not tool names.
func readmeTools(md string) []rundir.Advertised {
	var out []rundir.Advertised
	lines := strings.Split(md, "\n")
	level := 0 // level of the open tools heading, 0 when none
	fence := false
	for i := 0; i < len(lines); i++ {
		l := strings.TrimRight(lines[i], "\r")
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := mdHeading.FindStringSubmatch(l); m != nil {
			lv := len(m[1])
			// Any heading closes the list: a deeper heading that does not
			// name tools starts one tool's own section (its parameters,
			// examples), whose list items are not tool names.
			level = 0
			if toolsWord.MatchString(m[2]) {
				level = lv
			}
			continue
		}
		if level == 0 {
			continue
		}
		if m := listItemName.FindStringSubmatch(l); m != nil {
			name := m[1]
			if name == "" {
				name = m[2]
			}
			if paramDoc.MatchString(l[len(m[0]):]) {
				continue
			}
			out = append(out, rundir.Advertised{Name: name, Line: i + 1})
			continue
		}
		// A table: header row, separator, rows; the first column names tools.
		if strings.HasPrefix(t, "|") && i+1 < len(lines) && tableSep.MatchString(strings.TrimSpace(lines[i+1])) {
			i += 2
			for ; i < len(lines); i++ {
				row := strings.TrimSpace(lines[i])
				if !strings.HasPrefix(row, "|") {
					i--
					break
				}
				cells := strings.Split(strings.Trim(row, "|"), "|")
				c := strings.TrimSpace(cells[0])
				c = strings.Trim(c, "*`")
				if toolName.MatchString(c) {
					out = append(out, rundir.Advertised{Name: c, Line: i + 1})
				}
			}
		}
	}
	return out
}

// findDelegation records that the package's server lives in a declared
// dependency: an entry point that imports, re-exports or requires it while
// the package registers nothing itself.
func (x *extractor) findDelegation() {
	if x.pkg == nil || x.readSites > 0 {
		return
	}
	deps := map[string]string{}
	for _, m := range []map[string]string{x.pkg.PeerDependencies, x.pkg.OptionalDependencies, x.pkg.Dependencies} {
		for k, v := range m {
			deps[k] = v
		}
	}
	if len(deps) == 0 {
		return
	}
	type cand struct {
		name string
		site rundir.Site
		rank int
	}
	var best *cand
	for _, f := range x.entryFiles {
		if f.facts == nil {
			continue
		}
		for _, im := range f.facts.imports {
			name := packageOf(im.spec)
			spec, ok := deps[name]
			if !ok || spec == "" || supportPackage(name) {
				continue
			}
			rank := 1
			ln := strings.ToLower(name)
			if strings.Contains(ln, "mcp") || strings.Contains(ln, "server") {
				rank = 2
			}
			if best == nil || rank > best.rank {
				best = &cand{name: name, site: f.site(im.node, "entry point loads "+im.spec), rank: rank}
			}
		}
	}
	if best == nil {
		return
	}
	x.s.DelegatesTo = &rundir.Delegation{Registry: "npm", Name: best.name, Specifier: deps[best.name], Evidence: best.site}
}

// packageOf returns the package name of a bare specifier.
func packageOf(spec string) string {
	if strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "node:") {
		return ""
	}
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// supportPackage names dependencies that are libraries a server uses, not
// a server it delegates to.
func supportPackage(name string) bool {
	if strings.HasPrefix(name, "@modelcontextprotocol/") || strings.HasPrefix(name, "@types/") {
		return true
	}
	switch name {
	case "zod", "zod-to-json-schema", "dotenv", "express", "commander", "yargs", "chalk", "axios", "node-fetch",
		"ws", "uuid", "debug", "cross-spawn", "fastmcp", "tslib":
		return true
	}
	return false
}
