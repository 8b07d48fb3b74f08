package surface

import (
	"fmt"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// Reachability from the entry points (methodology §5.2, "Reachability").
//
// The modules a JavaScript package runs are those its entry points load:
// package.json's main, module, bin and the string targets of exports, and
// from each, every module named by a static import, an `export ... from`,
// a require() of a literal and an import() of a literal, transitively. A
// registration in a module outside that closure is recorded as unreachable
// (Entry.Unreachable), never dropped.
//
// The closure is only a closure when every load in it names its module
// exactly. When a module inside it loads something it names at run time
// (require(variable), import(path.join(dir, f)), a createRequire() function
// called with a variable), starts another of its files as a process (fork,
// a Worker, node started on a path of the package), or names a module the
// extractor cannot place (a `#imports` alias, a path alias), any file of
// the package may run, and no entry is marked: reachability is then
// undetermined, recorded with the site that made it so (Surface.Reach).

// reachNote bounds the undetermined sites recorded on a row.
const reachNote = 8

// markReachability records, for each entry of a JavaScript package read
// from a parsed file, whether its registration lies in a module the entry
// points load. It runs after every site was read.
func (x *extractor) markReachability() {
	if x.pkg == nil || len(x.entryFiles) == 0 || x.exceeded {
		return
	}
	// An entry point package.json names that is not a parsed member of the
	// artifact leaves the closure unknown.
	var undetermined []rundir.Site
	roots, rootPaths, byBin := x.runRoots() // reach_calls.go
	for _, e := range rootPaths {
		f := x.resolvePath(pathJoinRoot(x.root, e), false)
		if f != nil && f.parsed == nil && strings.HasSuffix(strings.ToLower(f.path), ".json") {
			continue // `"./package.json": "./package.json"` exports data, not code
		}
		if f == nil || f.parsed == nil {
			undetermined = append(undetermined, rundir.Site{File: "package.json", Detail: "entry point " + e + " is not a parsed member of the artifact"})
		}
	}
	if !byBin && strings.Contains(string(x.pkg.Exports), "*") {
		// A subpath pattern ("./tools/*": "./dist/tools/*.js") makes every
		// module it matches an entry point.
		undetermined = append(undetermined, rundir.Site{File: "package.json", Detail: "exports names modules by a pattern"})
	}
	reached := x.loadClosure(roots)
	files := make([]*file, 0, len(reached))
	for f := range reached {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].path < files[j].path })
	for _, f := range files {
		if len(undetermined) >= reachNote {
			break
		}
		undetermined = append(undetermined, x.openLoads(f, reachNote-len(undetermined))...)
	}
	// An entry is outside the closure when any module it is made of is:
	// the module of its registration or definition, or a module holding a
	// literal of its text. A module's code runs only when it is loaded, so
	// none of those bytes reach a client unless every such module runs (a
	// helper's call in an unloaded module registers nothing, though the
	// helper's own module is loaded).
	unloaded := func(p string) bool {
		f := x.byPath[p]
		return f != nil && f.parsed != nil && f.lang != LangPython && !reached[f]
	}
	outside := func(e *rundir.Entry) bool {
		if unloaded(e.File) {
			return true
		}
		for _, sp := range e.Spans {
			if unloaded(sp.File) {
				return true
			}
		}
		for _, h := range e.Holes {
			if unloaded(h.File) {
				return true
			}
		}
		return false
	}
	lists := []*[]rundir.Entry{&x.s.Tools, &x.s.Prompts, &x.s.PromptTexts, &x.s.Resources, &x.s.ResourceTemplates,
		&x.s.Instructions, &x.s.ParameterDescriptions}
	outsideAny := false
	var inside []*rundir.Entry
	for _, list := range lists {
		for i := range *list {
			if outside(&(*list)[i]) {
				outsideAny = true
			} else {
				inside = append(inside, &(*list)[i])
			}
		}
	}
	// A package run as its bin runs only what the bin calls: a function
	// nothing in the package can call registers nothing (reach_calls.go).
	var uncalled []uncalledFn
	if byBin && len(inside) > 0 {
		uncalled = x.uncalledFunctions(inside)
	}
	if !outsideAny && len(uncalled) == 0 {
		// Every entry is in the closure (or there is none): nothing to say.
		return
	}
	if len(undetermined) > 0 {
		x.s.Reach = &rundir.Reach{Undetermined: undetermined}
		return
	}
	n := 0
	for _, list := range lists {
		for i := range *list {
			if outside(&(*list)[i]) {
				(*list)[i].Unreachable = true
				n++
			}
		}
	}
	m, sites := x.markUncalled(lists, uncalled)
	if n+m == 0 {
		return
	}
	x.s.Reach = &rundir.Reach{Unreachable: n + m, Uncalled: sites}
}

func pathJoinRoot(root, p string) string {
	if root == "." || root == "" {
		return strings.TrimPrefix(p, "./")
	}
	return root + "/" + strings.TrimPrefix(p, "./")
}

// loadClosure is the set of parsed members the entry points load: the
// import closure of reachedFromEntries, with the calls of a function made by
// createRequire() with a literal as edges too. Each member is visited once,
// so a cycle of imports ends.
func (x *extractor) loadClosure(roots []*file) map[*file]bool {
	reached := map[*file]bool{}
	queue := append([]*file(nil), roots...)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		if reached[f] {
			continue
		}
		reached[f] = true
		if f.facts == nil {
			continue
		}
		specs := make([]string, 0, len(f.facts.imports))
		for _, im := range f.facts.imports {
			specs = append(specs, im.spec)
		}
		specs = append(specs, createRequireLoads(f)...)
		for _, spec := range specs {
			if t := x.resolveModule(f, spec); t != nil && t.parsed != nil && !reached[t] {
				queue = append(queue, t)
			}
		}
	}
	return reached
}

// createRequireNames are the names f binds to createRequire(...) results.
func createRequireNames(f *file) map[string]bool {
	names := map[string]bool{}
	for i := range f.nodes {
		n := nid(i)
		if f.kind(n) != "variable_declarator" {
			continue
		}
		if v := f.field(n, "value"); f.kind(v) == "call_expression" && f.calleeName(f.field(v, "function")) == "createRequire" {
			if nm := f.field(n, "name"); f.kind(nm) == "identifier" && f.text(nm) != "require" {
				names[f.text(nm)] = true
			}
		}
	}
	return names
}

// createRequireLoads are the literal specifiers f passes to a function made
// by createRequire() or to esbuild's __require shim (a function bound to
// the name require is already read as require()).
func createRequireLoads(f *file) []string {
	names := createRequireNames(f)
	names["__require"] = true // esbuild's require shim
	var out []string
	for i := range f.nodes {
		n := nid(i)
		if f.kind(n) != "call_expression" {
			continue
		}
		callee := f.field(n, "function")
		if f.kind(callee) != "identifier" || !names[f.text(callee)] {
			continue
		}
		if a := f.args(n); len(a) == 1 {
			if spec, ok := f.stringValue(a[0]); ok {
				out = append(out, spec)
			}
		}
	}
	return out
}

// spawnCalls start a process or a thread; fork and Worker always run a
// module of their own, the others do when they are handed a path or the
// running node.
var spawnCalls = map[string]bool{"spawn": true, "spawnSync": true, "exec": true, "execSync": true, "execFile": true,
	"execFileSync": true, "execa": true, "execaNode": true, "execaSync": true}

// openLoads lists the loads of f that leave the closure open: a module
// named at run time, a process or worker started on a file of the package,
// an import specifier that names no member the extractor can place.
func (x *extractor) openLoads(f *file, max int) []rundir.Site {
	if f.facts == nil || f.parsed == nil {
		return nil
	}
	var out []rundir.Site
	add := func(n nid, why string) {
		if len(out) < max {
			out = append(out, f.site(n, why))
		}
	}
	for _, im := range f.facts.imports {
		if strings.HasPrefix(im.spec, "#") || strings.HasPrefix(im.spec, "@/") || strings.HasPrefix(im.spec, "~/") {
			if x.resolveModule(f, im.spec) == nil {
				add(im.node, "loads "+im.spec+", an alias the extractor does not place")
			}
		}
	}
	// Functions made by createRequire(...) are require by another name.
	requires := createRequireNames(f)
	requires["require"], requires["__require"] = true, true
	for i := range f.nodes {
		if len(out) >= max {
			break
		}
		n := nid(i)
		k := f.kind(n)
		if k != "call_expression" && k != "new_expression" {
			continue
		}
		callee := f.field(n, "function")
		if k == "new_expression" {
			callee = f.field(n, "constructor")
		}
		name := f.calleeName(callee)
		args := f.args(n)
		switch {
		case k == "new_expression" && name == "Worker":
			add(n, "starts a Worker")
		case f.kind(callee) == "import":
			if len(args) == 0 || !isStringLiteral(f, args[0]) {
				add(n, "import() of a module named at run time")
			}
		case f.kind(callee) == "identifier" && requires[name]:
			if len(args) == 0 || !isStringLiteral(f, args[0]) {
				add(n, name+"() of a module named at run time")
			}
		case name == "createRequire" && f.kind(f.parent(n)) != "variable_declarator":
			add(n, "createRequire() used other than bound to a name")
		case name == "fork" || name == "execaNode":
			add(n, name+"() starts a module of its own")
		case spawnCalls[name] && startsAFile(f, n):
			add(n, name+"() starts node or a file of the package")
		}
	}
	return out
}

// isStringLiteral reports a string or a template without substitutions.
func isStringLiteral(f *file, n nid) bool {
	_, ok := f.stringValue(n)
	return ok
}

// startsAFile reports whether a process call's arguments name the running
// node or a script: process.execPath, process.argv, __dirname, __filename,
// import.meta, or a literal that is node or a JavaScript path.
func startsAFile(f *file, call nid) bool {
	a := f.field(call, "arguments")
	found := false
	f.walk(a, func(n nid) bool {
		if found {
			return false
		}
		switch f.kind(n) {
		case "identifier":
			switch f.text(n) {
			case "__dirname", "__filename":
				found = true
			}
		case "member_expression":
			t := f.text(n)
			if t == "process.execPath" || strings.HasPrefix(t, "process.argv") || strings.HasPrefix(t, "import.meta") {
				found = true
			}
		case "meta_property":
			found = true
		case "string", "template_string":
			if s, ok := f.stringValue(n); ok {
				s = strings.TrimSpace(s)
				for _, ext := range []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"} {
					if strings.HasSuffix(s, ext) || strings.Contains(s, ext+" ") {
						found = true
					}
				}
				switch s {
				case "node", "tsx", "ts-node", "bun", "deno":
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// reachDetail renders Surface.Reach for the text view.
func reachDetail(r *rundir.Reach) string {
	if r == nil {
		return ""
	}
	if len(r.Undetermined) > 0 {
		var parts []string
		for _, s := range r.Undetermined {
			if s.Line > 0 {
				parts = append(parts, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Detail))
			} else {
				parts = append(parts, s.File+" "+s.Detail)
			}
		}
		return "undetermined (" + strings.Join(parts, "; ") + ")"
	}
	if len(r.Uncalled) > 0 {
		var parts []string
		for _, s := range r.Uncalled {
			parts = append(parts, fmt.Sprintf("%s:%d %s", s.File, s.Line, s.Detail))
		}
		return fmt.Sprintf("%d entries registered in modules no entry point loads or in functions nothing calls (%s)", r.Unreachable, strings.Join(parts, "; "))
	}
	return fmt.Sprintf("%d entries registered in modules no entry point loads", r.Unreachable)
}
