package corpus

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// The file selection of a Python build backend's sdist, as far as the
// packer applies it. The real sdist of a server is built by its backend
// from the package root; a packed archive that holds files the real one
// leaves out lets the extractor read code no installed server has. The
// packer applies hatchling's documented sdist selection (include, exclude
// and only-include of [tool.hatch.build.targets.sdist], each key falling
// back to [tool.hatch.build]; Git-style glob patterns, exclude taking
// precedence; pyproject.toml, hatch.toml, hatch_build.py, .gitignore, the
// readme and the license files always included). Any other backend, and a
// hatchling configuration with an option the packer does not apply, packs
// the whole tree as before, and the rule recorded says so.

// sdistSelection is the rule that chose an archive's files: Rule is the
// text recorded in servers.json, keep decides one path (nil: every file).
type sdistSelection struct {
	Rule string
	keep func(p string) bool
}

// hatchSelectionKeys are the file-selection options of hatchling; those
// the packer applies are include, exclude and only-include.
var hatchSelectionKeys = []string{"include", "exclude", "only-include", "packages", "sources", "force-include", "artifacts", "ignore-vcs", "only-packages", "skip-excluded-dirs"}

// selectSdistFiles reads pyproject.toml (nil when the tree has none) and
// returns the selection the packer applies.
func selectSdistFiles(pyproject []byte) sdistSelection {
	whole := func(why string) sdistSelection { return sdistSelection{Rule: "whole tree: " + why} }
	if pyproject == nil {
		return whole("no pyproject.toml")
	}
	t, err := readTOMLSubset(string(pyproject))
	if err != nil {
		return whole("pyproject.toml not read (" + err.Error() + ")")
	}
	backend, _ := tomlString(t["build-system.build-backend"])
	if backend != "hatchling.build" {
		if backend == "" {
			backend = "no build-backend"
		}
		return whole(backend + " (its file selection is not applied by the packer)")
	}
	opt := map[string]string{}
	for _, k := range hatchSelectionKeys {
		if v, ok := t["tool.hatch.build.targets.sdist."+k]; ok {
			opt[k] = v
		} else if v, ok := t["tool.hatch.build."+k]; ok {
			opt[k] = v
		}
	}
	for tab := range t {
		if strings.HasPrefix(tab, "tool.hatch.build.targets.sdist.force-include.") || strings.HasPrefix(tab, "tool.hatch.build.force-include.") {
			opt["force-include"] = "table"
		}
	}
	for _, k := range []string{"packages", "sources", "force-include", "artifacts", "ignore-vcs", "only-packages", "skip-excluded-dirs"} {
		if _, ok := opt[k]; ok {
			return whole("hatchling with " + k + " (not applied by the packer)")
		}
	}
	inc, err1 := tomlStrings(opt["include"])
	exc, err2 := tomlStrings(opt["exclude"])
	only, err3 := tomlStrings(opt["only-include"])
	if err1 != nil || err2 != nil || err3 != nil {
		return whole("hatchling selection options that are not lists of strings")
	}
	if len(inc) == 0 && len(exc) == 0 && len(only) == 0 {
		return whole("hatchling with no selection options (every file the VCS tracks)")
	}
	incRe, err1 := gitGlobs(inc)
	excRe, err2 := gitGlobs(exc)
	if err1 != nil || err2 != nil {
		return whole("hatchling patterns the packer does not read")
	}
	var onlyPaths []string
	for _, o := range only {
		o = strings.Trim(path.Clean("/"+o), "/")
		if o == "" || strings.ContainsAny(o, "*?[") {
			return whole("hatchling only-include entries that are not plain paths")
		}
		onlyPaths = append(onlyPaths, o)
	}
	forced := map[string]bool{"pyproject.toml": true, "hatch.toml": true, "hatch_build.py": true, ".gitignore": true}
	if r, ok := tomlString(t["project.readme"]); ok {
		forced[strings.Trim(path.Clean("/"+r), "/")] = true
	} else if r, ok := tomlInlineString(t["project.readme"], "file"); ok {
		forced[strings.Trim(path.Clean("/"+r), "/")] = true
	} else if _, ok := t["project.readme"]; ok {
		return whole("a readme the packer does not read")
	}
	if r, ok := tomlInlineString(t["project.license"], "file"); ok {
		forced[strings.Trim(path.Clean("/"+r), "/")] = true
	}
	lic := []string{"LICEN[CS]E*", "COP[YI]ING*", "NOTICE*", "AUTHORS*"} // hatchling's default license-files
	if v, ok := t["project.license-files"]; ok {
		l, err := tomlStrings(v)
		if err != nil {
			return whole("license-files the packer does not read")
		}
		lic = l
	}
	licRe, err := gitGlobs(anchor(lic))
	if err != nil {
		return whole("license-files patterns the packer does not read")
	}
	keep := func(p string) bool {
		if forced[p] || matchAny(licRe, p) {
			return true
		}
		if len(onlyPaths) > 0 {
			in := false
			for _, o := range onlyPaths {
				in = in || p == o || strings.HasPrefix(p, o+"/")
			}
			if !in {
				return false
			}
		}
		if len(incRe) > 0 && !matchAny(incRe, p) {
			return false
		}
		return !matchAny(excRe, p)
	}
	var parts []string
	if len(only) > 0 {
		parts = append(parts, "only-include "+strings.Join(only, ", "))
	}
	if len(inc) > 0 {
		parts = append(parts, "include "+strings.Join(inc, ", "))
	}
	if len(exc) > 0 {
		parts = append(parts, "exclude "+strings.Join(exc, ", "))
	}
	return sdistSelection{Rule: "hatchling sdist: " + strings.Join(parts, "; ") + " (with pyproject.toml, the readme and the license files)", keep: keep}
}

func anchor(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = "/" + strings.TrimPrefix(p, "/")
	}
	return out
}

func matchAny(res []*regexp.Regexp, p string) bool {
	for _, re := range res {
		if re.MatchString(p) {
			return true
		}
	}
	return false
}

// gitGlobs compiles Git-style glob patterns (gitignore's pattern format, as
// pathspec's gitwildmatch reads them) to expressions over a slash-separated
// path relative to the package root. A pattern matches a path or any path
// under it; a pattern with no slash but a trailing one matches at any
// depth; a leading or inner slash anchors it at the root; `**` spans
// directories, `*` and `?` stay within one. Negated patterns and escapes
// are refused.
func gitGlobs(ps []string) ([]*regexp.Regexp, error) {
	var out []*regexp.Regexp
	for _, p := range ps {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "#") {
			continue
		}
		if strings.HasPrefix(p, "!") || strings.Contains(p, `\`) {
			return nil, fmt.Errorf("pattern %q: negation and escapes are not read", p)
		}
		dirOnly := strings.HasSuffix(p, "/")
		p = strings.TrimSuffix(p, "/")
		anchored := strings.Contains(p, "/")
		p = strings.TrimPrefix(p, "/")
		var b strings.Builder
		b.WriteString("^")
		if !anchored {
			b.WriteString("(?:.*/)?")
		}
		segs := strings.Split(p, "/")
		for i, s := range segs {
			last := i == len(segs)-1
			if s == "**" {
				if last {
					b.WriteString(".*")
				} else {
					b.WriteString("(?:.*/)?")
				}
				continue
			}
			for j := 0; j < len(s); j++ {
				switch c := s[j]; c {
				case '*':
					b.WriteString("[^/]*")
				case '?':
					b.WriteString("[^/]")
				case '[':
					k := strings.IndexByte(s[j:], ']')
					if k < 0 {
						return nil, fmt.Errorf("pattern %q: an unclosed class", p)
					}
					cls := s[j+1 : j+k]
					if strings.HasPrefix(cls, "!") {
						cls = "^" + cls[1:]
					}
					b.WriteString("[" + cls + "]")
					j += k
				default:
					b.WriteString(regexp.QuoteMeta(string(c)))
				}
			}
			if !last {
				b.WriteString("/")
			}
		}
		if dirOnly {
			b.WriteString("/.*$")
		} else {
			b.WriteString("(?:/.*)?$")
		}
		re, err := regexp.Compile(b.String())
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %w", p, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// readTOMLSubset reads the keys of a TOML document that the selection
// needs: `key = value` lines under [table] headers, a value being a basic
// or literal string, an array (over several lines) or an inline table on
// one line. It returns dotted keys (table.key) to the value's text; a
// header [a.b] alone is recorded as "a.b." so that sub-tables are seen.
// Anything it cannot split is an error.
func readTOMLSubset(doc string) (map[string]string, error) {
	out := map[string]string{}
	table := ""
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(stripTOMLComment(lines[i]))
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "[") {
			h := strings.TrimSpace(strings.Trim(l, "[]"))
			table = strings.ReplaceAll(h, `"`, "")
			out[table+"."] = ""
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			continue // a line of a multi-line string: not a key this reader needs
		}
		k = strings.Trim(strings.TrimSpace(k), `"`)
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "[") {
			depth := strings.Count(v, "[") - strings.Count(v, "]")
			for depth > 0 && i+1 < len(lines) {
				i++
				n := strings.TrimSpace(stripTOMLComment(lines[i]))
				v += " " + n
				depth += strings.Count(n, "[") - strings.Count(n, "]")
			}
			if depth != 0 {
				return nil, fmt.Errorf("an array of %s is not closed", k)
			}
		}
		key := k
		if table != "" {
			key = table + "." + k
		}
		out[key] = v
	}
	return out, nil
}

// stripTOMLComment drops a # comment that is not inside a string.
func stripTOMLComment(l string) string {
	var q byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return l[:i]
		}
	}
	return l
}

var tomlStr = regexp.MustCompile(`^"([^"\\]*)"$|^'([^']*)'$`)

func tomlString(v string) (string, bool) {
	m := tomlStr.FindStringSubmatch(strings.TrimSpace(v))
	if m == nil {
		return "", false
	}
	return m[1] + m[2], true
}

var tomlItem = regexp.MustCompile(`"([^"\\]*)"|'([^']*)'`)

// tomlStrings reads an array of plain strings ("" reads as none).
func tomlStrings(v string) ([]string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil, nil
	}
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, fmt.Errorf("not an array: %q", v)
	}
	body := v[1 : len(v)-1]
	var out []string
	for _, m := range tomlItem.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+m[2])
	}
	if rest := strings.Trim(tomlItem.ReplaceAllString(body, ""), " ,\t"); rest != "" {
		return nil, fmt.Errorf("not an array of strings: %q", v)
	}
	return out, nil
}

// tomlInlineString reads key of a one-line inline table {key = "x", ...}.
func tomlInlineString(v, key string) (string, bool) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "{") || !strings.HasSuffix(v, "}") {
		return "", false
	}
	for _, part := range strings.Split(v[1:len(v)-1], ",") {
		k, val, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(k) == key {
			return tomlString(val)
		}
	}
	return "", false
}
