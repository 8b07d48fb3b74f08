package surface

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Two more advertised names are recorded as stale and refuse nothing
// (methodology §5.2, advertised tools, since 2.3.5), each on evidence read
// from the package, under the same conditions as the stale rule of 2.3.4
// (a package.json at the root, no delegation, no MCP library other than the
// SDK, every member searchable):
//
//   - a spelling of a parsed tool ("stale_by": "spelling"): the name is not
//     a parsed tool, its normalised form is a parsed tool's (the README says
//     `deploy-file-contents`, the server registers `deploy_file_contents`),
//     and the name itself, byte for byte, occurs nowhere: it is contained in
//     no piece of a parsed member, is the join of no four whole pieces, and
//     is in the bytes of no other member. The normalised occurrence the
//     2.3.4 rule found is the parsed tool; the exact name no route builds.
//   - an environment variable the package reads ("stale_by":
//     "environment"): the name has an environment variable's shape
//     (`[A-Z][A-Z0-9_]*`), the package reads `process.env` under exactly
//     that name (the capability inventory, section 20), and the name is the
//     whole value of no string literal or template segment of the package
//     and occurs in the bytes of no other member, so nothing hands it to a
//     registration as text.
//
// The names sought exactly are at most refineLimit; past that no name is
// refined this way (each is searched in every member's bytes).

const (
	refineLimit   = 64
	staleSpelling = vocab.StaleBySpelling
	staleEnv      = vocab.StaleByEnvironment
	staleByPrefix = vocab.StaleByPrefix
)

// envShape is an environment variable's name.
var envShape = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// exactPieces holds, for the names sought, what the package's pieces and
// data members say about them byte for byte.
type exactPieces struct {
	want  map[string]bool
	seen  map[string]bool
	all   strings.Builder // every piece, each followed by a 0 byte
	whole map[string]bool // whole pieces no longer than the longest name sought
	max   int             // the longest name sought
	data  map[string]bool // names contained in a data member's bytes
}

func (e *exactPieces) init(names []string) {
	if len(names) == 0 {
		return
	}
	e.want, e.seen, e.whole, e.data = map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, n := range names {
		e.want[n] = true
		e.max = max(e.max, len(n))
	}
}

func (e *exactPieces) add(s string, whole bool) {
	if e.want == nil || s == "" {
		return
	}
	if !e.seen[s] {
		e.seen[s] = true
		e.all.WriteString(s)
		e.all.WriteByte(0)
	}
	if whole && len(s) <= e.max {
		e.whole[s] = true
	}
}

func (e *exactPieces) scanData(b []byte) {
	for n := range e.want {
		if !e.data[n] && bytes.Contains(b, []byte(n)) {
			e.data[n] = true
		}
	}
}

// occurs is the 2.3.4 rule read byte for byte: contained in a piece, in a
// data member, or the join of at most stalePieces whole pieces.
func (e *exactPieces) occurs(n string) bool {
	if e.data[n] || strings.Contains(e.all.String(), n) {
		return true
	}
	best := make([]int, len(n)+1)
	for i := range best {
		best[i] = stalePieces + 1
	}
	best[0] = 0
	for i := 0; i < len(n); i++ {
		if best[i] >= stalePieces {
			continue
		}
		for j := i + 1; j <= len(n); j++ {
			if e.whole[n[i:j]] && best[i]+1 < best[j] {
				best[j] = best[i] + 1
			}
		}
	}
	return best[len(n)] <= stalePieces
}

// parsedByNorm maps the normalised name of each parsed tool to the tool.
func (x *extractor) parsedByNorm() map[string]string {
	out := map[string]string{}
	for _, t := range x.s.Tools {
		if t.NameState == "" || t.NameState == vocab.StateReadable {
			out[normName(t.Name)] = t.Name
		}
	}
	return out
}

// envRead is the set of environment variables the package reads by a
// literal name.
func (x *extractor) envRead() map[string]bool {
	out := map[string]bool{}
	for _, c := range x.s.Capabilities {
		if c.Kind == CapEnvironment && c.Tag == "read" && envShape.MatchString(c.Target) {
			out[c.Target] = true
		}
	}
	return out
}

// refineCandidates lists the advertised names, not parsed, that one of the
// two refinements could take; nil past refineLimit.
func (x *extractor) refineCandidates() []string {
	byNorm, env := x.parsedByNorm(), x.envRead()
	parsed := map[string]bool{}
	for _, p := range byNorm {
		parsed[p] = true
	}
	prefix, names := x.toolPrefix(), x.parsedNames()
	set := map[string]bool{}
	for _, a := range x.s.AdvertisedTools {
		if parsed[a.Name] {
			continue
		}
		if _, ok := byNorm[normName(a.Name)]; ok || (envShape.MatchString(a.Name) && env[a.Name]) || (prefix != "" && names[prefix+a.Name]) {
			set[a.Name] = true
		}
	}
	if len(set) > refineLimit {
		return nil
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// refineAdvertised marks the names of want (indexes of advertised names not
// parsed) that the two refinements take.
func (x *extractor) refineAdvertised(idx *pieceIndex, want []int) {
	e := &idx.exact
	if e.want == nil {
		return
	}
	byNorm, env := x.parsedByNorm(), x.envRead()
	prefix, names := x.toolPrefix(), x.parsedNames()
	var literals map[string]bool
	for _, i := range want {
		a := &x.s.AdvertisedTools[i]
		if a.Stale || !e.want[a.Name] {
			continue
		}
		if _, ok := byNorm[normName(a.Name)]; ok && !e.occurs(a.Name) {
			a.Stale, a.StaleBy = true, staleSpelling
			continue
		}
		if envShape.MatchString(a.Name) && env[a.Name] && !e.data[a.Name] {
			if literals == nil {
				literals = x.wholeLiterals(e.want)
			}
			if !literals[a.Name] {
				a.Stale, a.StaleBy = true, staleEnv
				continue
			}
		}
		if prefix != "" && names[prefix+a.Name] && !e.data[a.Name] {
			// A shortened mention of a parsed tool (2.3.10,
			// advert_evidence.go).
			if literals == nil {
				literals = x.wholeLiterals(e.want)
			}
			if !literals[a.Name] {
				a.Stale, a.StaleBy = true, staleByPrefix
			}
		}
	}
}

// wholeLiterals reports which of the names are the whole decoded value of a
// string literal or the whole text of a template segment in a parsed member.
func (x *extractor) wholeLiterals(names map[string]bool) map[string]bool {
	out := map[string]bool{}
	paths := make([]string, 0, len(x.byPath))
	for p := range x.byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := x.byPath[p]
		if f == nil || f.parsed == nil {
			continue
		}
		for i := range f.nodes {
			n := nid(i)
			switch k := f.kind(n); {
			case k == "string" && f.lang != LangPython:
				if v, ok := f.stringValue(n); ok && names[v] {
					out[v] = true
				}
			case k == "string_fragment" || k == "string_content":
				if v := f.text(n); names[v] {
					out[v] = true
				}
			}
		}
	}
	return out
}

// staleReason is how a stale advertised name is shown.
func staleReason(by string) string {
	switch by {
	case staleSpelling:
		return "spells a parsed tool's name differently and occurs nowhere as written"
	case staleEnv:
		return "an environment variable the package reads, no literal of it"
	case staleByPrefix:
		return "a parsed tool's name without the prefix all its tools share, no literal of it"
	}
	return "occurs nowhere in the package's source"
}
