package surface

// Command-line options of a Typer application (methodology §5.2,
// Configuration): a server started with no arguments gives each parameter of
// its one Typer command the default the command's signature declares, as
// click's options (pyconfig.go) and argparse's are read.
//
// The reading is made only where it is exact:
//
//   - the function carries one decorator, `@A.command()`, where A is a
//     module-level name bound once to `typer.Typer(...)` with keyword
//     arguments that change no parameter's value (help texts, completion and
//     exception settings; not context_settings, callback, no_args_is_help);
//   - A is used nowhere in the package but in that decorator and in calls
//     `A()` with no arguments (Typer then parses the process's own
//     arguments), through its own module or an import of it: a second
//     command, a callback, a sub-application, a call with args= all leave
//     the command unread;
//   - a console script of pyproject.toml runs A: it names A itself, or a
//     function whose body calls A();
//   - each parameter read has a literal default that Typer passes on
//     unchanged: a bool for a bool, a str for a str (or no annotation), an
//     int for an int, None for an optional str or int, written as the
//     parameter's default or as the default of typer.Option(...) /
//     typer.Argument(...) with only help, envvar and display settings.
//
// Anything else (no default, `...`, Annotated, an Enum or a list, a
// callback, a parser, a default factory, a prompt) is unknown, as before.

import (
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// pyTyperAppKwargs are the keyword arguments of typer.Typer(...) that
// change no value a command's parameters receive when no argument is given.
var pyTyperAppKwargs = map[string]bool{"name": true, "help": true, "short_help": true, "epilog": true,
	"add_completion": true, "rich_markup_mode": true, "pretty_exceptions_enable": true,
	"pretty_exceptions_show_locals": true, "pretty_exceptions_short": true, "add_help_option": true,
	"hidden": true, "deprecated": true, "rich_help_panel": true, "suggest_commands": true}

// pyTyperCommandKwargs are those of A.command(...).
var pyTyperCommandKwargs = map[string]bool{"name": true, "help": true, "short_help": true, "epilog": true,
	"hidden": true, "deprecated": true, "rich_help_panel": true, "add_help_option": true, "options_metavar": true}

// pyTyperParamKwargs are those of typer.Option(...) / typer.Argument(...)
// that leave the default as written (envvar is read as unset).
var pyTyperParamKwargs = map[string]bool{"default": true, "help": true, "envvar": true, "show_default": true,
	"show_envvar": true, "show_choices": true, "metavar": true, "rich_help_panel": true, "hidden": true}

// pyTyperFrame binds the parameters of the one command of a Typer
// application to their defaults under a start with no arguments: each
// parameter is a thunk read by pyTyperDefault. ok is false unless the
// command and its application are of the form the file comment states.
func (x *extractor) pyTyperFrame(s scopeRef) (env, bool) {
	f, def := s.f, s.n
	if x.pyTyperCmds == nil {
		x.pyTyperCmds = map[scopeRef]bool{}
	}
	ok, seen := x.pyTyperCmds[s]
	if !seen {
		ok = x.pyTyperCommand(f, def)
		x.pyTyperCmds[s] = ok
	}
	if !ok {
		return env{}, false
	}
	var args []thunk
	for _, p := range f.named(f.field(def, "parameters")) {
		switch f.kind(p) {
		case "keyword_separator", "positional_separator":
			continue
		case "list_splat_pattern", "dictionary_splat_pattern":
			return env{}, false
		}
		name := pyParamName(f, p)
		if name == "" {
			return env{}, false
		}
		p := p
		args = append(args, thunk{name: name, read: func() val { return x.pyTyperDefault(f, p) }})
	}
	return env{scope: s, args: args}, true
}

// pyTyperCommand reports whether def is the one command of a Typer
// application that a console script runs with the process's own arguments.
func (x *extractor) pyTyperCommand(f *file, def nid) bool {
	if f.pyFacts == nil || !f.runnable() || !x.pyScripts.known {
		return false
	}
	var decs []nid
	for _, d := range f.named(f.parent(def)) {
		if f.kind(d) == "decorator" {
			decs = append(decs, d)
		}
	}
	if len(decs) != 1 {
		return false
	}
	ch := f.named(decs[0])
	if len(ch) != 1 || f.kind(ch[0]) != "call" {
		return false
	}
	call := ch[0]
	callee := f.field(call, "function")
	if f.kind(callee) != "attribute" || f.text(f.field(callee, "attribute")) != "command" {
		return false
	}
	obj := f.field(callee, "object")
	if f.kind(obj) != "identifier" || !x.pyOnlyKwargs(f, call, pyTyperCommandKwargs) {
		return false
	}
	app := f.text(obj)
	if _, scope, ok := x.pyLookup(f, obj, app); !ok || scope != 0 {
		return false
	}
	decls := f.pyFacts.scopeDecls(f, 0)[app]
	if len(decls) != 1 || f.kind(decls[0]) != "assignment" || x.pyRebound(f, obj, app) {
		return false
	}
	asg := decls[0]
	right := f.field(asg, "right")
	if f.kind(right) != "call" || f.kind(f.field(asg, "left")) != "identifier" || f.parent(f.parent(asg)) != 0 {
		return false
	}
	if cv := x.eval(f, f.field(right, "function"), nil); cv.k != vExternal || cv.spec != "typer.Typer" || !x.pyOnlyKwargs(f, right, pyTyperAppKwargs) {
		return false
	}
	// Every use of the application in the package.
	if !x.pyTyperUses(f, app, f.field(asg, "left"), obj, "") {
		return false
	}
	aliases := map[*file][]string{f: {app}}
	for _, g := range x.files {
		if g == f || g.pyFacts == nil || !g.runnable() {
			continue
		}
		for _, st := range g.ofKind(pkImportFromStatement) {
			if x.pyResolveModule(g, g.text(g.field(st, "module_name"))) != f {
				continue
			}
			if g.hasChildKind(st, "wildcard_import") {
				return false
			}
			for _, n := range g.fieldAll(st, "name") {
				imported, local := g.text(n), g.text(n)
				if g.kind(n) == "aliased_import" {
					imported, local = g.text(g.field(n, "name")), g.text(g.field(n, "alias"))
				}
				if imported != app {
					continue
				}
				if !x.pyTyperUses(g, local, none, none, "import") {
					return false
				}
				aliases[g] = append(aliases[g], local)
			}
		}
		// server.app through a module object: not followed.
		for _, a := range g.ofKind(pkAttribute) {
			if g.text(g.field(a, "attribute")) == app {
				if o := x.eval(g, g.field(a, "object"), nil); o.k == vModule && o.f == f {
					return false
				}
			}
		}
	}
	// A console script runs it.
	for i, m := range x.pyScripts.modules {
		g := x.pyResolveModule(f, m)
		if g == nil {
			continue
		}
		fn := x.pyScripts.funcs[i]
		for _, local := range aliases[g] {
			if fn == local {
				return true
			}
		}
		for _, d := range g.pyFacts.scopeDecls(g, 0)[fn] {
			if g.kind(d) == "function_definition" && x.pyCallsNoArgs(g, g.field(d, "body"), aliases[g]) {
				return true
			}
		}
	}
	return false
}

// pyOnlyKwargs reports whether every argument of call is a keyword argument
// of allowed.
func (x *extractor) pyOnlyKwargs(f *file, call nid, allowed map[string]bool) bool {
	for _, a := range f.named(f.field(call, "arguments")) {
		if f.kind(a) != "keyword_argument" || !allowed[f.text(f.field(a, "name"))] {
			return false
		}
	}
	return true
}

// pyTyperUses reports whether every module-level use of name in f is the
// binding at decl, the decorator object at dec, a call name() with no
// arguments, or (how == "import") the import that binds it.
func (x *extractor) pyTyperUses(f *file, name string, decl, dec nid, how string) bool {
	for _, n := range f.ofKind(pkIdentifier) {
		if f.text(n) != name || n == decl || n == dec {
			continue
		}
		p := f.parent(n)
		switch f.kind(p) {
		case "attribute":
			if f.field(p, "attribute") == n {
				continue // another object's attribute of that spelling
			}
		case "keyword_argument":
			if f.field(p, "name") == n {
				continue
			}
		case "dotted_name", "aliased_import":
			if how == "import" {
				continue
			}
		}
		if _, scope, ok := x.pyLookup(f, n, name); !ok || scope != 0 {
			continue // a local binding of the same spelling
		}
		if f.kind(p) == "call" && f.field(p, "function") == n && len(f.named(f.field(p, "arguments"))) == 0 {
			continue
		}
		return false
	}
	return true
}

// pyCallsNoArgs reports whether body holds a call N() with no arguments of
// one of names.
func (x *extractor) pyCallsNoArgs(f *file, body nid, names []string) bool {
	found := false
	f.walk(body, func(n nid) bool {
		if found {
			return false
		}
		if f.kind(n) == "call" {
			fn := f.field(n, "function")
			if f.kind(fn) == "identifier" && len(f.named(f.field(n, "arguments"))) == 0 {
				for _, nm := range names {
					if f.text(fn) == nm {
						found = true
					}
				}
			}
		}
		return true
	})
	return found
}

// pyTyperDefault is the value Typer gives parameter p of a command started
// with no arguments, recorded as a read of the command line (and of its
// envvar, unset); unknown where it is not exact.
func (x *extractor) pyTyperDefault(f *file, p nid) val {
	name := pyParamName(f, p)
	opt := "--" + strings.ReplaceAll(name, "_", "-")
	if k := f.kind(p); k != "default_parameter" && k != "typed_default_parameter" {
		return unknown("command-line option " + opt + " of a Typer command has no default")
	}
	ann := ""
	if t := f.field(p, "type"); t >= 0 {
		ann = strings.Join(strings.Fields(f.text(t)), " ")
	}
	if strings.HasPrefix(ann, "Annotated[") || strings.HasPrefix(ann, "typing.Annotated[") {
		return unknown("command-line option " + opt + " of a Typer command declared with Annotated is not read")
	}
	d := f.field(p, "value")
	line := f.lineOf(p)
	if f.kind(d) == "call" {
		cv := x.eval(f, f.field(d, "function"), nil)
		if cv.k != vExternal || cv.spec != "typer.Option" && cv.spec != "typer.Argument" {
			return unknown("command-line option " + opt + " of a Typer command has a computed default")
		}
		def, named := none, false
		for i, a := range f.named(f.field(d, "arguments")) {
			switch {
			case f.kind(a) == "keyword_argument":
				k := f.text(f.field(a, "name"))
				if !pyTyperParamKwargs[k] {
					return unknown("command-line option " + opt + " of a Typer command is read with " + k + "=")
				}
				if k == "default" {
					def = f.field(a, "value")
				}
				if k == "envvar" {
					ev, ok := plainText(x.eval(f, f.field(a, "value"), nil))
					if !ok {
						return unknown("command-line option " + opt + " read from an environment variable whose name is not a literal")
					}
					x.noteConfig(rundir.ConfigRead{Source: "env", Name: ev, Default: "unset", File: f.path, Line: line})
				}
			case i == 0:
				def = a
			default:
				s, ok := plainText(x.eval(f, a, nil))
				if !ok || !strings.HasPrefix(s, "-") {
					return unknown("command-line option " + opt + " of a Typer command with declarations that are not literals")
				}
				if !named && strings.HasPrefix(s, "--") {
					opt, _, _ = strings.Cut(s, "/") // the option as the package spells it
					named = true
				}
			}
		}
		d = def
	}
	v, rep, ok := pyTyperLiteral(f, d, ann)
	if !ok {
		return unknown("command-line option " + opt + " of a Typer command with a default Typer may convert (" + truncate(f.text(d), 40) + ")")
	}
	x.noteConfig(rundir.ConfigRead{Source: "cli", Name: opt, Default: rep, File: f.path, Line: line})
	return v
}

// pyTyperLiteral reads a default Typer passes on unchanged for annotation
// ann: its value and its Python spelling.
func pyTyperLiteral(f *file, d nid, ann string) (val, string, bool) {
	optional := func(t string) bool {
		return ann == "Optional["+t+"]" || ann == "typing.Optional["+t+"]" || ann == t+" | None" || ann == "None | "+t
	}
	switch f.kind(d) {
	case "true", "false":
		if ann == "bool" || optional("bool") {
			b := f.kind(d) == "true"
			rep := "False"
			if b {
				rep = "True"
			}
			return val{k: vBool, boolv: b}, rep, true
		}
	case "string":
		if ann == "" || ann == "str" || optional("str") {
			v := pyStringText(f, d)
			if t, ok := plainText(v); ok {
				return v, cstr(t).repr(), true
			}
		}
	case "integer":
		if ann == "int" || optional("int") {
			return val{k: vNumber, f: f, n: d}, f.text(d), true
		}
	case "none":
		if optional("str") || optional("int") {
			return val{k: vNull}, "None", true
		}
	}
	return val{}, "", false
}
