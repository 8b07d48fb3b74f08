package surface

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// readAdvertised reads the tool names the artifact declares outside its
// registration code, exactly as methodology §5.2 states them (DESIGN.md
// decision 3): the tools of an MCPB/DXT manifest.json and of a server.json
// at the package root, and the names a root README lists under a heading
// that names tools.
func (x *extractor) readAdvertised(fsys fs.FS) {
	seen := map[string]bool{}
	add := func(name, source string, line int) {
		key := source + "\x00" + name
		if name == "" || seen[key] {
			return
		}
		seen[key] = true
		if len(x.s.AdvertisedTools) >= x.opts.MaxEntries {
			x.exceed(fmt.Sprintf("the artifact advertises more than %d tool names (the entries cap)", x.opts.MaxEntries))
			return
		}
		x.s.AdvertisedTools = append(x.s.AdvertisedTools, rundir.Advertised{Name: name, Source: source, Line: line})
	}
	for _, name := range []string{"manifest.json", "server.json"} {
		b, err := fs.ReadFile(fsys, path.Join(x.root, name))
		if err != nil {
			continue
		}
		for _, n := range manifestToolNames(b, name == "manifest.json") {
			add(n, name, 0)
		}
	}
	ents, err := fs.ReadDir(fsys, x.root)
	if err != nil {
		return
	}
	var readmes []string
	for _, e := range ents {
		switch strings.ToLower(e.Name()) {
		case "readme", "readme.md", "readme.markdown":
			if !e.IsDir() {
				readmes = append(readmes, e.Name())
			}
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

// manifestToolNames reads the name of each object of the top-level tools
// array. A manifest.json counts only when it is an MCPB/DXT manifest: it has
// a server object, a manifest_version or a dxt_version member.
func manifestToolNames(b []byte, mcpb bool) []string {
	var doc map[string]json.RawMessage
	if json.Unmarshal(b, &doc) != nil {
		return nil
	}
	if mcpb {
		var server map[string]json.RawMessage
		_, hasMV := doc["manifest_version"]
		_, hasDXT := doc["dxt_version"]
		if json.Unmarshal(doc["server"], &server) != nil && !hasMV && !hasDXT {
			return nil
		}
	}
	var tools []json.RawMessage
	if json.Unmarshal(doc["tools"], &tools) != nil {
		return nil
	}
	var out []string
	for _, t := range tools {
		var obj struct {
			Name *string `json:"name"`
		}
		if json.Unmarshal(t, &obj) == nil && obj.Name != nil {
			out = append(out, *obj.Name)
		}
	}
	return out
}

var (
	atxHeading   = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$`)
	setextUnder  = regexp.MustCompile(`^ {0,3}(=+|-+)[ \t]*$`)
	toolsWord    = regexp.MustCompile(`(?i)\btools?\b`)
	listMarker   = regexp.MustCompile(`^( *)(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+|$)`)
	fenceOpen    = regexp.MustCompile("^ {0,3}(`{3,}|~{3,})")
	toolNameRule = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.\-/]*$`)
	mdLink       = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag      = regexp.MustCompile(`<[^>]*>`)
)

// readmeTools lists the names a README gives under a heading that names
// tools (methodology §5.2, rule 3): a heading whose text, Markdown
// formatting removed, holds the word "tool" or "tools"; its section runs to
// the next heading of the same or a higher level. Inside it, a name is the
// inline code span a list item or a table row begins with, or the whole
// text of a subheading that is one code span, when it has the shape of a
// tool name. Prose, links and code blocks are never names. Two places
// document a tool rather than name one, and give no names (2.3.2): a list
// item nested in another list item (a tool's parameters, listed under it),
// and the section under a subheading that is one code span (that subheading
// names the tool; what follows describes it).
func readmeTools(md string) []rundir.Advertised {
	var out []rundir.Advertised
	lines := strings.Split(md, "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], "\r")
	}
	level := 0 // the open tools section's heading level, 0 when none
	named := 0 // the level of the open section under a code-span subheading, 0 when none
	fence := ""
	inList := false
	listIndent := 0 // the indent of the current list's first item
	prevBlank := true
	var doc docScope     // what the list or table being read documents (readme_params.go)
	var det detailsScope // a <details> block documenting one tool (advert_readme.go)
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if fence != "" {
			if m := fenceOpen.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[1], fence[:1]) && len(m[1]) >= len(fence) &&
				strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), fence[:1])) == "" {
				fence = ""
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(l); m != nil {
			fence = m[1]
			if len(l)-len(strings.TrimLeft(l, " ")) < 2 {
				inList = false // a fence at the margin ends any list
				doc.block()
			}
			prevBlank = false
			continue
		}
		det.line(l)
		blank := strings.TrimSpace(l) == ""
		lv, text, isHeading := 0, "", false
		if m := atxHeading.FindStringSubmatch(l); m != nil {
			lv, text, isHeading = len(m[1]), strings.TrimRight(strings.TrimRight(m[2], "#"), " \t"), true
			if strings.HasSuffix(m[2], "#") && !strings.HasSuffix(strings.TrimRight(m[2], "#"), " ") && strings.TrimRight(m[2], "#") != "" {
				text = m[2] // a closing sequence needs a space before it
			}
		} else if !blank && !prevBlank && i > 0 && !inList && !strings.HasPrefix(strings.TrimSpace(lines[i-1]), "|") && setextUnder.MatchString(l) &&
			!listMarker.MatchString(lines[i-1]) && atxHeading.FindStringSubmatch(lines[i-1]) == nil {
			// A setext underline makes the line before it a heading.
			lv, text, isHeading = 1, strings.TrimSpace(lines[i-1]), true
			if strings.Contains(l, "-") {
				lv = 2
			}
			// The underlined line was read as a paragraph line: if it
			// opened a tools section it is handled here.
		}
		if isHeading {
			if level > 0 && lv <= level {
				level = 0
				det.reset()
			}
			if named > 0 && (level == 0 || lv <= named) {
				named = 0
			}
			if level == 0 && toolsWord.MatchString(stripMarkdown(text)) {
				level = lv
			} else if level > 0 && lv > level && named == 0 && !det.active() {
				if name, ok := wholeCodeSpan(text); ok {
					out = append(out, rundir.Advertised{Name: name, Line: headingLine(i, l, lines)})
					named = lv
				}
			}
			prevBlank, inList = false, false
			doc.block()
			continue
		}
		if blank {
			prevBlank = true
			doc.blank()
			continue
		}
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if m := listMarker.FindStringSubmatch(l); m != nil && (indent < 4 || inList) {
			if !inList {
				listIndent = indent
				doc.startList()
			}
			// An item indented past the list's first marker (by the two
			// columns a marker and its space take at least) is nested in
			// the item above it.
			nested := inList && indent >= listIndent+2
			inList = true
			prevBlank = false
			if level > 0 && named == 0 && !nested && !doc.list && !det.active() {
				if name, ok := leadingCodeSpan(l[len(m[0]):]); ok {
					out = append(out, rundir.Advertised{Name: name, Line: i + 1})
				}
			}
			continue
		}
		if indent >= 4 && !inList && prevBlank {
			// An indented code block.
			continue
		}
		if indent < 2 && prevBlank {
			inList = false
		}
		prevBlank = false
		if !inList {
			doc.line(strings.TrimSpace(l))
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "|") && level > 0 && named == 0 && !det.active() {
			if isTableDelimiter(t) || doc.table {
				continue
			}
			cells := strings.Split(strings.TrimPrefix(t, "|"), "|")
			if name, ok := leadingCodeSpan(strings.TrimLeft(cells[0], " \t")); ok {
				out = append(out, rundir.Advertised{Name: name, Line: i + 1})
			}
		}
	}
	return out
}

// headingLine is the 1-based line of a heading's text (the line above a
// setext underline).
func headingLine(i int, l string, lines []string) int {
	if atxHeading.MatchString(l) {
		return i + 1
	}
	return i
}

// stripMarkdown removes inline formatting from heading text: links and
// images become their text, HTML tags, code-span backticks and emphasis
// asterisks go.
func stripMarkdown(s string) string {
	s = mdLink.ReplaceAllString(s, "$1")
	s = htmlTag.ReplaceAllString(s, "")
	s = strings.NewReplacer("`", "", "*", "").Replace(s)
	return s
}

// leadingCodeSpan returns the text of the inline code span s begins with,
// when it has the shape of a tool name.
func leadingCodeSpan(s string) (string, bool) {
	n := len(s) - len(strings.TrimLeft(s, "`"))
	if n == 0 {
		return "", false
	}
	ticks := s[:n]
	rest := s[n:]
	for off := 0; off < len(rest); {
		j := strings.Index(rest[off:], ticks)
		if j < 0 {
			return "", false
		}
		j += off
		// The closing run must be exactly as long as the opening one.
		k := j + n
		if (j > 0 && rest[j-1] == '`') || (k < len(rest) && rest[k] == '`') {
			off = k
			for off < len(rest) && rest[off] == '`' {
				off++
			}
			continue
		}
		text := rest[:j]
		if len(text) >= 2 && text[0] == ' ' && text[len(text)-1] == ' ' && strings.TrimSpace(text) != "" {
			text = text[1 : len(text)-1]
		}
		if len(text) > 128 || !toolNameRule.MatchString(text) {
			return "", false
		}
		return text, true
	}
	return "", false
}

// wholeCodeSpan returns the name a heading's whole text is one code span of.
func wholeCodeSpan(text string) (string, bool) {
	t := strings.TrimSpace(text)
	name, ok := leadingCodeSpan(t)
	if !ok {
		return "", false
	}
	n := len(t) - len(strings.TrimLeft(t, "`"))
	if !strings.HasSuffix(t, strings.Repeat("`", n)) || strings.Count(t, "`") != 2*n {
		return "", false
	}
	return name, true
}

// isTableDelimiter reports a table's delimiter row (| --- | :-: |).
func isTableDelimiter(t string) bool {
	cells := strings.Split(strings.Trim(t, "|"), "|")
	for _, c := range cells {
		c = strings.TrimSpace(c)
		c = strings.TrimPrefix(strings.TrimSuffix(c, ":"), ":")
		if len(c) < 1 || strings.Trim(c, "-") != "" {
			return false
		}
	}
	return true
}

// findDelegation records that the package's server lives in a declared
// dependency: an entry point that imports, re-exports or requires it while
// the package registers nothing itself. A package whose registration text
// sits in its own bundles (minified_only) registers, in code it ships; a
// package that is not a server (not_a_server) has no server to hand over:
// neither delegates, whatever its entry point imports (§4).
func (x *extractor) findDelegation() {
	if x.pkg == nil || x.readSites > 0 || x.s.Outcome == vocab.OutcomeMinifiedOnly || x.s.Outcome == vocab.OutcomeNotAServer {
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

// Stale advertisements (methodology §5.2, advertised tools, 2.3.4).
//
// An advertised name that is not a parsed tool refuses the grade, because
// the extractor may have missed a tool the server registers. A name that
// occurs nowhere in what the package ships cannot be registered by it: no
// code of the package can produce the bytes. Such a name is recorded as
// stale (Advertised.Stale) and refuses nothing. "Occurs" is read
// generously, so that only a name no route could build is stale. A name N
// occurs when, with both sides normalised (ASCII letters lowered, every
// byte that is not an ASCII letter or digit removed, so `get-issue`,
// `get_issue` and `getIssue` are one name):
//
//  1. it is a substring of a piece of a source member: a string literal
//     (its decoded value and each of its raw fragments), a template
//     literal's segment, an identifier or a property name, in any parsed
//     member (bundles, vendored code and tests included; comments are not
//     code and are not pieces);
//  2. it is the concatenation of at most four pieces, each a whole string
//     literal, template segment or property name (a prefix joined to a
//     literal: `${PREFIX}_${op}`, `"acme_" + name`);
//  3. it is a substring of any other member of the artifact read as bytes
//     (a JSON table, a data file, a source member that did not parse, a
//     native binary), except the files the advertised names were read
//     from.
//
// Nothing is stale when the package could register names it does not
// ship: a runtime dependency that is an MCP library other than the SDK
// (its name holds "mcp" or "modelcontext"), or a delegation; nor when a
// member cannot be searched (a compressed member, one past the size limit,
// or more bytes than the limit in all). Only npm packages (a package.json
// at the root) are judged; elsewhere no name is stale.

// The bytes read as data while judging staleness are bounded per member
// and in all; rule 2 joins at most stalePieces pieces.
const (
	staleMemberLimit = 16 << 20
	staleTotalLimit  = 64 << 20
	stalePieces      = 4
)

// markStaleAdvertised sets Advertised.Stale on each advertised name that is
// not a parsed tool and occurs nowhere in the package.
func (x *extractor) markStaleAdvertised(fsys fs.FS, members []MemberInfo) {
	if x.pkg == nil || x.exceeded || len(x.s.AdvertisedTools) == 0 || x.s.DelegatesTo != nil {
		return
	}
	parsed := map[string]bool{}
	for _, t := range x.s.Tools {
		if t.NameState == "" || t.NameState == vocab.StateReadable {
			parsed[t.Name] = true
		}
	}
	var want []int
	for i, a := range x.s.AdvertisedTools {
		if !parsed[a.Name] {
			want = append(want, i)
		}
	}
	if len(want) == 0 {
		return
	}
	others := x.otherMCPLibraries()
	if len(others) > refineLimit {
		return
	}
	idx, ok := x.sourcePieces(fsys, members, others)
	if !ok || idx.libs.loaded() {
		return
	}
	for _, i := range want {
		if !idx.occurs(x.s.AdvertisedTools[i].Name) {
			x.s.AdvertisedTools[i].Stale = true
		}
	}
	x.refineAdvertised(idx, want) // advertised_refine.go
}

// otherMCPLibraries lists the runtime dependencies that could register
// tools on the package's server: MCP libraries other than the official SDK
// and the frameworks that register only what they are handed
// (advert_evidence.go). Such a library counts only when the package loads
// it (sourcePieces records where it is named).
func (x *extractor) otherMCPLibraries() []string {
	set := map[string]bool{}
	for _, m := range []map[string]string{x.pkg.Dependencies, x.pkg.OptionalDependencies, x.pkg.PeerDependencies} {
		for name := range m {
			if frameworkDependency(name, m[name]) { // resnames_fastmcp.go
				continue
			}
			ln := strings.ToLower(name)
			if strings.Contains(ln, "mcp") || strings.Contains(ln, "modelcontext") {
				set[name] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// pieceIndex holds the normalised pieces of a package's source.
type pieceIndex struct {
	// all holds every piece (rule 1); whole the pieces that may be joined
	// (rule 2); data the normalised bytes of the members read as data
	// (rule 3).
	all   string // the pieces, each followed by a 0 byte (never in a normalised name)
	whole map[string]bool
	data  string
	// longest is the length of the longest whole piece, bounding rule 2.
	longest int
	// exact holds the same pieces unnormalised (advertised_refine.go).
	exact exactPieces
	// libs records which other MCP libraries are named, and namesReadme
	// that some piece names a readme (advert_evidence.go).
	libs        libraryScan
	namesReadme bool
}

// normName lowers ASCII letters and keeps only letters, digits and bytes
// outside ASCII.
func normName(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// compressedExt names members whose bytes do not show the text they hold.
var compressedExt = []string{".gz", ".tgz", ".zip", ".br", ".zst", ".xz", ".bz2", ".7z", ".jar", ".whl", ".lz4", ".tar"}

func (x *extractor) sourcePieces(fsys fs.FS, members []MemberInfo, others []string) (*pieceIndex, bool) {
	idx := &pieceIndex{whole: map[string]bool{}, libs: libraryScan{names: others, found: map[string]bool{}}}
	seen := map[string]bool{}
	var all, data strings.Builder
	idx.exact.init(x.refineCandidates())
	addPiece := func(s string, whole bool) {
		idx.exact.add(s, whole)
		idx.libs.add(s)
		idx.namesReadme = idx.namesReadme || mentionsReadme(s)
		if !seen[s] {
			// A name is sought in the piece's whitespace-free runs (2.3.10).
			seen[s] = true
			writeRuns(&all, s)
		}
		n := normName(s)
		if n == "" {
			return
		}
		if whole && !idx.whole[n] {
			idx.whole[n] = true
			if len(n) > idx.longest {
				idx.longest = len(n)
			}
		}
	}
	advertisedFrom := map[string]bool{}
	for _, a := range x.s.AdvertisedTools {
		advertisedFrom[path.Join(x.root, a.Source)] = true
	}
	total := 0
	var translations [][]byte
	for _, m := range members {
		if f := x.byPath[m.Path]; f != nil && f.parsed != nil {
			x.filePieces(f, addPiece)
			continue
		}
		if advertisedFrom[m.Path] {
			continue
		}
		translation := x.isReadmeTranslation(m.Path)
		lp := strings.ToLower(m.Path)
		for _, ext := range compressedExt {
			if strings.HasSuffix(lp, ext) {
				return nil, false
			}
		}
		if m.Size > staleMemberLimit || total+int(m.Size) > staleTotalLimit || x.heldBytes+int64(total)+m.Size > x.opts.RSSBudget {
			return nil, false
		}
		b, err := fs.ReadFile(fsys, m.Path)
		if err != nil || len(b) > staleMemberLimit {
			return nil, false
		}
		// The bytes count toward the memory estimate's peak while they are
		// searched; nothing beyond the budget is read (no name is then stale).
		x.hold(int64(len(b)))
		defer x.hold(-int64(len(b)))
		total += len(b)
		if translation {
			translations = append(translations, b)
			continue
		}
		text := string(b)
		if m.Path != path.Join(x.root, "package.json") {
			idx.libs.add(text)
		}
		idx.exact.scanData(b)
		writeRuns(&data, text)
	}
	idx.all = all.String()
	// The README's translations are searched only when a piece of the
	// package names a readme: code that could open one (2.3.10).
	if idx.namesReadme {
		for _, b := range translations {
			text := string(b)
			idx.libs.add(text)
			idx.exact.scanData(b)
			writeRuns(&data, text)
		}
	}
	idx.data = data.String()
	return idx, true
}

// identKinds are the leaves that name a binding or a property.
var identKinds = map[string]bool{"identifier": true, "property_identifier": true, "shorthand_property_identifier": true,
	"shorthand_property_identifier_pattern": true, "private_property_identifier": true, "type_identifier": true,
	"statement_identifier": true}

// filePieces adds the pieces of one parsed member. The flat copy is in
// preorder, so this is one loop over the nodes.
func (x *extractor) filePieces(f *file, add func(string, bool)) {
	for i := range f.nodes {
		n := nid(i)
		switch k := f.kind(n); {
		case k == "string" && f.lang != LangPython:
			if v, ok := f.stringValue(n); ok {
				add(v, true)
			}
		case k == "string_fragment" || k == "string_content":
			add(f.text(n), true)
		case k == "property_identifier" || k == "shorthand_property_identifier":
			add(f.text(n), true)
		case identKinds[k]:
			add(f.text(n), false)
		}
	}
}

// occurs applies the three rules to one advertised name.
func (idx *pieceIndex) occurs(name string) bool {
	n := normName(name)
	if n == "" {
		return true
	}
	if strings.Contains(idx.all, n) || strings.Contains(idx.data, n) {
		return true
	}
	// Rule 2: cut n into at most stalePieces whole pieces. best[i] is the
	// fewest pieces that build n[:i].
	best := make([]int, len(n)+1)
	for i := range best {
		best[i] = stalePieces + 1
	}
	best[0] = 0
	for i := 0; i < len(n); i++ {
		if best[i] >= stalePieces {
			continue
		}
		for j := i + 1; j <= len(n) && j-i <= idx.longest; j++ {
			if idx.whole[n[i:j]] && best[i]+1 < best[j] {
				best[j] = best[i] + 1
			}
		}
	}
	return best[len(n)] <= stalePieces
}
