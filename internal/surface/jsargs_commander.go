package surface

// commander's subcommands and actions, and its CommonJS forms (methodology
// §5.2, Configuration of JavaScript and TypeScript servers, 2.3.10), read
// under the default configuration as jsoptions.go reads a program's own
// options: no flag given.
//
//	const commander_1 = require("commander");                 // tsc's CommonJS
//	const program = new commander_1.Command();
//	program
//	    .command("serve")                                      // a subcommand: what follows is its own
//	    .option("--toolsets <list>", "Tool groups", "repos")
//	    .action((options) => { start(options); });             // options.toolsets: "repos"
//	program.parse();
//
// A program is also a `const` bound to `new X.Command()` where X is bound to
// `require("commander")` (or tsc's `__importStar` of it), or to
// `new Command()` / `program` destructured from `require("commander")`.
// `.command(name)` with one literal naming the command and its positional
// arguments (`"serve <dir> [port]"`) starts the subcommand's own options;
// `.action(fn)`, fn an arrow function written in place, runs with the
// command's positional arguments and then its options: that parameter is
// the command's options with no flag given (commander passes only the
// command's own options). An action that is a function expression (whose
// `this` is the command), that takes the command itself (a parameter after
// the options), or whose options parameter is destructured or written, is
// not read; nor is any other use of a subcommand (`.command(name,
// description)` runs a separate executable, `.addCommand`, `.argument`, a
// subcommand stored in a name).
//
// tsc writes `import { program } from "commander"` as `commander_1.program`
// at every use: that program is read when every occurrence of the module's
// name is a member read, and each `commander_1.program` a chain the rule
// reads.

import (
	"strings"
)

// jsCommanderProgramCJS reports whether binding b is a commander program
// reached through require (see the file comment).
func (x *extractor) jsCommanderProgramCJS(f *file, b binding) bool {
	if b.kind != bDecl {
		return false
	}
	d := b.decl
	if f.kind(d) != "variable_declarator" || !strings.HasPrefix(f.text(f.parent(d)), "const") {
		return false
	}
	if f.field(d, "name") != b.id {
		if f.kind(f.field(d, "name")) != "object_pattern" || patternKey(f, f.field(d, "name"), b.id) != "program" {
			return false
		}
		s, m, ok := x.jsModuleRef(f, f.field(d, "value"), 0) // const { program } = require("commander")
		return ok && s == "commander" && m == "" && !x.jsBindingWritten(f, b)
	}
	nw := f.field(d, "value")
	if f.kind(nw) != "new_expression" {
		return false
	}
	c := f.field(nw, "constructor")
	if f.kind(c) == "identifier" {
		if cb, ok := x.lookup(f, c, f.text(c)); ok && cb.kind == bImport {
			return false // an ESM import: jsCommanderProgram's own case
		}
	}
	s, m, ok := x.jsModuleRef(f, c, 0)
	return ok && s == "commander" && m == "Command"
}

// jsCommanderSubcommand reads `.command(nameAndArgs)`: the new command's
// table, registered under the call, and the number of its positional
// arguments.
func (x *extractor) jsCommanderSubcommand(f *file, call nid) (cliTable, int, bool) {
	args := f.args(call)
	if len(args) != 1 || f.kind(args[0]) != "string" {
		return nil, 0, false // with a description it runs a separate executable; options are not read
	}
	spec, ok := f.stringValue(args[0])
	if !ok {
		return nil, 0, false
	}
	words := strings.Fields(spec)
	if len(words) == 0 || strings.HasPrefix(words[0], "<") || strings.HasPrefix(words[0], "[") || strings.HasPrefix(words[0], "-") {
		return nil, 0, false
	}
	nargs := 0
	for _, w := range words[1:] {
		if !(strings.HasPrefix(w, "<") && strings.HasSuffix(w, ">") || strings.HasPrefix(w, "[") && strings.HasSuffix(w, "]")) {
			return nil, 0, false
		}
		nargs++
	}
	sub := cliTable{}
	if x.cliTables == nil {
		x.cliTables = map[progKey]cliTable{}
	}
	x.cliTables[progKey{f: f, n: call}] = sub
	return sub, nargs, true
}

// jsCommanderAction reads `.action(fn)` on a command whose options are t
// and that takes nargs positional arguments.
func (x *extractor) jsCommanderAction(f *file, call nid, t cliTable, nargs int) bool {
	args := f.args(call)
	if len(args) != 1 || f.kind(args[0]) != "arrow_function" {
		return false
	}
	fn := args[0]
	if p := f.field(fn, "parameters"); p >= 0 && len(f.named(p)) > nargs+1 {
		return false // the command itself is handed in, and may be changed there
	}
	if x.cliTables == nil {
		x.cliTables = map[progKey]cliTable{}
	}
	x.cliTables[progKey{f: f, n: fn}] = t
	return true
}

// jsCommanderActionParam reads parameter b of a function handed to
// `.action(...)` of a commander program: ok is false when the function is
// not one, and the parameter is read as before.
func (x *extractor) jsCommanderActionParam(f *file, b binding) (jcv, bool) {
	fn := b.fn
	argsNode := f.parent(fn)
	if f.kind(fn) != "arrow_function" || f.kind(argsNode) != "arguments" {
		return jcv{}, false
	}
	call := f.parent(argsNode)
	callee := f.field(call, "function")
	if f.kind(call) != "call_expression" || f.kind(callee) != "member_expression" || f.text(f.field(callee, "property")) != "action" {
		return jcv{}, false
	}
	// The chain's root: the program, whose table reads every chain of it.
	root := f.field(callee, "object")
	nargs := 0
	seenCommand := false
	for i := 0; i < 256; i++ {
		if f.kind(root) != "call_expression" {
			break
		}
		c := f.field(root, "function")
		if f.kind(c) != "member_expression" {
			return jcv{}, false
		}
		if f.text(f.field(c, "property")) == "command" && !seenCommand {
			seenCommand = true
			if a := f.args(root); len(a) == 1 {
				if s, ok := f.stringValue(a[0]); ok {
					nargs = len(strings.Fields(s)) - 1
				}
			}
		}
		root = f.field(c, "object")
	}
	switch f.kind(root) {
	case "identifier":
		pb, ok := x.lookup(f, root, f.text(root))
		if !ok || !x.jsCommanderProgram(f, pb) {
			return jcv{}, false
		}
	case "member_expression":
		if _, ok := x.jsCommanderMemberOpts(f, root); !ok {
			return jcv{}, false
		}
	default:
		return jcv{}, false
	}
	if v, _ := x.jsCommanderOpts(f, root); !v.ok {
		return jUnknown(), true // the program is not one the rule reads
	}
	t, ok := x.cliTables[progKey{f: f, n: fn}]
	plain := b.decl == b.id || f.kind(b.decl) == "required_parameter" && f.field(b.decl, "pattern") == b.id && f.field(b.decl, "value") < 0
	if !ok || t == nil || b.index != nargs || !plain || x.jsBindingWritten(f, b) {
		return jUnknown(), true
	}
	tab := progKey{f: f, n: fn}
	return jcv{ok: true, k: 'P', f: tab.f, n: tab.n}, true
}

// jsCommanderMemberOpts reads `X.program` where X is bound to
// `require("commander")`: the program's options object, as jsCommanderOpts
// reads a name bound to it; ok is false when recv is not such a member.
func (x *extractor) jsCommanderMemberOpts(f *file, recv nid) (jcv, bool) {
	obj := f.field(recv, "object")
	if f.kind(obj) != "identifier" || f.text(f.field(recv, "property")) != "program" {
		return jcv{}, false
	}
	b, ok := x.lookup(f, obj, f.text(obj))
	if !ok || b.kind != bDecl || f.kind(b.decl) != "variable_declarator" || f.field(b.decl, "name") != b.id ||
		!strings.HasPrefix(f.text(f.parent(b.decl)), "const") {
		return jcv{}, false
	}
	if s, m, ok := x.jsModuleRef(f, f.field(b.decl, "value"), 0); !ok || s != "commander" || m != "" {
		return jcv{}, false
	}
	return x.cliTableAt(f, b.id, func() cliTable { return x.jsCommanderMemberTable(f, b) }), true
}

// jsCommanderMemberTable reads the options of `X.program` in file f (see
// the file comment), or nil when they are not known.
func (x *extractor) jsCommanderMemberTable(f *file, b binding) cliTable {
	return x.jsCommanderUses(f, b, func(n nid, t cliTable) bool {
		m := f.parent(n)
		if f.kind(m) != "member_expression" || f.field(m, "object") != n {
			return false // the module handed on: its program may be changed there
		}
		return f.text(f.field(m, "property")) != "program" || x.jsCommanderChain(f, m, t)
	})
}
