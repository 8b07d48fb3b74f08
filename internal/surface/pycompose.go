package surface

import (
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Composition of FastMCP servers (methodology §5.2, "Composition").
//
// A standalone fastmcp server can be assembled from sub-servers:
// parent.mount(sub, prefix="jira") (namespace= in 3.x, mount("jira", sub)
// before 2.9) and await parent.import_server(sub, prefix=...). A client of
// the parent sees the sub-server's tools and prompts under prefixed names and
// its resources under prefixed URIs, by a rule that changed across releases.
// This file reads such calls, chooses the rule from the framework versions
// the package's requirement admits, and renames what each registration site
// of a mounted server registers. What cannot be read exactly leaves the site
// unread: never the bare names.

// pyVer is a release version: its numeric components (pre-release, post,
// dev and local labels dropped).
type pyVer []int

func parsePyVer(s string) (pyVer, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "v"))
	var out pyVer
	for _, part := range strings.Split(s, ".") {
		d := 0
		for d < len(part) && part[d] >= '0' && part[d] <= '9' {
			d++
		}
		if d == 0 {
			break
		}
		n, err := strconv.Atoi(part[:d])
		if err != nil || n > 1<<20 {
			return nil, false
		}
		out = append(out, n)
		if d < len(part) || len(out) >= 8 {
			break // a label (rc1, post2, +local) ends the release number
		}
	}
	return out, len(out) > 0
}

func (a pyVer) cmp(b pyVer) int {
	for i := 0; i < len(a) || i < len(b); i++ {
		var p, q int
		if i < len(a) {
			p = a[i]
		}
		if i < len(b) {
			q = b[i]
		}
		if p != q {
			if p < q {
				return -1
			}
			return 1
		}
	}
	return 0
}

// verBound is one end of a set of versions; nil v is unbounded.
type verBound struct {
	v   pyVer
	inc bool
}

// verSet is the versions between lo and hi.
type verSet struct{ lo, hi verBound }

// meets reports whether two sets share a version. Between two distinct
// releases there are always others (2.3.4.1), so sets of the continuum
// meet when one's low end is below the other's high end.
func (s verSet) meets(t verSet) bool {
	lo, hi := s.lo, s.hi
	if t.lo.v != nil && (lo.v == nil || t.lo.v.cmp(lo.v) > 0 || t.lo.v.cmp(lo.v) == 0 && !t.lo.inc) {
		lo = t.lo
	}
	if t.hi.v != nil && (hi.v == nil || t.hi.v.cmp(hi.v) < 0 || t.hi.v.cmp(hi.v) == 0 && !t.hi.inc) {
		hi = t.hi
	}
	if lo.v == nil || hi.v == nil {
		return true
	}
	c := lo.v.cmp(hi.v)
	return c < 0 || c == 0 && lo.inc && hi.inc
}

// bump is v with its component at index i raised by one and the rest cut.
func (v pyVer) bump(i int) pyVer {
	out := append(pyVer{}, v[:i+1]...)
	out[i]++
	return out
}

// parsePySpec reads a PEP 440 specifier set (">=2.10,<3", "~=2.3",
// "==2.*") as one interval; != narrows nothing (the interval keeps every
// other version, so excluding one release never hides a rule).
func parsePySpec(spec string) (verSet, bool) {
	s := verSet{}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return s, true
	}
	for _, cl := range strings.Split(spec, ",") {
		cl = strings.TrimSpace(cl)
		op := ""
		for _, o := range []string{"===", "~=", "==", "!=", "<=", ">=", "<", ">"} {
			if strings.HasPrefix(cl, o) {
				op = o
				break
			}
		}
		if op == "" {
			return s, false
		}
		vs := strings.TrimSpace(cl[len(op):])
		wild := strings.HasSuffix(vs, ".*")
		v, ok := parsePyVer(strings.TrimSuffix(vs, ".*"))
		if !ok {
			return s, false
		}
		var t verSet
		switch {
		case op == "!=":
			continue
		case (op == "==" || op == "===") && wild:
			t = verSet{verBound{v, true}, verBound{v.bump(len(v) - 1), false}}
		case op == "==" || op == "===":
			t = verSet{verBound{v, true}, verBound{v, true}}
		case op == "~=":
			if len(v) < 2 {
				return s, false
			}
			t = verSet{verBound{v, true}, verBound{v.bump(len(v) - 2), false}}
		case op == ">=":
			t = verSet{lo: verBound{v, true}}
		case op == ">":
			t = verSet{lo: verBound{v, false}}
		case op == "<=":
			t = verSet{hi: verBound{v, true}}
		case op == "<":
			t = verSet{hi: verBound{v, false}}
		}
		if wild && op != "==" && op != "===" {
			return s, false
		}
		s = s.intersect(t)
	}
	return s, true
}

func (s verSet) intersect(t verSet) verSet {
	if t.lo.v != nil && (s.lo.v == nil || t.lo.v.cmp(s.lo.v) > 0 || t.lo.v.cmp(s.lo.v) == 0 && !t.lo.inc) {
		s.lo = t.lo
	}
	if t.hi.v != nil && (s.hi.v == nil || t.hi.v.cmp(s.hi.v) < 0 || t.hi.v.cmp(s.hi.v) == 0 && !t.hi.inc) {
		s.hi = t.hi
	}
	return s
}

// poetrySpec turns a Poetry constraint (^2.3, ~2.3, 2.3.*) into PEP 440.
func poetrySpec(c string) string {
	c = strings.TrimSpace(c)
	switch {
	case strings.HasPrefix(c, "^"):
		v, ok := parsePyVer(c[1:])
		if !ok {
			return c
		}
		i := 0
		for i < len(v)-1 && v[i] == 0 {
			i++
		}
		return ">=" + c[1:] + ",<" + v.bump(i).String()
	case strings.HasPrefix(c, "~") && !strings.HasPrefix(c, "~="):
		v, ok := parsePyVer(c[1:])
		if !ok {
			return c
		}
		i := 1
		if len(v) < 2 {
			i = 0
		}
		return ">=" + c[1:] + ",<" + v.bump(i).String()
	case c == "*":
		return ""
	case c != "" && c[0] >= '0' && c[0] <= '9':
		return "==" + c
	}
	return c
}

func (v pyVer) String() string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, ".")
}

// fmSig is the signature of mount or import_server in one era: the
// parameters a positional argument fills, in order, the keyword-only ones,
// and the required ones.
type fmSig struct {
	pos, kwonly, req []string
}

func (s *fmSig) has(name string) bool {
	for _, p := range s.pos {
		if p == name {
			return true
		}
	}
	for _, p := range s.kwonly {
		if p == name {
			return true
		}
	}
	return false
}

// fmEra is a range of fastmcp releases with one composition rule, read from
// the framework's own source at each release (docs/extractor.md cites the
// tags).
type fmEra struct {
	name  string
	set   verSet
	sep   string // between the prefix and a tool or prompt name
	mount *fmSig
	imp   *fmSig // import_server; nil when the release has none
	// swap: a first positional argument that is a str is the prefix
	// (2.9–2.13 accepted the older argument order).
	swap bool
	// resources: the URI rule is read ("path": protocol://prefix/path),
	// or "" when the release's rule is not read by this extractor.
	resources string
}

var seps = []string{"tool_separator", "resource_separator", "prompt_separator"}

func fmRange(lo, hi string) verSet {
	s := verSet{}
	if lo != "" {
		v, _ := parsePyVer(lo)
		s.lo = verBound{v, true}
	}
	if hi != "" {
		v, _ := parsePyVer(hi)
		s.hi = verBound{v, false}
	}
	return s
}

// fmEras are the composition rules of the standalone fastmcp, per release
// range. Before 2.0 there is no mount. The last era is open above: a
// release that changes the rule is a new extractor version.
var fmEras = []fmEra{
	{name: "fastmcp <2.0", set: fmRange("", "2.0.0")},
	{name: "fastmcp 2.0", set: fmRange("2.0.0", "2.1.0"), sep: "/",
		mount: &fmSig{pos: []string{"prefix", "app"}, req: []string{"prefix", "app"}}},
	{name: "fastmcp 2.1", set: fmRange("2.1.0", "2.2.0"), sep: "_",
		mount: &fmSig{pos: append([]string{"prefix", "app"}, seps...), req: []string{"prefix", "app"}}},
	{name: "fastmcp 2.2-2.3", set: fmRange("2.2.0", "2.4.0"), sep: "_",
		mount: &fmSig{pos: append(append([]string{"prefix", "server"}, seps...), "as_proxy"), req: []string{"prefix", "server"}},
		imp:   &fmSig{pos: append([]string{"prefix", "server"}, seps...), req: []string{"prefix", "server"}}},
	{name: "fastmcp 2.4-2.8", set: fmRange("2.4.0", "2.9.0"), sep: "_",
		mount: &fmSig{pos: []string{"prefix", "server", "as_proxy"}, kwonly: seps, req: []string{"prefix", "server"}},
		imp:   &fmSig{pos: append([]string{"prefix", "server"}, seps...), req: []string{"prefix", "server"}}},
	{name: "fastmcp 2.9-2.13", set: fmRange("2.9.0", "2.14.0"), sep: "_", swap: true,
		mount: &fmSig{pos: []string{"server", "prefix", "as_proxy"}, kwonly: seps, req: []string{"server"}},
		imp:   &fmSig{pos: append([]string{"server", "prefix"}, seps...), req: []string{"server"}}},
	{name: "fastmcp 2.14", set: fmRange("2.14.0", "3.0.0"), sep: "_",
		mount: &fmSig{pos: []string{"server", "prefix", "as_proxy"}, req: []string{"server"}},
		imp:   &fmSig{pos: []string{"server", "prefix"}, req: []string{"server"}}},
	{name: "fastmcp 3", set: fmRange("3.0.0", ""), sep: "_", resources: "path",
		mount: &fmSig{pos: []string{"server", "namespace", "as_proxy", "tool_names", "prefix"}, req: []string{"server"}},
		imp:   &fmSig{pos: []string{"server", "prefix"}, req: []string{"server"}}},
}

// pyServerID names a server by the call that constructs it.
type pyServerID struct {
	f *file
	n nid
}

// pyMount is one composition: child's entries are seen on parent through
// the rule.
type pyMount struct {
	parent, child pyServerID
	// tool is what is put before a tool or prompt name ("" for no prefix).
	tool string
	// res is the prefix a resource URI gets under the "path" rule ("" for
	// none); resWhy, when set, says why resources are not read.
	res, resWhy string
	site        rundir.Site
}

// pyComposition is what the package composes, read before any site.
type pyComposition struct {
	spec   string // the fastmcp requirement, as written ("" none)
	eras   []*fmEra
	mounts map[pyServerID][]pyMount // by child
	served map[pyServerID]bool
	chains map[pyServerID]pyChains
	// unread holds the servers of the package that a composition not read
	// mounts, with its site.
	unread map[pyServerID]rundir.Site
	// composes: the package has a composition site on a server.
	composes bool
}

type pyChains struct {
	list [][]pyMount
	why  string
}

// readPyRequirements reads the fastmcp requirement of the package from
// PKG-INFO (Requires-Dist) and pyproject.toml ([project] dependencies,
// [tool.poetry.dependencies]) at the root or in the sdist's top directory,
// and keeps the eras it admits. No requirement, or a direct reference,
// admits every release.
func (x *extractor) readPyRequirements(fsys fs.FS) {
	pc := &pyComposition{mounts: map[pyServerID][]pyMount{}, served: map[pyServerID]bool{}, chains: map[pyServerID]pyChains{}, unread: map[pyServerID]rundir.Site{}}
	x.pyc = pc
	// The package's own metadata: at the root, or else in the sdist's top
	// directory (name-version/), not in a subproject's.
	dirs := []string{"."}
	_, errInfo := fs.Stat(fsys, "PKG-INFO")
	_, errProject := fs.Stat(fsys, "pyproject.toml")
	if ents, err := fs.ReadDir(fsys, "."); err == nil && errInfo != nil && errProject != nil {
		for _, e := range ents {
			if e.IsDir() {
				dirs = append(dirs, e.Name())
			}
		}
	}
	var specs []string
	found := false
	for _, d := range dirs {
		if b, err := fs.ReadFile(fsys, path.Join(d, "PKG-INFO")); err == nil && len(b) < 1<<22 {
			for _, l := range strings.Split(string(b), "\n") {
				if r, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "Requires-Dist:"); ok {
					if sp, ok := fastmcpRequirement(r); ok {
						specs, found = append(specs, sp), true
					}
				}
			}
		}
		if b, err := fs.ReadFile(fsys, path.Join(d, "pyproject.toml")); err == nil && len(b) < 1<<22 {
			for _, sp := range pyprojectFastmcp(string(b)) {
				specs, found = append(specs, sp), true
			}
		}
	}
	pc.spec = strings.Join(specs, " | ")
	for i := range fmEras {
		era := &fmEras[i]
		admitted := !found
		for _, sp := range specs {
			if sp == "@" {
				admitted = true
				continue
			}
			set, ok := parsePySpec(sp)
			if !ok || set.meets(era.set) {
				admitted = true // an unreadable specifier admits everything
			}
		}
		if admitted {
			pc.eras = append(pc.eras, era)
		}
	}
}

// fastmcpRequirement reads one PEP 508 requirement: its specifier if it
// names fastmcp and is not under an extra, "@" for a direct reference.
func fastmcpRequirement(r string) (string, bool) {
	r = strings.TrimSpace(r)
	marker := ""
	if i := strings.Index(r, ";"); i >= 0 {
		r, marker = strings.TrimSpace(r[:i]), r[i+1:]
	}
	i := 0
	for i < len(r) && (r[i] == '-' || r[i] == '_' || r[i] == '.' || r[i] >= '0' && r[i] <= '9' || r[i] >= 'a' && r[i] <= 'z' || r[i] >= 'A' && r[i] <= 'Z') {
		i++
	}
	if strings.ToLower(r[:i]) != "fastmcp" || strings.Contains(marker, "extra") {
		return "", false
	}
	rest := strings.TrimSpace(r[i:])
	if strings.HasPrefix(rest, "[") {
		if j := strings.Index(rest, "]"); j >= 0 {
			rest = strings.TrimSpace(rest[j+1:])
		}
	}
	if strings.HasPrefix(rest, "@") {
		return "@", true
	}
	rest = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")"))
	return rest, true
}

// pyprojectFastmcp finds fastmcp in [project] dependencies (a list of
// PEP 508 strings) and in [tool.poetry.dependencies].
func pyprojectFastmcp(toml string) []string {
	var out []string
	section := ""
	inDeps := false
	for _, line := range strings.Split(toml, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") && !inDeps {
			section = strings.Trim(l, "[] ")
			continue
		}
		if section == "project" && !inDeps && strings.HasPrefix(l, "dependencies") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(l, "dependencies")), "="); ok {
				inDeps = true
				l = strings.TrimSpace(rest)
			}
		}
		if inDeps {
			for _, s := range tomlStrings(l) {
				if sp, ok := fastmcpRequirement(s); ok {
					out = append(out, sp)
				}
			}
			if strings.Contains(stripTOMLStrings(l), "]") {
				inDeps = false
			}
			continue
		}
		if section == "tool.poetry.dependencies" {
			k, v, ok := strings.Cut(l, "=")
			if !ok || strings.ToLower(strings.Trim(strings.TrimSpace(k), `"'`)) != "fastmcp" {
				continue
			}
			v = strings.TrimSpace(v)
			if strings.HasPrefix(v, "{") {
				if strings.Contains(v, "git") || strings.Contains(v, "path") || strings.Contains(v, "url") {
					out = append(out, "@")
					continue
				}
				if i := strings.Index(v, "version"); i >= 0 {
					if ss := tomlStrings(v[i:]); len(ss) > 0 {
						out = append(out, poetrySpec(ss[0]))
					}
				}
				continue
			}
			if ss := tomlStrings(v); len(ss) > 0 {
				out = append(out, poetrySpec(ss[0]))
			}
		}
	}
	return out
}

// tomlStrings returns the basic and literal strings of one line.
func tomlStrings(l string) []string {
	var out []string
	for i := 0; i < len(l); i++ {
		q := l[i]
		if q == '#' {
			break
		}
		if q != '"' && q != '\'' {
			continue
		}
		j := strings.IndexByte(l[i+1:], q)
		if j < 0 {
			break
		}
		out = append(out, l[i+1:i+1+j])
		i += j + 1
	}
	return out
}

func stripTOMLStrings(l string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '#':
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Origins: what an expression that stands for a server was built by.
type originKind uint8

const (
	originUnknown originKind = iota // not resolved; why says why
	originOther                     // resolved, and not an MCP server
	originFastMCP                   // a standalone fastmcp server of the package
	originSDK                       // the official SDK's server (no mount)
	originProxy                     // a proxy of a server reached at run time
	originRuntime                   // a server built at run time from a document
	originNeed                      // a binding must be enumerated first
)

type pyOrigin struct {
	kind originKind
	id   pyServerID
	why  string
	need val
}

// pyServerMethods are methods a server subclass must not redefine for the
// framework's composition rule to be the one that applies. (A subclass that
// wraps tool() is read like any other server: its sites are read where it
// is called, as for every FastMCP server.)
var pyServerMethods = map[string]bool{"mount": true, "import_server": true, "add_provider": true}

// pyOriginOf follows expression n under e to the call that built it:
// names through their bindings, imports into sibling modules, parameters
// through the call sites chosen for e, factory functions through their
// return. Bounded by the depth limit and counted against the steps.
func (x *extractor) pyOriginOf(f *file, n nid, e *env, depth int) pyOrigin {
	if n < 0 {
		return pyOrigin{why: "no expression"}
	}
	if depth >= x.opts.MaxDepth {
		return pyOrigin{why: "resolution depth limit reached"}
	}
	if !x.step() {
		return pyOrigin{why: reasonOf(x.stepFailure())}
	}
	switch f.kind(n) {
	case "parenthesized_expression", "await":
		if ch := f.named(n); len(ch) == 1 {
			return x.pyOriginOf(f, ch[0], e, depth+1)
		}
	case "identifier":
		return x.pyIdentOrigin(f, n, f.text(n), e, depth)
	case "attribute":
		obj := x.eval(f, f.field(n, "object"), e)
		if obj.k == vNeed {
			return pyOrigin{kind: originNeed, need: obj}
		}
		if obj.k == vModule {
			return x.pyModuleOrigin(obj.f, f.text(f.field(n, "attribute")), depth)
		}
		if o, ok := x.pySelfAttrOrigin(f, n, depth); ok {
			return o
		}
		return pyOrigin{why: "attribute " + truncate(f.text(n), 60) + " is not followed to a server"}
	case "call":
		return x.pyCallOrigin(f, n, e, depth)
	}
	return pyOrigin{why: "expression " + truncate(f.text(n), 60) + " is not followed to a server"}
}

func (x *extractor) pyIdentOrigin(f *file, n nid, name string, e *env, depth int) pyOrigin {
	loop, scope, ok := x.pyLookup(f, n, name)
	if !ok {
		return pyOrigin{kind: originOther, why: "builtin " + name}
	}
	if loop >= 0 {
		return x.pyLoopOrigin(f, loop, name, e, depth)
	}
	ds := f.pyFacts.scopeDecls(f, scope)[name]
	return x.pyDeclsOrigin(f, ds, scope, name, e, depth)
}

// pyDeclsOrigin is the origin of a name bound by ds: one origin, or the
// same server through every binding.
func (x *extractor) pyDeclsOrigin(f *file, ds []nid, scope nid, name string, e *env, depth int) pyOrigin {
	if len(ds) == 0 {
		return pyOrigin{why: "name " + name + " is not bound"}
	}
	var first pyOrigin
	for i, d := range ds {
		o := x.pyDeclOrigin(f, d, scope, name, e, depth+1)
		if o.kind == originNeed {
			return o
		}
		if i == 0 {
			first = o
			continue
		}
		if o.kind != first.kind || o.id != first.id {
			return pyOrigin{why: "name " + name + " is bound more than once"}
		}
	}
	return first
}

func (x *extractor) pyDeclOrigin(f *file, d, scope nid, name string, e *env, depth int) pyOrigin {
	switch f.kind(d) {
	case "assignment":
		if l := f.field(d, "left"); f.kind(l) == "identifier" {
			return x.pyOriginOf(f, f.field(d, "right"), e, depth)
		}
		return pyOrigin{why: "unpacking of " + name + " is not followed to a server"}
	case "dotted_name", "aliased_import":
		stmt := f.parent(d)
		if f.kind(stmt) != "import_from_statement" {
			v := x.pyImportValue(f, d, name)
			if v.k == vModule || v.k == vExternal {
				return pyOrigin{kind: originOther, why: "a module"}
			}
			return pyOrigin{why: reasonOf(v)}
		}
		mod := f.text(f.field(stmt, "module_name"))
		imported := name
		if f.kind(d) == "aliased_import" {
			imported = f.text(f.field(d, "name"))
		} else if ids := f.named(d); len(ids) > 0 {
			imported = f.text(ids[len(ids)-1])
		}
		target := x.pyResolveModule(f, mod)
		if target == nil {
			return pyOrigin{kind: originOther, why: "imported from another package (" + mod + "." + imported + ")"}
		}
		return x.pyModuleOrigin(target, imported, depth)
	case "identifier", "typed_parameter", "default_parameter", "typed_default_parameter":
		return x.pyParamOrigin(f, d, scope, name, e, depth)
	case "function_definition", "class_definition", "lambda":
		return pyOrigin{kind: originOther, why: "a function or class"}
	}
	return pyOrigin{why: "binding of kind " + f.kind(d) + " is not followed to a server"}
}

// pyModuleOrigin is the origin of a module-level name of sibling module t.
func (x *extractor) pyModuleOrigin(t *file, name string, depth int) pyOrigin {
	if t.pyFacts == nil {
		return pyOrigin{why: "module " + t.path + " was not parsed"}
	}
	if v, ok := x.enterName(t, none, name); !ok {
		return pyOrigin{why: reasonOf(v)}
	}
	defer x.leaveName(t, none, name)
	ds, ok := t.pyFacts.scopeDecls(t, 0)[name]
	if !ok {
		return pyOrigin{why: "module " + t.path + " does not define " + name}
	}
	return x.pyDeclsOrigin(t, ds, 0, name, nil, depth)
}

// pyParamOrigin follows a parameter to the argument of the call site or
// call frame chosen for e.
func (x *extractor) pyParamOrigin(f *file, p, fn nid, name string, e *env, depth int) pyOrigin {
	fr, stop, ok := e.liveFrame(scopeRef{f, fn})
	if !ok {
		if stop.k == vNeed {
			return pyOrigin{kind: originNeed, need: stop}
		}
		return pyOrigin{why: reasonOf(stop)}
	}
	idx := -1
	params := f.named(f.field(fn, "parameters"))
	for i, q := range params {
		if q == p {
			idx = i
		}
	}
	if len(params) > 0 && pyIsMethod(f, fn) {
		if idx == 0 {
			return pyOrigin{why: "the receiver of a method (" + name + ")"}
		}
		idx--
	}
	var args []thunk
	if fr.site != nil {
		args = x.pyArgThunks(fr.site.f, fr.site.n, e)
	} else {
		args = fr.args
	}
	pick := func(a thunk) pyOrigin {
		if a.v != nil || a.f == nil {
			return pyOrigin{why: "argument " + name + " is not an expression of the package"}
		}
		return x.pyOriginOf(a.f, a.n, a.env, depth+1)
	}
	for _, a := range args {
		if a.name == name {
			return pick(a)
		}
	}
	pos := 0
	for _, a := range args {
		if a.name == "*" {
			return pyOrigin{why: "arguments passed by unpacking"}
		}
		if a.name != "" {
			continue
		}
		if pos == idx {
			return pick(a)
		}
		pos++
	}
	if def := f.field(p, "value"); def >= 0 {
		return x.pyOriginOf(f, def, e, depth+1)
	}
	return pyOrigin{why: "parameter " + name + " has no argument"}
}

// pyCallOrigin classifies the callee of a constructing call.
func (x *extractor) pyCallOrigin(f *file, n nid, e *env, depth int) pyOrigin {
	callee := f.field(n, "function")
	cv := x.eval(f, callee, e)
	id := pyServerID{f, n}
	switch cv.k {
	case vNeed:
		return pyOrigin{kind: originNeed, need: cv}
	case vExternal:
		o := pyExternalOrigin(cv.spec, id)
		if o.kind == originProxy {
			// A proxy of a server of the package lists that server's
			// entries: FastMCP.as_proxy(sub), create_proxy(sub).
			if a, ok := positional(x.pyArgThunks(f, n, e), 0); ok && a.f != nil && a.v == nil {
				if inner := x.pyOriginOf(a.f, a.n, a.env, depth+1); inner.kind == originFastMCP || inner.kind == originNeed {
					return inner
				}
			}
		}
		return o
	case vClass:
		k, why := x.pyServerClass(cv, 0, map[pyServerID]bool{})
		return pyOrigin{kind: k, id: id, why: why}
	case vFunc:
		if cv.f.kind(cv.n) == "lambda" {
			return x.pyOriginOf(cv.f, cv.f.field(cv.n, "body"), e.push(env{scope: scopeRef{cv.f, cv.n}, args: x.pyArgThunks(f, n, e)}), depth+1)
		}
		var rets []nid
		body := cv.f.field(cv.n, "body")
		cv.f.walk(body, func(c nid) bool {
			k := cv.f.kind(c)
			if c != body && (pyFunctionKind(k) || k == "class_definition") {
				return false
			}
			if k == "return_statement" {
				rets = append(rets, c)
				return false
			}
			return true
		})
		if len(rets) != 1 || len(cv.f.named(rets[0])) != 1 {
			return pyOrigin{why: "factory " + truncate(f.text(callee), 40) + " does not return one expression"}
		}
		ne := e.push(env{scope: scopeRef{cv.f, cv.n}, args: x.pyArgThunks(f, n, e), calling: true})
		return x.pyOriginOf(cv.f, cv.f.named(rets[0])[0], ne, depth+1)
	case vUnknown:
		return pyOrigin{why: reasonOf(cv)}
	}
	return pyOrigin{kind: originOther, why: "the result of " + truncate(f.text(callee), 40)}
}

// pyExternalOrigin classifies a call into another package by its dotted
// name.
func pyExternalOrigin(spec string, id pyServerID) pyOrigin {
	last := spec
	if i := strings.LastIndex(last, "."); i >= 0 {
		last = last[i+1:]
	}
	switch {
	case spec == "fastmcp" || strings.HasPrefix(spec, "fastmcp."):
		switch last {
		case "FastMCP":
			return pyOrigin{kind: originFastMCP, id: id}
		case "as_proxy", "create_proxy", "FastMCPProxy", "ProxyClient", "Client", "from_client":
			return pyOrigin{kind: originProxy, id: id, why: spec}
		case "from_openapi", "from_fastapi", "FastMCPOpenAPI":
			return pyOrigin{kind: originRuntime, id: id, why: spec}
		}
		return pyOrigin{why: "the result of " + spec}
	case strings.HasPrefix(spec, "mcp.server."):
		switch last {
		case "FastMCP", "MCPServer", "Server":
			return pyOrigin{kind: originSDK, id: id, why: spec}
		}
		return pyOrigin{why: "the result of " + spec}
	}
	return pyOrigin{kind: originOther, why: "the result of " + spec}
}

// pyServerClass decides whether a class of the package is a fastmcp server
// (a subclass of fastmcp's FastMCP that does not redefine its registration
// or composition methods).
func (x *extractor) pyServerClass(cls val, depth int, seen map[pyServerID]bool) (originKind, string) {
	key := pyServerID{cls.f, cls.n}
	if seen[key] || depth > 16 {
		return originUnknown, "the class hierarchy of " + cls.f.text(cls.f.field(cls.n, "name")) + " is not followed"
	}
	seen[key] = true
	f := cls.f
	for _, st := range f.named(f.field(cls.n, "body")) {
		def := st
		if f.kind(def) == "decorated_definition" {
			def = f.field(def, "definition")
		}
		if f.kind(def) == "function_definition" && pyServerMethods[f.text(f.field(def, "name"))] {
			return originUnknown, "class " + f.text(f.field(cls.n, "name")) + " redefines " + f.text(f.field(def, "name"))
		}
	}
	supers := f.field(cls.n, "superclasses")
	if supers < 0 {
		return originOther, "class " + f.text(f.field(cls.n, "name"))
	}
	for _, b := range f.named(supers) {
		if f.kind(b) == "keyword_argument" {
			continue
		}
		if f.kind(b) == "subscript" {
			b = f.field(b, "value") // FastMCP[LifespanT]
		}
		bv := x.eval(f, b, nil)
		switch bv.k {
		case vExternal:
			o := pyExternalOrigin(bv.spec, key)
			if o.kind == originFastMCP || o.kind == originSDK || o.kind == originProxy {
				return o.kind, o.why
			}
		case vClass:
			if k, why := x.pyServerClass(bv, depth+1, seen); k != originOther {
				return k, why
			}
		case vUnknown, vNeed:
			return originUnknown, "a base of class " + f.text(f.field(cls.n, "name")) + " is not resolved"
		}
	}
	return originOther, "class " + f.text(f.field(cls.n, "name"))
}

// pyComposeMethods are the methods that compose servers.
var pyComposeMethods = []string{"mount", "import_server"}

// pyBuildComposition reads every mount and import_server call of the
// package's runnable Python before any site is read, and the calls that
// serve a server itself.
func (x *extractor) pyBuildComposition() {
	pc := x.pyc
	if pc == nil {
		return
	}
	for _, f := range x.files {
		if x.exceeded {
			return
		}
		if f.lang != LangPython || f.pyFacts == nil || !f.runnable() || f.minified {
			continue
		}
		for _, method := range pyComposeMethods {
			for _, n := range f.pyFacts.calls[method] {
				if f.kind(f.field(n, "function")) != "attribute" || f.inVendoredRegion(n) || x.pyInsideAPIClass(f, n) {
					continue
				}
				counted := false
				x.enumerate(f, n, func(e *env, c *collector) { x.pyMountSite(f, n, method, e, c, &counted) })
			}
		}
		for _, method := range []string{"run", "run_async", "run_stdio_async", "run_http_async", "run_sse_async", "run_streamable_http_async", "http_app", "sse_app", "streamable_http_app"} {
			for _, n := range f.pyFacts.calls[method] {
				callee := f.field(n, "function")
				if f.kind(callee) != "attribute" {
					continue
				}
				x.safeEval(f, n, func() {
					if o := x.pyOriginOf(f, f.field(callee, "object"), nil, 0); o.kind == originFastMCP {
						pc.served[o.id] = true
					}
				})
			}
		}
	}
}

// pyMountSite reads one mount or import_server call under e.
func (x *extractor) pyMountSite(f *file, call nid, method string, e *env, c *collector, counted *bool) {
	callee := f.field(call, "function")
	recv := x.pyOriginOf(f, f.field(callee, "object"), e, 0)
	if recv.kind == originNeed {
		c.needs(recv.need)
		return
	}
	args := x.pyArgThunks(f, call, e)
	count := func() {
		x.pyc.composes = true
		if !*counted {
			*counted = true
			x.readSites++
		}
	}
	fail := func(why string) {
		count()
		c.failures = append(c.failures, method+": "+why)
		// A server of the package among the arguments is mounted by a
		// call not read: its own sites are not read either.
		for _, a := range args {
			if a.f == nil || a.v != nil {
				continue
			}
			if o := x.pyOriginOf(a.f, a.n, a.env, 0); (o.kind == originFastMCP || o.kind == originSDK) && o.id != recv.id {
				if _, seen := x.pyc.unread[o.id]; !seen {
					x.pyc.unread[o.id] = f.site(call, "")
				}
			}
		}
	}
	switch recv.kind {
	case originOther:
		return // not a server: an HTTP session's mount, a web framework's
	case originUnknown:
		// Decide by what is mounted: a server of the package (or a proxy)
		// mounted on something unresolved is a composition not read.
		for _, a := range args {
			if a.f == nil || a.v != nil {
				continue
			}
			o := x.pyOriginOf(a.f, a.n, a.env, 0)
			if o.kind == originNeed {
				c.needs(o.need)
				return
			}
			if o.kind == originFastMCP || o.kind == originProxy || o.kind == originRuntime {
				fail("the server it mounts on is not resolved: " + recv.why)
				return
			}
		}
		return
	case originSDK:
		fail("the official SDK's server (" + recv.why + ") has no " + method)
		return
	case originProxy, originRuntime:
		fail("mounting onto a server built at run time (" + recv.why + ") is not read")
		return
	}
	// The receiver is a fastmcp server of the package.
	count()
	if method == "import_server" {
		p := f.parent(call)
		awaited := f.kind(p) == "await"
		if !awaited && f.kind(p) == "argument_list" {
			outer := f.parent(p)
			awaited = f.kind(outer) == "call" && f.pyAttrName(f.field(outer, "function")) == "run"
		}
		if !awaited {
			fail("import_server is a coroutine in every fastmcp release; this call is not awaited, so what it imports is not known")
			return
		}
	}
	for _, a := range args {
		if a.name == "*" || strings.HasPrefix(a.name, "**") {
			fail("arguments passed by unpacking")
			return
		}
	}
	type reading struct {
		era    *fmEra
		server thunk
		prefix *thunk
	}
	var valid []reading
	var invalid []string
	var flags []string
	for _, era := range x.pyc.eras {
		sig := era.mount
		if method == "import_server" {
			sig = era.imp
		}
		if sig == nil {
			invalid = append(invalid, era.name)
			continue
		}
		bound := map[string]thunk{}
		ok := true
		pos := 0
		for _, a := range args {
			name := a.name
			if name == "" {
				if pos >= len(sig.pos) {
					ok = false
					break
				}
				name = sig.pos[pos]
				pos++
			} else if !sig.has(name) {
				ok = false
				break
			}
			if _, dup := bound[name]; dup {
				ok = false
				break
			}
			bound[name] = a
		}
		for _, r := range sig.req {
			if _, has := bound[r]; !has {
				ok = false
			}
		}
		if !ok {
			invalid = append(invalid, era.name)
			continue
		}
		srv, has := bound["server"]
		if !has {
			srv = bound["app"]
		}
		var pre *thunk
		if p, has := bound["prefix"]; has {
			pre = &p
		}
		if p, has := bound["namespace"]; has {
			if pre != nil {
				invalid = append(invalid, era.name) // both: a ValueError
				continue
			}
			pre = &p
		}
		if era.swap && pos > 0 {
			// isinstance(server, str): the older order, swapped.
			if sv := x.force(srv); c.needs(sv) {
				return
			} else if _, isText := plainText(sv); isText {
				if pre == nil {
					invalid = append(invalid, era.name)
					continue
				}
				prefixArg := srv
				srv, pre = *pre, &prefixArg
			}
		} else if sv := x.force(srv); c.needs(sv) {
			return
		} else if _, isText := plainText(sv); isText {
			// A str where the release takes the server fails when the
			// server starts (mount("jira", sub) after 2.13).
			invalid = append(invalid, era.name)
			continue
		}
		for _, name := range append(append([]string{}, seps...), "tool_names") {
			if t, has := bound[name]; has {
				if v := x.force(t); c.needs(v) {
					return
				} else if v.k != vNull {
					flags = append(flags, name+"=")
				}
			}
		}
		valid = append(valid, reading{era: era, server: srv, prefix: pre})
	}
	spec := x.pyc.spec
	if spec == "" {
		spec = "no fastmcp requirement, so every release"
	}
	if len(valid) == 0 {
		fail("not a valid call in any fastmcp release the package admits (" + spec + "; not valid in " + strings.Join(invalid, ", ") + ")")
		return
	}
	if len(flags) > 0 {
		fail("the keyword " + flags[0] + " changes the names and is not read")
		return
	}
	// The prefix and the mounted server, read once per argument.
	var tool, res, resWhy string
	var child thunk
	for i, r := range valid {
		prefix, hasPrefix := "", false
		if r.prefix != nil {
			v := x.force(*r.prefix)
			if c.needs(v) {
				return
			}
			if v.k != vNull {
				s, ok := plainText(v)
				if !ok {
					fail("the prefix is not a literal: " + reasonOf(v))
					return
				}
				if s == "" {
					fail("an empty prefix is not read")
					return
				}
				prefix, hasPrefix = s, true
			}
		}
		t, rs, rw := "", "", ""
		if hasPrefix {
			t = prefix + r.era.sep
			if r.era.resources == "path" {
				rs = prefix
			} else {
				rw = "the resource rule of " + r.era.name + " is not read"
			}
		}
		if i == 0 {
			tool, res, resWhy, child = t, rs, rw, r.server
			continue
		}
		if r.server.n != child.n || r.server.f != child.f {
			fail("the argument that is the server differs across the fastmcp releases the package admits (" + spec + ")")
			return
		}
		if t != tool {
			fail("the prefix rule differs across the fastmcp releases the package admits (" + spec + "): " + strconv.Quote(tool) + " in " + valid[0].era.name + ", " + strconv.Quote(t) + " in " + r.era.name)
			return
		}
		if rs != res || rw != resWhy {
			res, resWhy = "", "the resource rule differs across the fastmcp releases the package admits ("+spec+")"
		}
	}
	if child.f == nil || child.v != nil {
		fail("the mounted server is not an expression of the package")
		return
	}
	o := x.pyOriginOf(child.f, child.n, child.env, 0)
	switch o.kind {
	case originNeed:
		c.needs(o.need)
		return
	case originFastMCP:
	case originProxy, originRuntime:
		what := "a proxy of a server reached at run time (" + o.why + ")"
		if o.kind == originRuntime {
			what = "a server built at run time (" + o.why + ")"
		}
		c.runtime = append(c.runtime, method+" of "+what+": its entries are listed at run time")
		c.failures = append(c.failures, method+" of "+what+": its entries are not in the source")
		count()
		return
	case originSDK:
		fail("the mounted server is the official SDK's (" + o.why + "), which fastmcp does not mount")
		return
	default:
		fail("the mounted value is not a server of the package: " + o.why)
		return
	}
	parent := recv.id
	m := pyMount{parent: parent, child: o.id, tool: tool, res: res, resWhy: resWhy, site: f.site(call, "")}
	for _, old := range x.pyc.mounts[o.id] {
		if old.parent == m.parent && old.tool == m.tool && old.res == m.res && old.resWhy == m.resWhy {
			return
		}
	}
	x.pyc.mounts[o.id] = append(x.pyc.mounts[o.id], m)
}

// pyChainsOf lists, for server id, every path of mounts from it to a server
// that is served: one empty path when it is served itself (not mounted, or
// run by the package).
func (x *extractor) pyChainsOf(id pyServerID) pyChains {
	if ch, ok := x.pyc.chains[id]; ok {
		return ch
	}
	var out pyChains
	visiting := map[pyServerID]bool{}
	var walk func(s pyServerID, path []pyMount)
	walk = func(s pyServerID, path []pyMount) {
		if out.why != "" {
			return
		}
		if visiting[s] {
			out.why = "the mounts of servers form a cycle"
			return
		}
		if len(path) > 16 {
			out.why = "servers are mounted more than 16 levels deep"
			return
		}
		if at, ok := x.pyc.unread[s]; ok && len(path) > 0 {
			out.why = "a server it is mounted on is mounted at " + at.File + ":" + strconv.Itoa(at.Line) + " by a composition not read"
			return
		}
		visiting[s] = true
		defer delete(visiting, s)
		ms := x.pyc.mounts[s]
		if len(ms) == 0 || x.pyc.served[s] {
			out.list = append(out.list, append([]pyMount{}, path...))
		}
		for _, m := range ms {
			walk(m.parent, append(path[:len(path):len(path)], m))
		}
		if len(out.list) > 64 && out.why == "" {
			out.why = "more than 64 ways of reaching one server through mounts"
		}
	}
	walk(id, nil)
	x.pyc.chains[id] = out
	return out
}

// pyComposeSite renames what one registration site just added to c
// (entries from index from on) for the server its receiver recv resolves
// to: once per path of mounts that serves it. In a package that mounts
// servers, a site whose server is not resolved is not read.
func (x *extractor) pyComposeSite(f *file, recv nid, e *env, c *collector, from int) {
	pc := x.pyc
	if pc == nil || !pc.composes || c.need != nil || from >= len(c.entries) {
		return
	}
	o := x.pyOriginOf(f, recv, e, 0)
	switch o.kind {
	case originNeed:
		c.needs(o.need)
		return
	case originFastMCP, originSDK:
	case originUnknown:
		c.entries = c.entries[:from]
		c.failures = append(c.failures, "the server this site registers on is not resolved ("+o.why+"), and the package mounts servers: the names a client sees are not known")
		return
	default:
		return
	}
	if at, ok := pc.unread[o.id]; ok {
		c.entries = c.entries[:from]
		c.failures = append(c.failures, "the server this site registers on is mounted at "+at.File+":"+strconv.Itoa(at.Line)+" by a composition not read: the names a client sees are not known")
		return
	}
	if o.kind != originFastMCP {
		return
	}
	ch := x.pyChainsOf(o.id)
	if ch.why != "" {
		c.entries = c.entries[:from]
		c.failures = append(c.failures, ch.why)
		return
	}
	if len(ch.list) == 1 && len(ch.list[0]) == 0 {
		return // served as it is
	}
	added := append([]rundir.Entry{}, c.entries[from:]...)
	c.entries = c.entries[:from]
	for _, chain := range ch.list {
		for _, ent := range added {
			ne, why := composeEntry(ent, chain)
			if why != "" {
				if ent.ListedMember == "" { // a resource's name or title entry fails with the resource's own
					c.failures = append(c.failures, why)
				}
				continue
			}
			c.entries = append(c.entries, ne)
		}
	}
}

// composeEntry applies a path of mounts, innermost first, to one entry.
func composeEntry(ent rundir.Entry, chain []pyMount) (rundir.Entry, string) {
	for _, m := range chain {
		switch ent.Kind {
		case KindTool, KindPrompt:
			if ent.NameState != vocab.StateUnreadable {
				ent.Name = m.tool + ent.Name
			}
		case KindParameterDescription, KindPromptText:
			ent.Parent = m.tool + ent.Parent
		case KindResource, KindResourceTemplate:
			if m.res == "" && m.resWhy == "" {
				continue // mounted without a prefix
			}
			if m.resWhy != "" {
				return ent, ent.Kind + " " + ent.Name + " of a server mounted at " + m.site.File + ":" + strconv.Itoa(m.site.Line) + ": " + m.resWhy
			}
			i := strings.Index(ent.URI, "://")
			if ent.URI == "" || i <= 0 || strings.ContainsAny(ent.URI[:i], ":\n") || strings.Contains(ent.URI, "\n") {
				return ent, ent.Kind + " " + ent.Name + ": URI " + strconv.Quote(ent.URI) + " has no protocol://path form the mount's rule applies to"
			}
			ent.URI = ent.URI[:i+3] + m.res + "/" + ent.URI[i+3:]
		}
	}
	return ent, ""
}

// pyLoopOrigin follows a for-loop variable to the element the instance
// chose, when the loop runs over a literal list or tuple (or a literal
// dict's .items()) of the package: for prefix, sub in [("a", a), ...].
func (x *extractor) pyLoopOrigin(f *file, loop nid, name string, e *env, depth int) pyOrigin {
	if f.kind(loop) != "for_statement" {
		return pyOrigin{why: "comprehension variable " + name}
	}
	fr, stop, ok := e.liveFrame(scopeRef{f, loop})
	if !ok {
		if stop.k == vNeed {
			return pyOrigin{kind: originNeed, need: stop}
		}
		return pyOrigin{why: reasonOf(stop)}
	}
	tf, items, ok := x.pyLiteralItems(f, f.field(loop, "right"), 0)
	if !ok {
		return pyOrigin{why: "loop variable " + name + " over a value that is not a literal list, tuple or dict.items()"}
	}
	its, ok := x.pyLoopItems(f, loop, e)
	if !ok || len(its) != len(items) || fr.index >= len(items) {
		return pyOrigin{why: "loop variable " + name + ": the elements are not read one by one"}
	}
	el := items[fr.index]
	left := f.field(loop, "left")
	if f.kind(left) == "identifier" {
		return x.pyOriginOf(tf, el, nil, depth+1)
	}
	targets := f.named(left)
	var parts []nid
	switch tf.kind(el) {
	case "tuple", "list", "pair":
		for _, c := range tf.named(el) {
			if tf.kind(c) != "comment" {
				parts = append(parts, c)
			}
		}
	case "parenthesized_expression":
		return pyOrigin{why: "loop variable " + name + ": an element is not a tuple"}
	}
	if len(parts) != len(targets) {
		return pyOrigin{why: "loop variable " + name + ": the unpacking does not match the element"}
	}
	for i, t := range targets {
		if f.kind(t) == "identifier" && f.text(t) == name {
			return x.pyOriginOf(tf, parts[i], nil, depth+1)
		}
	}
	return pyOrigin{why: "loop variable " + name + ": nested unpacking is not followed"}
}

// pyLiteralItems lists the element nodes of a literal list or tuple, or
// the pairs of a literal dict's .items(), written at n or bound to the
// module-level name n.
func (x *extractor) pyLiteralItems(f *file, n nid, depth int) (*file, []nid, bool) {
	if depth > 8 || n < 0 {
		return nil, nil, false
	}
	switch f.kind(n) {
	case "list", "tuple":
		var out []nid
		for _, c := range f.named(n) {
			switch f.kind(c) {
			case "comment":
				continue
			case "list_splat", "dictionary_splat", "starred_expression":
				return nil, nil, false
			}
			out = append(out, c)
		}
		return f, out, true
	case "call":
		fn := f.field(n, "function")
		if f.kind(fn) != "attribute" || f.text(f.field(fn, "attribute")) != "items" || len(f.named(f.field(n, "arguments"))) != 0 {
			return nil, nil, false
		}
		df, d, ok := x.pyLiteralNode(f, f.field(fn, "object"), depth+1)
		if !ok || df.kind(d) != "dictionary" {
			return nil, nil, false
		}
		var out []nid
		for _, c := range df.named(d) {
			switch df.kind(c) {
			case "comment":
				continue
			case "pair":
				out = append(out, c)
			default:
				return nil, nil, false
			}
		}
		return df, out, true
	case "identifier":
		df, d, ok := x.pyLiteralNode(f, n, depth+1)
		if !ok || df.kind(d) == "identifier" {
			return nil, nil, false
		}
		return x.pyLiteralItems(df, d, depth+1)
	}
	return nil, nil, false
}

// pyLiteralNode is the literal a name is bound to by its one assignment in
// the module (or the node itself when it is not a name).
func (x *extractor) pyLiteralNode(f *file, n nid, depth int) (*file, nid, bool) {
	if f.kind(n) != "identifier" {
		return f, n, true
	}
	_, scope, ok := x.pyLookup(f, n, f.text(n))
	if !ok || scope != 0 {
		return nil, none, false
	}
	ds := f.pyFacts.scopeDecls(f, scope)[f.text(n)]
	if len(ds) != 1 || f.kind(ds[0]) != "assignment" || f.kind(f.field(ds[0], "left")) != "identifier" {
		return nil, none, false
	}
	r := f.field(ds[0], "right")
	if r < 0 || depth > 8 {
		return nil, none, false
	}
	return f, r, true
}

// pySelfAttrOrigin follows self.attr, in a method of a class of the
// package, to the one assignment self.attr = ... the class makes, when
// that is in __init__: class-based servers keep their FastMCP there. The
// value is read without the constructor's arguments.
func (x *extractor) pySelfAttrOrigin(f *file, n nid, depth int) (pyOrigin, bool) {
	obj := f.field(n, "object")
	if f.kind(obj) != "identifier" {
		return pyOrigin{}, false
	}
	_, scope, ok := x.pyLookup(f, obj, f.text(obj))
	if !ok || scope < 0 || f.kind(scope) != "function_definition" || !pyIsMethod(f, scope) {
		return pyOrigin{}, false
	}
	params := f.named(f.field(scope, "parameters"))
	if len(params) == 0 || pyParamName(f, params[0]) != f.text(obj) {
		return pyOrigin{}, false
	}
	cls := pyEnclosingClass(f, scope)
	if cls < 0 {
		return pyOrigin{}, false
	}
	attr := f.text(f.field(n, "attribute"))
	var found []nid
	f.walk(f.field(cls, "body"), func(c nid) bool {
		if f.kind(c) == "class_definition" {
			return false
		}
		if f.kind(c) == "assignment" || f.kind(c) == "augmented_assignment" {
			l := f.field(c, "left")
			if f.kind(l) == "attribute" && f.text(f.field(l, "attribute")) == attr && f.kind(f.field(l, "object")) == "identifier" {
				found = append(found, c)
			}
		}
		return true
	})
	if len(found) != 1 || f.kind(found[0]) != "assignment" {
		return pyOrigin{why: "self." + attr + " is assigned other than once in its class"}, true
	}
	a := found[0]
	def := none
	for p := f.parent(a); p >= 0 && p != cls; p = f.parent(p) {
		if f.kind(p) == "function_definition" {
			def = p
			break
		}
	}
	if def < 0 || f.text(f.field(def, "name")) != "__init__" || f.kind(f.field(a, "right")) != "call" {
		return pyOrigin{why: "self." + attr + " is not constructed in __init__"}, true
	}
	o := x.pyOriginOf(f, f.field(a, "right"), nil, depth+1)
	if o.kind == originNeed {
		return pyOrigin{why: "self." + attr + " is built from the constructor's arguments"}, true
	}
	return o, true
}
