package surface

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// extractor is the state of one package's extraction.
type extractor struct {
	ctx      context.Context
	opts     Options
	start    time.Time
	deadline time.Time
	cpuStart time.Duration // Options.CPUTime at the start (cpubudget.go)

	files  []*file
	byPath map[string]*file
	root   string // directory of package.json / the Python project inside the fs
	pkg    *packageJSON

	pkgName    string
	entryFiles []*file

	steps      int
	siteLimit  int  // steps at which the current site stops
	siteOver   bool // the current site passed its step limit
	depth      int
	inProgress map[progKey]bool
	// resolving holds the (module, name) lookups in progress across
	// modules: a lookup that meets one of its own keys is an import cycle
	// and ends at once, unresolved, rather than recursing until the stack
	// dies (no recover() catches that).
	resolving map[nameKey]bool
	// readingValue is the same for readers of values (see enterValue).
	readingValue map[valueKey]bool
	// pinned holds a variable's value while its own reassignments are
	// read (`x = x.filter(...)` reads x's initialiser).
	pinned    map[progKey]val
	exceeded  bool
	exceedWhy string
	heldBytes int64
	peakBytes int64

	s          *rundir.Surface
	unresolved map[rundir.Unresolved]bool
	// sites in readable, runnable source that could not be read.
	failedSites []rundir.Site
	runtimeGen  []rundir.Site
	readSites   int
	minSites    []rundir.Site
	bundleSites []bundleSite // registration sites inside minified bundles
	pyDoc       string       // the package's docstring transformation (pyDocMode)
	pyFastMCP   bool         // the package imports the standalone fastmcp (set by pyDocMode)
	toolObjects map[progKey]bool
	// changedParams memoises returnsChangedParam per function (jseval.go):
	// the answer depends on the function's text only, and call asks it on
	// every evaluation of a call.
	changedParams map[progKey]string
	// esbuildHelpers memoises which of esbuild's spread helpers a
	// function is, writtenNames the names a file writes through a pattern,
	// an update or a loop (schematext_esbuild.go).
	esbuildHelpers map[progKey]esbuildHelper
	writtenNames   map[*file]map[string]bool
	// entryCount and entryTotal count the entries kept, per kind and in
	// all, against the entries cap.
	entryCount map[string]int
	entryTotal int
	entryKeys  map[string]bool
	pyRootList []string
	pyc        *pyComposition  // the package's composed servers (pycompose.go)
	pyReg      pyRegistryCache // class and registry forms (pyregistry.go)
	jsOutBusy  int             // outside-write checks in progress (jsfields.go)
	// jsOut is the package's JS writes by key (jsoutwrite.go).
	jsOut map[string][]outsideWrite
	// pw is, by key, the literals the package's writes reach (jspw_writes.go).
	pw      map[string]map[progKey][]outsideWrite
	pwSpent int // steps spent resolving them (jspw_writes.go)
	// pyListCache and pyListMuts: a Python list literal's replacements
	// and in-place calls (pypw_lists.go).
	pyListCache map[progKey]pyListChange
	pyListMuts  map[*file]map[string][]nid
	// sdkSubclass caches, per class, whether it extends the SDK's server
	// class (jsclass.go).
	sdkSubclass map[progKey]bool
	// tscEnums caches, per variable declarator, the tsc-compiled enum it
	// holds (jsenum.go); a nil value: not an enum.
	tscEnums map[progKey]*val
	// constWriteIdx is, per JS/TS file, every write of a name or property
	// (jsconst.go), built when a substitution is first read as a constant.
	constWriteIdx map[*file]*constWrites
	// nameUses is, per JS/TS file, every identifier and shorthand member
	// by its text, in order (schematext_mut.go).
	nameUses map[*file]map[string][]nid
	// expressReplacedMemo holds expressReplaced's answer per method and
	// response name (schematext_mut_express.go): a walk of every file.
	expressReplacedMemo map[string]bool
	// compoundForms caches, per `let` declarator appended to with +=, the
	// order of its appends (jsunread2_compound.go).
	compoundForms map[compoundKey]*compoundForm
	// jskeysEsc caches, per JS/TS file and object name, why a use of the
	// name could change a constant table whose keys are listed (jskeys.go).
	jskeysEsc map[*file]map[string]string
	// jsWriteIdx is, per JS/TS file, the writes a test of configuration
	// must see (jsconfig.go).
	jsWriteIdx map[*file]*jsWrites
	// cliTables caches, per commander program, the options it declares
	// (jsoptions.go); nil: not known.
	cliTables map[progKey]cliTable
	// pyConf holds the configuration read while the current Python site is
	// read (pyconfig.go).
	pyConf     []rundir.ConfigRead
	pyGlobals  map[*file]map[string]bool
	pyNonlocal map[*file]map[string]bool // pyselfref.go
	pyEnumRead map[pyEnumKey]*pyEnumRead // pyenum.go
	pyCalls    []*pyCallState
	pyDictSrc  map[*string]*pyLocalDict
	pyAnyOff   bool
	pyScripts  pyScripts
	pyModConds map[*file]*pyModuleCond
	// pyTyperCmds caches whether a function is the one command of a Typer
	// application a console script runs (pyflags.go).
	pyTyperCmds map[scopeRef]bool
	pyAttrSet   map[string]bool
	pyPkg       *pyPackageIndex // package-wide Python indexes (pykinds.go), on first use
	// getPrompt lists the package's prompts/get handlers, found once
	// (getPromptDone); decidedReturns > 0 while one runs: a call's result
	// is then read from its reachable returns (jspromptget.go).
	getPrompt      []getPromptHandler
	getPromptDone  bool
	decidedReturns int
	// clientArgText > 0 while the messages of a prompt whose arguments are
	// the client's own are read (jsclientargs.go).
	clientArgText int
	// listHandler is the function of the request handler whose result is
	// being read; runtimeText > 0 while the text of a listing of the
	// operator's data is read (jsunread_runtime.go).
	listHandler scopeRef
	runtimeText int
	// neverReceiver caches, per configuration table, whether no `this`
	// can be it (jsreach_this.go).
	neverReceiver map[progKey]bool
	// jvSealedIdx caches, per constant table, whether no reference to it
	// leaves its occurrences (jsvalues_writes.go).
	jvSealedIdx map[progKey]bool
	// jvReads holds the configuration read while texts chosen by it were
	// read, for the entries of the site (jsvalues_choice.go).
	jvReads []rundir.ConfigRead
	// jb records the choices read as their arm taken, and those a reading
	// of a site takes the other arm of (jsbranches.go).
	jb jbState
}

// Extract reads the tool surface of one package from fsys, whose members are
// described by members. It always returns a surface row; what could not be
// read is recorded in it, never returned as an error.
func Extract(ctx context.Context, pkg rundir.PackageRef, fsys fs.FS, members []MemberInfo, opts Options) (out rundir.Surface) {
	opts = opts.withDefaults()
	x := &extractor{
		ctx:          ctx,
		opts:         opts,
		start:        opts.Now(),
		byPath:       map[string]*file{},
		inProgress:   map[progKey]bool{},
		resolving:    map[nameKey]bool{},
		readingValue: map[valueKey]bool{},
		pinned:       map[progKey]val{},
		unresolved:   map[rundir.Unresolved]bool{},
		toolObjects:  map[progKey]bool{},
		entryKeys:    map[string]bool{},
		entryCount:   map[string]int{},
	}
	x.deadline = x.start.Add(opts.WallBudget)
	x.startCPU()
	x.s = newSurface(pkg)
	defer func() {
		x.s.Budget = rundir.Budget{
			WallMs:        opts.Now().Sub(x.start).Milliseconds(),
			RSSBytes:      x.peakBytes,
			WallMsLimit:   opts.WallBudget.Milliseconds(),
			RSSBytesLimit: opts.RSSBudget,
		}
		x.cpuFigures(&x.s.Budget)
		out = *x.s
	}()
	x.load(fsys, members)
	if x.exceeded {
		x.budgetOutcome()
		return
	}
	x.readMetadata(fsys)
	x.readPyRequirements(fsys)
	x.readPyScripts(fsys) // pyconfig.go
	x.markUnreachedSources()
	x.extractAll()
	if x.exceeded {
		x.budgetOutcome()
		return
	}
	// The capability inventory (§20) reads the same flat copies; a budget
	// passed while reading it leaves no inventory, like any other stop.
	x.capabilities(fsys)
	if x.exceeded {
		x.budgetOutcome()
		return
	}
	x.decideOutcome()
	x.markReachability()
	x.markStaleAdvertised(fsys, members)
	x.finish()
	return
}

func newSurface(pkg rundir.PackageRef) *rundir.Surface {
	return &rundir.Surface{
		Package:               pkg,
		ExtractorVersion:      ExtractorVersion,
		OutcomeEvidence:       []rundir.Site{},
		Tools:                 []rundir.Entry{},
		Prompts:               []rundir.Entry{},
		PromptTexts:           []rundir.Entry{},
		Resources:             []rundir.Entry{},
		ResourceTemplates:     []rundir.Entry{},
		Instructions:          []rundir.Entry{},
		ParameterDescriptions: []rundir.Entry{},
		Vendored:              []rundir.Vendored{},
		AdvertisedTools:       []rundir.Advertised{},
		Unresolved:            []rundir.Unresolved{},
		ReassignedAtRuntime:   []rundir.Site{},
		Capabilities:          []rundir.Capability{},
		Files:                 []rundir.SourceFile{},
	}
}

// exceed stops the extraction at the budget: nothing read in part is
// presented as whole.
func (x *extractor) exceed(why string) {
	if !x.exceeded {
		x.exceeded = true
		x.exceedWhy = why
	}
}

func (x *extractor) checkBudget() {
	if x.exceeded {
		return
	}
	if err := x.ctx.Err(); err != nil {
		x.exceed("cancelled: " + err.Error())
		return
	}
	if why, over := x.timePassed(); over {
		x.exceed(why)
		return
	}
	if x.heldBytes > x.opts.RSSBudget {
		x.exceed(fmt.Sprintf("memory held passed the budget of %d bytes", x.opts.RSSBudget))
	}
}

func (x *extractor) hold(n int64) {
	x.heldBytes += n
	if x.heldBytes > x.peakBytes {
		x.peakBytes = x.heldBytes
	}
}

func (x *extractor) budgetOutcome() {
	s := x.s
	s.Outcome = vocab.OutcomeExtractionBudgetExceeded
	s.OutcomeDetail = x.exceedWhy
	// Nothing read in part is presented as whole.
	s.Tools, s.Prompts, s.PromptTexts = []rundir.Entry{}, []rundir.Entry{}, []rundir.Entry{}
	s.Resources, s.ResourceTemplates, s.Instructions = []rundir.Entry{}, []rundir.Entry{}, []rundir.Entry{}
	s.ParameterDescriptions = []rundir.Entry{}
	s.AdvertisedTools = []rundir.Advertised{}
	s.Capabilities = []rundir.Capability{}
	s.Sampling, s.Elicitation = nil, nil
}

// notRunSegments are path segments of files a package ships that do not run
// when it is installed: tests, specs, examples.
var notRunSegments = map[string]bool{
	"test": true, "tests": true, "__tests__": true, "__mocks__": true, "spec": true, "specs": true,
	"example": true, "examples": true, "demo": true, "demos": true, "fixtures": true, "__fixtures__": true,
	"testing": true,
}

func isNotRun(p string) bool {
	segs := strings.Split(p, "/")
	for _, s := range segs[:len(segs)-1] {
		if notRunSegments[s] {
			return true
		}
	}
	base := segs[len(segs)-1]
	for _, m := range []string{".test.", ".spec.", "_test.", ".stories."} {
		if strings.Contains(base, m) {
			return true
		}
	}
	return strings.HasPrefix(base, "test_") && strings.HasSuffix(base, ".py") || base == "conftest.py"
}

// load parses every source member and computes its facts.
func (x *extractor) load(fsys fs.FS, members []MemberInfo) {
	sorted := append([]MemberInfo(nil), members...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for _, m := range sorted {
		if m.Vendored {
			x.s.Vendored = append(x.s.Vendored, rundir.Vendored{File: m.Path, Library: m.VendoredLibrary, Reason: m.VendoredReason})
		}
		for _, r := range m.VendoredRegions {
			x.s.Vendored = append(x.s.Vendored, rundir.Vendored{File: m.Path, Library: r.Library, StartLine: r.StartLine, EndLine: r.EndLine, Reason: r.Reason})
		}
		lang := languageOf(m.Path)
		if lang == "" {
			x.byPath[m.Path] = &file{path: m.Path, lang: "other"}
			continue
		}
		x.checkBudget()
		if x.exceeded {
			return
		}
		src, err := fs.ReadFile(fsys, m.Path)
		if err != nil {
			x.addUnresolved(m.Path, 0, "member could not be read: "+err.Error())
			continue
		}
		f := &file{path: m.Path, lang: lang, src: src, sha256: m.SHA256, minified: m.Minified, vendored: m.Vendored,
			vregions: m.VendoredRegions, notRun: isNotRun(m.Path)}
		if f.sha256 == "" {
			f.sha256 = vocab.SHA256Hex(src)
		}
		x.hold(int64(len(src)))
		p, err := parseFile(lang, src, x.parseTimeout(), x.opts.MaxFileNodes)
		if err != nil {
			switch {
			case errors.Is(err, ErrParseTimeout):
				x.exceed("parsing " + m.Path + " passed the " + x.wallName())
				return
			case errors.Is(err, ErrParseMemory), errors.Is(err, ErrTooManyNodes):
				x.exceed("parsing " + m.Path + ": " + err.Error())
				return
			}
			x.addUnresolved(m.Path, 0, "member could not be parsed: "+err.Error())
			continue
		}
		if p.maxDepth > x.opts.MaxNesting {
			// Every walk of the extractor over a tree is bounded by the
			// tree's depth; this bound is what keeps each within a Go stack.
			x.exceed(fmt.Sprintf("%s nests %d levels deep, past the limit of %d", m.Path, p.maxDepth, x.opts.MaxNesting))
			return
		}
		f.parsed = p
		x.hold(int64(len(p.nodes)) * 24)
		if f.minified {
			// The line rule only nominates; §5.2 decides on the tokens.
			f.minified = measureMinified(f).Bundle()
		}
		if lang == LangPython {
			f.pyFacts = buildPyFacts(f)
		} else {
			f.facts = buildJSFacts(f)
		}
		x.files = append(x.files, f)
		x.byPath[m.Path] = f
		x.s.Files = append(x.s.Files, rundir.SourceFile{Path: m.Path, SHA256: f.sha256, Size: int64(len(src)), Language: lang,
			Minified: f.minified, Vendored: m.Vendored})
		x.checkBudget()
	}
}

func (x *extractor) addUnresolved(file string, line int, reason string) {
	u := rundir.Unresolved{File: file, Line: line, Reason: reason}
	if x.unresolved[u] {
		return
	}
	x.unresolved[u] = true
	x.s.Unresolved = append(x.s.Unresolved, u)
}

// packageJSON is the part of package.json the extractor reads.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Main                 string            `json:"main"`
	Module               string            `json:"module"`
	Bin                  json.RawMessage   `json:"bin"`
	Exports              json.RawMessage   `json:"exports"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

// readMetadata finds the package root, package.json and entry points.
func (x *extractor) readMetadata(fsys fs.FS) {
	x.root = "."
	if _, err := fs.Stat(fsys, "package.json"); err != nil {
		// npm tarballs hold everything under one top directory ("package/").
		if ents, err := fs.ReadDir(fsys, "."); err == nil {
			var dirs []string
			for _, e := range ents {
				if e.IsDir() {
					dirs = append(dirs, e.Name())
				}
			}
			if len(dirs) == 1 {
				if _, err := fs.Stat(fsys, dirs[0]+"/package.json"); err == nil {
					x.root = dirs[0]
				}
			}
		}
	}
	b, err := fs.ReadFile(fsys, path.Join(x.root, "package.json"))
	if err == nil {
		var pj packageJSON
		if json.Unmarshal(b, &pj) == nil {
			x.pkg = &pj
			x.pkgName = pj.Name
			for _, e := range pj.entryPoints() {
				if f := x.resolvePath(path.Join(x.root, e), false); f != nil && f.parsed != nil {
					x.entryFiles = append(x.entryFiles, f)
				}
			}
		}
	}
	x.readAdvertised(fsys)
}

// entryPoints lists the files package.json says run: main, module, bin and
// the string targets of exports.
func (p *packageJSON) entryPoints() []string {
	var out []string
	add := func(s string) {
		if s != "" && !strings.Contains(s, "*") {
			out = append(out, s)
		}
	}
	add(p.Main)
	add(p.Module)
	var bin any
	if json.Unmarshal(p.Bin, &bin) == nil {
		switch b := bin.(type) {
		case string:
			add(b)
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(b)) {
				if s, ok := b[k].(string); ok {
					add(s)
				}
			}
		}
	}
	var ex any
	if json.Unmarshal(p.Exports, &ex) == nil {
		var rec func(v any, depth int)
		rec = func(v any, depth int) {
			if depth > 8 {
				return
			}
			switch t := v.(type) {
			case string:
				add(t)
			case map[string]any:
				for _, k := range slices.Sorted(maps.Keys(t)) {
					if k == "types" {
						continue
					}
					rec(t[k], depth+1)
				}
			case []any:
				for _, e := range t {
					rec(e, depth+1)
				}
			}
		}
		rec(ex, 0)
	}
	if len(out) == 0 && p.Name != "" {
		out = append(out, "index.js")
	}
	return out
}

// markUnreachedSources marks TypeScript sources that the package's entry
// points never import as not run: a package that ships src/*.ts beside its
// compiled dist/*.js runs the JavaScript. JavaScript files outside the
// import closure stay readable, since a server may load them dynamically.
func (x *extractor) markUnreachedSources() {
	reached := x.reachedFromEntries()
	if reached == nil {
		return
	}
	for _, f := range x.files {
		if !reached[f] && (f.lang == LangTS || f.lang == LangTSX) {
			f.notRun = true
		}
	}
}

// runnable reports whether sites in f count: not vendored, not a test or
// example.
func (f *file) runnable() bool { return !f.vendored && !f.notRun }

// extractAll evaluates every registration site of every file.
func (x *extractor) extractAll() {
	x.pyBuildComposition()
	for _, f := range x.files {
		if x.exceeded {
			return
		}
		if f.lang == LangPython {
			x.pySites(f)
			continue
		}
		for _, s := range f.facts.sites {
			if x.exceeded {
				return
			}
			x.jsSite(f, s)
		}
	}
	x.readBundleSites()
	x.checkReassignments()
}

// site returns the rundir.Site of a node.
func (f *file) site(n nid, detail string) rundir.Site {
	return rundir.Site{File: f.path, Line: f.lineOf(n), Detail: detail}
}

// collector gathers what one evaluation of a site produced. When need is
// set, a binding has to be enumerated first and the rest is discarded.
type collector struct {
	file     *file
	site     nid
	entries  []rundir.Entry
	failures []string
	runtime  []string
	notes    []string
	need     *scopeRef
}

func (c *collector) needs(v val) bool {
	if v.k == vNeed && c.need == nil {
		s := v.need
		c.need = &s
	}
	return c.need != nil
}

// enumerate evaluates one site under every environment its bindings can
// take: each call site of an enclosing function, each element of an
// enclosing loop or callback. Unresolvable bindings are recorded.
func (x *extractor) enumerate(f *file, site nid, fn func(e *env, c *collector)) {
	queue := []*env{nil}
	attempts := 0
	x.siteLimit, x.siteOver = x.steps+x.opts.MaxSiteSteps, false
	defer func() {
		if x.siteOver && !x.exceeded {
			x.siteFailed(f, site, fmt.Sprintf("resolving this site passed the limit of %d steps", x.opts.MaxSiteSteps))
		}
		x.siteLimit, x.siteOver = 0, false
	}()
	for len(queue) > 0 {
		if x.exceeded || x.siteOver {
			return
		}
		e := queue[0]
		queue = queue[1:]
		attempts++
		if attempts > x.opts.MaxInstances {
			x.siteFailed(f, site, fmt.Sprintf("more than %d instances of this registration site", x.opts.MaxInstances))
			return
		}
		c := &collector{file: f, site: site}
		x.safeEval(f, site, func() { fn(e, c) })
		if c.need == nil {
			x.commit(f, site, c)
			continue
		}
		need := *c.need
		var frames []env
		var reason string
		for tries := 0; tries < 16; tries++ {
			var need2 *scopeRef
			frames, reason, need2 = x.instances(need, e)
			if need2 == nil {
				break
			}
			need = *need2
		}
		if len(frames) == 0 {
			if reason == "" {
				reason = "binding could not be enumerated"
			}
			queue = append(queue, e.push(env{scope: need, dead: reason}))
			continue
		}
		for _, fr := range frames {
			queue = append(queue, e.push(fr))
		}
	}
}

// mentionsOpenAPI reports whether a file deals with OpenAPI documents: its
// path, an import, or an identifier names OpenAPI or Swagger.
func (f *file) mentionsOpenAPI() bool {
	lp := strings.ToLower(f.path)
	if strings.Contains(lp, "openapi") || strings.Contains(lp, "swagger") {
		return true
	}
	for _, n := range f.nodes {
		k := f.g.kindName(n.sym)
		if k != "identifier" && k != "property_identifier" && k != "type_identifier" && k != "string_fragment" && k != "string_content" {
			continue
		}
		if n.end-n.start > 64 {
			continue
		}
		t := strings.ToLower(string(f.src[n.start:n.end]))
		if strings.Contains(t, "openapi") || strings.Contains(t, "swagger") {
			return true
		}
	}
	return false
}

// safeEval runs fn and turns a panic into a failed site: a registration
// site the extractor could not read is declaration_not_parsed, never a crash.
// reasonInternalError begins the reason of a site or file whose reading
// panicked: recorded so the run goes on, and a bug all the same (the fuzz
// targets fail on it).
const reasonInternalError = "internal error while reading"

func (x *extractor) safeEval(f *file, site nid, fn func()) {
	defer func() {
		if r := recover(); r != nil {
			x.depth = 0
			x.pyReg.nesting = 0
			x.inProgress = map[progKey]bool{}
			x.resolving = map[nameKey]bool{}
			x.readingValue = map[valueKey]bool{}
			x.siteFailed(f, site, fmt.Sprintf("%s the site: %v", reasonInternalError, r))
		}
	}()
	fn()
}

func (x *extractor) siteFailed(f *file, n nid, reason string) {
	s := f.site(n, reason)
	x.failedSites = append(x.failedSites, s)
	x.addUnresolved(f.path, s.Line, reason)
}

func (x *extractor) commit(f *file, site nid, c *collector) {
	if len(c.failures) > 0 && len(c.runtime) == 0 && !f.minified && f.mentionsOpenAPI() {
		// The registering file builds its tools from an OpenAPI document.
		c.runtime = append(c.runtime, "tools built from an OpenAPI document")
	}
	for _, r := range c.runtime {
		x.runtimeGen = append(x.runtimeGen, f.site(site, r))
	}
	for _, r := range c.notes {
		x.addUnresolved(f.path, f.lineOf(site), r)
	}
	for _, r := range c.failures {
		x.siteFailed(f, site, r)
	}
	for _, e := range c.entries {
		x.addEntry(e)
	}
}

func (x *extractor) addEntry(e rundir.Entry) {
	key := e.Kind + "\x00" + e.Parent + "\x00" + e.Name + "\x00" + e.DescriptionState + "\x00" + e.DescriptionRaw + "\x00" + e.URI
	if len(e.Spans) > 0 {
		key += fmt.Sprintf("\x00%s:%d", e.Spans[0].File, e.Spans[0].Start)
	} else {
		key += fmt.Sprintf("\x00%s:%d", e.File, e.Line)
	}
	if x.entryKeys[key] {
		x.mergeConfiguration(e) // pyconfig.go
		return
	}
	x.entryKeys[key] = true
	if !x.underEntriesCap(e.Kind) {
		return
	}
	x.bundleText(&e)
	if e.DescriptionState == vocab.StateUnreadable {
		x.addUnresolved(e.File, e.Line, e.Kind+" "+e.Name+": description "+e.UnreadableReason)
	}
	x.s.Add(e.Kind, e)
}

// underEntriesCap counts one more entry of kind against the entries cap
// (methodology §9): a surface past it is extraction_budget_exceeded, and
// nothing of it is presented, because a surface counted in part is not the
// surface.
func (x *extractor) underEntriesCap(kind string) bool {
	x.entryCount[kind]++
	x.entryTotal++
	switch kind {
	case KindTool, KindPrompt, KindResource, KindResourceTemplate:
		if x.entryCount[kind] > x.opts.MaxEntries {
			x.exceed(fmt.Sprintf("the surface lists more than %d entries of kind %s (the entries cap)", x.opts.MaxEntries, kind))
			return false
		}
	}
	if x.entryTotal > x.opts.MaxAllEntries {
		x.exceed(fmt.Sprintf("the surface holds more than %d entries of all kinds (the entries cap)", x.opts.MaxAllEntries))
		return false
	}
	return true
}

// loopInstances lists a loop's frames, one an element of the items it
// iterates (read by items, in the loop's language); empty is the reason
// recorded for a loop over nothing.
func (x *extractor) loopInstances(s scopeRef, e *env, items func(*file, nid, *env) ([]val, bool), empty string) ([]env, string, *scopeRef) {
	its, ok := items(s.f, s.n, e)
	if !ok {
		if len(its) == 1 && its[0].k == vNeed {
			nd := its[0].need
			return nil, "", &nd
		}
		if len(its) == 1 {
			return nil, "loop over a value that is not resolved: " + reasonOf(its[0]), nil
		}
		return nil, "loop over a value that is not resolved", nil
	}
	if len(its) == 0 {
		return nil, empty, nil
	}
	var frames []env
	for i := range its {
		frames = append(frames, env{scope: s, index: i, isLoop: true})
	}
	return frames, "", nil
}

// instances lists the frames a scope's bindings can take under e. need2 is
// set when the scope's own source must be enumerated first.
func (x *extractor) instances(s scopeRef, e *env) (frames []env, reason string, need2 *scopeRef) {
	f, n := s.f, s.n
	if f.lang == LangPython {
		return x.pyInstances(s, e)
	}
	if f.kind(n) == "for_in_statement" {
		return x.loopInstances(s, e, x.loopItems, "loop over an empty array")
	}
	// A callback handed to an array method: bound to each element.
	if argsNode := f.parent(n); f.kind(argsNode) == "arguments" {
		call := f.parent(argsNode)
		callee := f.field(call, "function")
		if f.kind(callee) == "member_expression" {
			switch f.text(f.field(callee, "property")) {
			case "forEach", "map", "filter", "flatMap", "some", "every", "find", "findIndex":
				recv := x.eval(f, f.field(callee, "object"), e)
				if recv.k == vNeed {
					nd := recv.need
					return nil, "", &nd
				}
				els, ok := x.elements(recv, e)
				if !ok {
					if len(els) == 1 && els[0].k == vNeed {
						nd := els[0].need
						return nil, "", &nd
					}
					return nil, "callback over a value that is not resolved: " + reasonOf(recv), nil
				}
				if len(els) == 0 {
					return nil, "callback over an empty array", nil
				}
				for i := range els {
					frames = append(frames, env{scope: s, index: i, isLoop: true})
				}
				return frames, "", nil
			}
		}
		return nil, "parameter supplied by the caller of a callback (" + truncate(f.text(callee), 60) + ")", nil
	}
	// A function: bound through each of its call sites in the package.
	calls := x.callSitesOf(f, n, e)
	if len(calls) == 0 {
		return nil, reasonNoCallSite, nil
	}
	for _, cs := range calls {
		cs := cs
		frames = append(frames, env{scope: s, site: &cs})
	}
	return frames, "", nil
}

// callSitesOf finds the calls of function node n in the package (by name,
// then checked by resolving the callee), including `new C()` and super()
// for constructors.
func (x *extractor) callSitesOf(f *file, n nid, e *env) []callSite {
	var names []string
	isCtor := false
	var class nid = none
	switch f.kind(n) {
	case "function_declaration", "generator_function_declaration":
		names = append(names, f.text(f.field(n, "name")))
	case "method_definition":
		name := f.text(f.field(n, "name"))
		if name == "constructor" {
			isCtor = true
			class = f.parent(f.parent(n))
			if nm := f.field(class, "name"); nm >= 0 {
				names = append(names, f.text(nm))
			}
			names = append(names, "super")
		} else {
			names = append(names, name)
		}
	default:
		p := f.parent(n)
		switch f.kind(p) {
		case "variable_declarator":
			names = append(names, f.text(f.field(p, "name")))
		case "pair":
			names = append(names, propKeyName(f, f.field(p, "key")))
		case "assignment_expression":
			left := f.field(p, "left")
			if f.kind(left) == "member_expression" {
				names = append(names, f.text(f.field(left, "property")))
			} else {
				names = append(names, f.text(left))
			}
		case "export_statement":
			names = append(names, "default")
		default:
			names = append(names, x.returnedFunctionNames(f, n, e)...)
		}
	}
	var out []callSite
	seen := map[progKey]bool{}
	for _, name := range names {
		if name == "" {
			continue
		}
		for _, g := range x.files {
			if g.facts == nil || !g.runnable() {
				continue
			}
			for _, c := range g.facts.calls[name] {
				if seen[progKey{g, c, nil}] {
					continue
				}
				ok := false
				if g.kind(c) == "new_expression" {
					if isCtor {
						cv := x.eval(g, g.field(c, "constructor"), e)
						ok = cv.k == vClass && cv.f == f && cv.n == class
					}
				} else if name == "super" {
					if isCtor && g.kind(g.field(c, "function")) == "super" {
						ok = x.superOf(g, c, e, f, class)
					}
				} else if !isCtor {
					callee := g.field(c, "function")
					if g.kind(callee) == "member_expression" && g.text(g.field(callee, "property")) == "call" && name != "call" {
						// f.call(thisArg, ...args)
						cv := x.eval(g, g.field(callee, "object"), e)
						if cv.k == vFunc && cv.f == f && cv.n == n {
							a := g.args(c)
							if len(a) > 0 {
								seen[progKey{g, c, nil}] = true
								out = append(out, callSite{f: g, n: c, args: a[1:], thisArg: a[0]})
							}
						}
						continue
					}
					cv := x.eval(g, callee, e)
					ok = cv.k == vFunc && cv.f == f && cv.n == n
					if cv.k == vNeed {
						ok = x.calleeMatchesSomeInstance(g, callee, cv.need, e, f, n)
					}
				}
				if ok {
					seen[progKey{g, c, nil}] = true
					cs := callSite{f: g, n: c, args: g.args(c), thisArg: none}
					if callee := g.field(c, "function"); g.kind(callee) == "member_expression" && f.kind(n) == "method_definition" {
						// obj.m(...): `this` is obj, an instance of the subclass
						// that inherits m.
						cs.thisArg = g.field(callee, "object")
					}
					out = append(out, cs)
				}
			}
		}
	}
	return out
}

// superOf reports whether the super() call c sits in a class that extends
// the class node want.
func (x *extractor) superOf(g *file, c nid, e *env, wf *file, want nid) bool {
	for a := g.parent(c); a >= 0; a = g.parent(a) {
		if k := g.kind(a); k == "class_declaration" || k == "class" {
			h := g.childOfKind(a, "class_heritage")
			if h < 0 {
				return false
			}
			sup := h
			if ex := g.childOfKind(h, "extends_clause"); ex >= 0 {
				sup = ex
			}
			ch := g.named(sup)
			if len(ch) == 0 {
				return false
			}
			v := x.eval(g, ch[0], e)
			return v.k == vClass && v.f == wf && v.n == want
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// decideOutcome applies §5's outcomes from what the sites yielded.
func (x *extractor) decideOutcome() {
	s := x.s
	switch {
	case x.readSites > 0 && len(x.failedSites) == 0:
		s.Outcome = vocab.OutcomeParsed
	case x.readSites > 0 && len(x.runtimeGen) > 0:
		s.Outcome = vocab.OutcomeRuntimeGenerated
		s.OutcomeEvidence = append(s.OutcomeEvidence, x.runtimeGen...)
		s.OutcomeDetail = "the registering file builds its tools from data read at run time"
	case x.readSites > 0:
		s.Outcome = vocab.OutcomeDeclarationNotParsed
		s.OutcomeEvidence = append(s.OutcomeEvidence, x.failedSites...)
		s.OutcomeDetail = fmt.Sprintf("%d registration site(s) could not be read", len(x.failedSites))
	case len(x.minSites) > 0:
		s.Outcome = vocab.OutcomeMinifiedOnly
		s.OutcomeEvidence = append(s.OutcomeEvidence, x.minSites...)
		s.OutcomeDetail = "registration text exists only in minified bundles"
	default:
		ev := x.notAServerEvidence()
		if len(ev) > 0 {
			s.Outcome = vocab.OutcomeNotAServer
			s.OutcomeEvidence = append(s.OutcomeEvidence, ev...)
		} else {
			s.Outcome = vocab.OutcomeNoRegistrationSite
		}
	}
	x.findDelegation()
}

// finish sorts what was recorded so reruns are byte-identical.
func (x *extractor) finish() {
	s := x.s
	for _, list := range []*[]rundir.Entry{&s.Tools, &s.Prompts, &s.PromptTexts, &s.Resources, &s.ResourceTemplates,
		&s.Instructions, &s.ParameterDescriptions} {
		l := *list
		sort.SliceStable(l, func(i, j int) bool {
			if l[i].File != l[j].File {
				return l[i].File < l[j].File
			}
			if l[i].Line != l[j].Line {
				return l[i].Line < l[j].Line
			}
			if l[i].Parent != l[j].Parent {
				return l[i].Parent < l[j].Parent
			}
			return l[i].Name < l[j].Name
		})
	}
	sort.SliceStable(s.Unresolved, func(i, j int) bool {
		a, b := s.Unresolved[i], s.Unresolved[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Reason < b.Reason
	})
}
