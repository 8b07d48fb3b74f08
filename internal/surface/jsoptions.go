package surface

// Command-line options declared with `commander` (methodology §5.2,
// Configuration of JavaScript and TypeScript servers), the rule Python's
// argparse and click follow (pyconfig.go): under the default configuration
// no flag is given, so `program.opts().x` is the default the package
// declares for the option whose attribute is x:
//
//	program
//	    .option("--tools-config <path>", "Path to a tools file")      // opts().toolsConfig: undefined
//	    .option("--toolsets <list>", "Tool groups", "repos,issues")    // opts().toolsets: "repos,issues"
//	    .option("--no-write", "Turn writes off")                       // opts().write: true
//	    .parse(process.argv);
//	const options = program.opts();
//
// The options object is known only when the package states every way the
// program is changed: the program is the `program` that the only module of
// the package importing "commander" imports, or a `const` bound there to
// `new Command(...)` of it; every occurrence of that name in the module
// is the root of a chain of calls of the methods commanderMethods lists
// (`.option(...)` with a literal flags string and at most a literal
// default), ending in a statement or in `.opts()`. A program handed to a
// function, stored, given a subcommand, an action, an `Option` object or a
// required option, or an option whose default is computed or parsed by a
// function, is not known; a key no option declares is not known either.
// Each option read is recorded in the entry's configuration (`cli`, the
// long flag, the default as written).

import (
	"strings"
)

// commanderMethods are the methods of a commander program that change
// nothing the options object holds when no flag is given.
var commanderMethods = map[string]bool{
	"version": true, "name": true, "description": true, "summary": true, "usage": true,
	"option": true, "parse": true, "parseAsync": true, "opts": true,
	"helpOption": true, "addHelpText": true, "showHelpAfterError": true,
	"showSuggestionAfterError": true, "allowUnknownOption": true, "allowExcessArguments": true,
	"configureHelp": true, "configureOutput": true,
}

// cliOption is one option a commander program declares.
type cliOption struct {
	flag  string // the long flag as written (--tools-config), else the short one
	def   jcv    // its value when the flag is not given; ok false: not known
	text  string // the default as written: undefined, true, "a,b"
	file  string
	line  int
	twice bool // the attribute is declared more than once
}

// cliTable is the options of one program, by attribute; nil: not known.
type cliTable map[string]*cliOption

// jsCommanderOpts reads `recv.opts()`: ok is false when recv is not a
// commander program, and the value is then read as before.
func (x *extractor) jsCommanderOpts(f *file, recv nid) (jcv, bool) {
	if f.kind(recv) == "member_expression" {
		return x.jsCommanderMemberOpts(f, recv) // tsc's commander_1.program (jsargs_commander.go)
	}
	if f.kind(recv) != "identifier" {
		return jcv{}, false
	}
	b, ok := x.lookup(f, recv, f.text(recv))
	if !ok || !x.jsCommanderProgram(f, b) {
		return jcv{}, false
	}
	if x.cliTables == nil {
		x.cliTables = map[progKey]cliTable{}
	}
	key := progKey{f: f, n: b.id}
	t, seen := x.cliTables[key]
	if !seen {
		t = x.jsCommanderTable(f, b)
		x.cliTables[key] = t
	}
	if t == nil {
		return jUnknown(), true
	}
	return jcv{ok: true, k: 'P', f: f, n: b.id}, true
}

// jsCommanderProgram reports whether binding b is commander's `program`
// imported by name, or a const bound to `new Command(...)` of commander's
// `Command`.
func (x *extractor) jsCommanderProgram(f *file, b binding) bool {
	if x.jsCommanderProgramCJS(f, b) { // require("commander"), tsc's commander_1 (jsargs_commander.go)
		return true
	}
	switch b.kind {
	case bImport:
		if f.kind(b.decl) != "import_specifier" {
			return false
		}
		v := x.importValue(f, b.decl)
		return v.k == vExternal && v.spec == "commander.program"
	case bDecl:
		d := b.decl
		if f.kind(d) != "variable_declarator" || f.field(d, "name") != b.id || !strings.HasPrefix(f.text(f.parent(d)), "const") {
			return false
		}
		nw := f.field(d, "value")
		if f.kind(nw) != "new_expression" {
			return false
		}
		c := f.field(nw, "constructor")
		if f.kind(c) != "identifier" {
			return false
		}
		cb, ok := x.lookup(f, c, f.text(c))
		if !ok || cb.kind != bImport || f.kind(cb.decl) != "import_specifier" {
			return false
		}
		v := x.importValue(f, cb.decl)
		return v.k == vExternal && v.spec == "commander.Command"
	}
	return false
}

// jsCommanderTable reads the options of program b in file f, or nil when
// they are not known (see the file comment).
func (x *extractor) jsCommanderTable(f *file, b binding) cliTable {
	return x.jsCommanderUses(f, b, func(n nid, t cliTable) bool { return x.jsCommanderChain(f, n, t) })
}

// jsCommanderUses reads a table of options from every occurrence of b's
// name in f bound to b (read reads one, false when its form is not one the
// rule reads), or nil when they are not known: when another module of the
// package names commander (it may add options to the same program), when
// one occurrence is not read, or when the steps run out.
func (x *extractor) jsCommanderUses(f *file, b binding, read func(n nid, t cliTable) bool) cliTable {
	for _, g := range x.files {
		if g != f && g.lang != LangPython && !g.vendored && (strings.Contains(string(g.src), `"commander"`) || strings.Contains(string(g.src), `'commander'`)) {
			return nil // another module may add options to the same program
		}
	}
	name := f.text(b.id)
	t := cliTable{}
	known := true
	f.walk(0, func(n nid) bool {
		if !known {
			return false
		}
		if !x.step() {
			known = false
			return false
		}
		if f.kind(n) != "identifier" || f.text(n) != name || n == b.id {
			return true
		}
		if ob, ok := x.lookup(f, n, name); !ok || ob.id != b.id {
			return true
		}
		if !read(n, t) {
			known = false
			return false
		}
		return true
	})
	if !known {
		return nil
	}
	return t
}

// jsCommanderChain reads the chain of calls rooted at occurrence n of the
// program, adding the options it declares to t; false when the chain is not
// one the rule reads.
func (x *extractor) jsCommanderChain(f *file, n nid, t cliTable) bool {
	cur := n
	nargs := 0 // the positional arguments of the command the chain is at
	for {
		m := f.parent(cur)
		if f.kind(m) != "member_expression" || f.field(m, "object") != cur {
			break
		}
		method := f.text(f.field(m, "property"))
		call := f.parent(m)
		if f.kind(call) != "call_expression" || f.field(call, "function") != m {
			return false
		}
		switch method {
		case "command": // a subcommand: the rest of the chain declares its options (jsargs_commander.go)
			sub, k, ok := x.jsCommanderSubcommand(f, call)
			if !ok {
				return false
			}
			t, nargs = sub, k
			cur = call
			continue
		case "action":
			if !x.jsCommanderAction(f, call, t, nargs) {
				return false
			}
			cur = call
			continue
		}
		if !commanderMethods[method] {
			return false
		}
		if method == "opts" {
			return len(f.args(call)) == 0 // the options object, read where it is used
		}
		if method == "option" && !x.jsCommanderOption(f, call, t) {
			return false
		}
		cur = call
	}
	if cur == n {
		return false // the program itself handed on, stored or returned
	}
	p := f.parent(cur)
	if f.kind(p) == "await_expression" {
		p = f.parent(p)
	}
	return f.kind(p) == "expression_statement"
}

// jsCommanderOption reads `.option(flags, description[, default])`.
func (x *extractor) jsCommanderOption(f *file, call nid, t cliTable) bool {
	args := f.args(call)
	if len(args) == 0 || len(args) > 3 {
		return false
	}
	flags, ok := f.stringValue(args[0])
	if !ok || f.kind(args[0]) != "string" {
		return false
	}
	long, short, negate := "", "", false
	for _, w := range strings.FieldsFunc(flags, func(r rune) bool { return r == ' ' || r == ',' || r == '|' }) {
		switch {
		case strings.HasPrefix(w, "--"):
			if long != "" {
				return false
			}
			long = w
		case strings.HasPrefix(w, "-"):
			short = w
		case strings.HasPrefix(w, "<") || strings.HasPrefix(w, "["):
		default:
			return false
		}
	}
	attr, flag := "", long
	switch {
	case long != "":
		attr = strings.TrimPrefix(long, "--")
		if strings.HasPrefix(attr, "no-") {
			negate, attr = true, strings.TrimPrefix(attr, "no-")
		}
	case short != "":
		attr, flag = strings.TrimPrefix(short, "-"), short
	default:
		return false
	}
	attr = commanderCamel(attr)
	if attr == "" {
		return false
	}
	o := &cliOption{flag: flag, def: jUndef(), text: "undefined", file: f.path, line: f.lineOf(call)}
	if negate {
		o.def, o.text = jBool(true), "true"
	}
	if len(args) == 3 {
		d := args[2]
		switch f.kind(d) {
		case "string", "number", "true", "false", "null":
			o.def, o.text = x.jsCond(f, d, nil, 0), f.text(d)
		default:
			o.def = jUnknown() // a parser function or a computed default
		}
	}
	if prev, dup := t[attr]; dup {
		prev.twice = true // `--x` and `--no-x`: the default depends on both
		return true
	}
	t[attr] = o
	return true
}

// commanderCamel is commander's attribute name of a flag: `tools-config`
// is toolsConfig.
func commanderCamel(s string) string {
	parts := strings.Split(s, "-")
	var b strings.Builder
	for i, p := range parts {
		if p == "" {
			return ""
		}
		if i > 0 {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
			continue
		}
		b.WriteString(p)
	}
	return b.String()
}

// jsCommanderKey reads key of the options object obj (kind 'P').
func (x *extractor) jsCommanderKey(f *file, n nid, obj jcv, key string) jcv {
	t := x.cliTables[progKey{f: obj.f, n: obj.n}]
	o := t[key]
	if o == nil || o.twice || !o.def.ok {
		return jUnknown()
	}
	x.noteCLI(f, n, o) // jsargs.go
	return o.def
}
