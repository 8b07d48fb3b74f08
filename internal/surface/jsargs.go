package surface

// Command-line options parsed with `yargs` and with node's
// `util.parseArgs` (methodology §5.2, Configuration of JavaScript and
// TypeScript servers, 2.3.10), read as jsoptions.go reads commander's: under
// the default configuration no flag is given, so an option holds the default
// the package declares for it, and nothing else.
//
//	const argv = yargs(hideBin(process.argv))
//	    .option("read-only", { type: "boolean", describe: "No writes" })  // argv.readOnly: undefined
//	    .options({ toolsets: { type: "string", default: "repos" } })      // argv.toolsets: "repos"
//	    .parse();
//	const { values } = parseArgs({ options: { mode: { type: "string", default: "read" } } });
//	                                                                      // values.mode: "read"
//
// yargs: the value of a chain rooted in a call of yargs' factory (`yargs`
// of "yargs" or "yargs/yargs", ESM or CommonJS, tsc's `(0, yargs_1.default)`)
// given `hideBin(process.argv)`, `process.argv.slice(2)` or nothing, whose
// every call is one of yargsMethods, ending in `.parse()`, `.parseSync()`,
// `.argv` or an awaited `.parseAsync()`, with no argument to the parse. An
// option is declared by `.option(key, {…})` or `.options({key: {…}, …})`
// with an object literal whose every member is one yargsOptionKeys lists;
// its value is its `default` (a string, number, boolean or null literal, or
// an array of them), else 0 for `type: "count"`, else undefined (a boolean
// with no default is undefined only from yargs 12, so it is read only when
// the package's own dependency admits no earlier yargs). A default put
// through `coerce` or `normalize`, a required option, a `config` option,
// `.env()`, `.config()`, `.middleware()`, `.command()`,
// `.parserConfiguration()` and any method not listed leave the options
// unknown. An option is reached under its key, its camel-cased form and its
// aliases, as yargs-parser sets them; a name declared twice, a key with a
// dot or beginning with `no-`, is not known.
//
// parseArgs: `parseArgs(config)` of "util" or "node:util", with an object
// literal whose members are `options` (an object literal of option objects
// with `type` "string" or "boolean", `short`, `multiple` and `default`),
// `strict`, `allowPositionals`, `allowNegative` and `tokens` as literals,
// and at most `args: process.argv.slice(2)`. Its `values.x` is x's
// `default`, else undefined (parseArgs sets nothing for an option not
// given); its `positionals` is an empty list.
//
// Each option read is recorded in the entry's configuration (`cli`, the
// flag, its default as written), as commander's are.

import (
	"strconv"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
)

// yargsMethods are the methods of a yargs instance that change nothing
// its parse holds when no flag is given; option and options declare.
var yargsMethods = map[string]bool{
	"option": true, "options": true, "help": true, "version": true, "usage": true,
	"example": true, "epilog": true, "epilogue": true, "scriptName": true, "wrap": true,
	"strict": true, "strictOptions": true, "showHelpOnFail": true, "exitProcess": true,
	"locale": true, "detectLocale": true, "updateStrings": true, "recommendCommands": true,
	"showHidden": true, "group": true, "hide": true, "conflicts": true, "implies": true,
}

// yargsOptionKeys are the members of an option object the rule reads:
// those marked true change nothing the option holds when it is not given.
var yargsOptionKeys = map[string]bool{
	"type": true, "default": true, "alias": true, "describe": true, "description": true,
	"desc": true, "choices": true, "hidden": true, "group": true, "global": true,
	"deprecated": true, "defaultDescription": true, "array": true, "nargs": true,
	"requiresArg": true, "conflicts": true, "implies": true, "boolean": true,
	"string": true, "number": true, "count": true, "demandOption": true, "demand": true,
	"required": true, "coerce": true, "normalize": true,
}

// jsModuleRef names what expression n refers to in another package:
// spec is the package ("yargs"), member the export ("" for what `require`
// returns, "default" for an ESM default import, else the name). ok is
// false when n is not such a reference, read through names bound once.
func (x *extractor) jsModuleRef(f *file, n nid, depth int) (spec, member string, ok bool) {
	if n < 0 || depth > 8 || !x.step() {
		return "", "", false
	}
	switch f.kind(n) {
	case "parenthesized_expression":
		return x.jsModuleRef(f, constInner(f, n), depth+1)
	case "sequence_expression": // tsc's (0, m.f)
		ch := f.named(n)
		if len(ch) != 2 || f.kind(ch[0]) != "number" {
			return "", "", false
		}
		return x.jsModuleRef(f, ch[1], depth+1)
	case "call_expression":
		callee := f.field(n, "function")
		args := f.args(n)
		if len(args) != 1 {
			return "", "", false
		}
		switch f.text(callee) {
		case "require":
			if _, bound := x.lookup(f, callee, "require"); bound || f.kind(args[0]) != "string" {
				return "", "", false
			}
			s, ok := f.stringValue(args[0])
			if !ok || x.resolveModule(f, s) != nil {
				return "", "", false
			}
			return s, "", true
		case "__importDefault", "__importStar":
			s, m, ok := x.jsModuleRef(f, args[0], depth+1)
			if !ok || m != "" {
				return "", "", false
			}
			return s, "#wrap", true
		}
		return "", "", false
	case "member_expression":
		s, m, ok := x.jsModuleRef(f, f.field(n, "object"), depth+1)
		if !ok || strings.Contains(f.text(n), "?.") {
			return "", "", false
		}
		prop := f.text(f.field(n, "property"))
		switch m {
		case "", "default":
			return s, prop, true
		case "#wrap", "*":
			if prop == "default" {
				return s, "", true
			}
			return s, prop, true
		}
		return "", "", false
	case "identifier":
		b, ok := x.lookup(f, n, f.text(n))
		if !ok {
			return "", "", false
		}
		switch b.kind {
		case bImport:
			stmt := b.decl
			for stmt >= 0 && f.kind(stmt) != "import_statement" {
				stmt = f.parent(stmt)
			}
			if stmt < 0 {
				return "", "", false
			}
			s, ok := f.stringValue(f.field(stmt, "source"))
			if !ok || x.resolveModule(f, s) != nil {
				return "", "", false
			}
			switch f.kind(b.decl) {
			case "identifier":
				return s, "default", true
			case "namespace_import":
				return s, "*", true
			case "import_specifier":
				return s, exportSpecName(f, f.field(b.decl, "name")), true
			}
			return "", "", false
		case bDecl:
			d := b.decl
			if f.kind(d) != "variable_declarator" || x.jsBindingWritten(f, b) {
				return "", "", false
			}
			v := f.field(d, "value")
			name := f.field(d, "name")
			if name == b.id {
				return x.jsModuleRef(f, v, depth+1)
			}
			if f.kind(name) != "object_pattern" {
				return "", "", false
			}
			key := patternKey(f, name, b.id)
			if key == "" {
				return "", "", false
			}
			s, m, ok := x.jsModuleRef(f, v, depth+1)
			if !ok || m != "" && m != "default" && m != "#wrap" && m != "*" {
				return "", "", false
			}
			return s, key, true
		}
	}
	return "", "", false
}

// patternKey is the key identifier id is bound to in object pattern p, one
// level deep (`{ values }`, `{ values: v }`); "" otherwise.
func patternKey(f *file, p, id nid) string {
	for _, c := range f.named(p) {
		switch f.kind(c) {
		case "shorthand_property_identifier_pattern":
			if c == id {
				return f.text(c)
			}
		case "pair_pattern":
			if f.field(c, "value") == id {
				return propKeyName(f, f.field(c, "key"))
			}
		}
	}
	return ""
}

// jsArgsCall reads call n when it is the end of a yargs chain or a call of
// parseArgs: ok is false when it is neither, and the call is read as before.
func (x *extractor) jsArgsCall(f *file, n nid, awaited bool) (jcv, bool) {
	callee := f.field(n, "function")
	if f.kind(callee) == "member_expression" {
		switch f.text(f.field(callee, "property")) {
		case "parse", "parseSync", "parseAsync":
			if !x.jsYargsRooted(f, f.field(callee, "object")) {
				return jcv{}, false
			}
			if len(f.args(n)) != 0 || f.text(f.field(callee, "property")) == "parseAsync" && !awaited {
				return jUnknown(), true
			}
			return x.jsYargsOptions(f, n, f.field(callee, "object")), true
		}
	}
	if !strings.HasSuffix(f.text(callee), "parseArgs") {
		return jcv{}, false
	}
	if s, m, ok := x.jsModuleRef(f, callee, 0); ok && (s == "util" || s == "node:util") && m == "parseArgs" {
		return x.jsParseArgs(f, n), true
	}
	return jcv{}, false
}

// jsArgsMember reads `chain.argv` when chain is a yargs chain.
func (x *extractor) jsArgsMember(f *file, n nid) (jcv, bool) {
	if f.kind(n) != "member_expression" || f.text(f.field(n, "property")) != "argv" {
		return jcv{}, false
	}
	obj := f.field(n, "object")
	if !x.jsYargsRooted(f, obj) {
		return jcv{}, false
	}
	return x.jsYargsOptions(f, n, obj), true
}

// jsArgsAwait reads `await v` where v is one of the values above, which are
// not promises (an awaited parseAsync is the options it resolves to).
func (x *extractor) jsArgsAwait(f *file, n nid) (jcv, bool) {
	in := f.named(n)
	if len(in) != 1 {
		return jcv{}, false
	}
	v := in[0]
	for f.kind(v) == "parenthesized_expression" {
		v = constInner(f, v)
	}
	switch f.kind(v) {
	case "call_expression":
		return x.jsArgsCall(f, v, true)
	case "member_expression":
		return x.jsArgsMember(f, v)
	}
	return jcv{}, false
}

// jsArgsDestructured reads a name bound by `const { values } = parseArgs(...)`
// (one level of object destructuring of a value read above).
func (x *extractor) jsArgsDestructured(f *file, b binding) (jcv, bool) {
	d := b.decl
	if b.kind != bDecl || f.kind(d) != "variable_declarator" || f.kind(f.field(d, "name")) != "object_pattern" {
		return jcv{}, false
	}
	v := f.field(d, "value")
	var obj jcv
	var ok bool
	switch f.kind(v) {
	case "call_expression":
		obj, ok = x.jsArgsCall(f, v, false)
	case "await_expression":
		obj, ok = x.jsArgsAwait(f, v)
	case "member_expression":
		obj, ok = x.jsArgsMember(f, v)
	}
	if !ok {
		return jcv{}, false
	}
	if !obj.ok || obj.k != 'P' || x.jsBindingWritten(f, b) {
		return jUnknown(), true
	}
	key := patternKey(f, f.field(d, "name"), b.id)
	if key == "" {
		return jUnknown(), true
	}
	return x.jsCommanderKey(f, b.id, obj, key), true
}

// jsYargsRooted reports whether the chain under n starts in a call of
// yargs' factory: the chain is then read by the rule or not at all.
func (x *extractor) jsYargsRooted(f *file, n nid) bool {
	for i := 0; n >= 0 && i < 256; i++ {
		switch f.kind(n) {
		case "call_expression":
			callee := f.field(n, "function")
			if f.kind(callee) == "member_expression" {
				n = f.field(callee, "object")
				continue
			}
			return x.jsYargsFactory(f, callee)
		case "member_expression":
			n = f.field(n, "object")
		case "parenthesized_expression":
			n = constInner(f, n)
		default:
			return false
		}
	}
	return false
}

func (x *extractor) jsYargsFactory(f *file, callee nid) bool {
	s, m, ok := x.jsModuleRef(f, callee, 0)
	return ok && (s == "yargs" || s == "yargs/yargs") && (m == "" || m == "default")
}

// jsYargsOptions reads the options of the chain ending at end, whose
// object is obj; the table is cached per end.
func (x *extractor) jsYargsOptions(f *file, end, obj nid) jcv {
	return x.cliTableAt(f, end, func() cliTable { return x.jsYargsTable(f, obj) })
}

// cliTableAt is the parsed options whose table read builds at node n of f,
// cached per node: a value the tests read (k 'P'), or unknown when read
// gives no table.
func (x *extractor) cliTableAt(f *file, n nid, read func() cliTable) jcv {
	if x.cliTables == nil {
		x.cliTables = map[progKey]cliTable{}
	}
	key := progKey{f: f, n: n}
	t, seen := x.cliTables[key]
	if !seen {
		t = read()
		x.cliTables[key] = t
	}
	if t == nil {
		return jUnknown()
	}
	return jcv{ok: true, k: 'P', f: f, n: n}
}

// jsYargsTable reads the chain of calls under n down to the factory's call.
func (x *extractor) jsYargsTable(f *file, n nid) cliTable {
	t := cliTable{}
	boolKnown := x.jsYargsUnsetBoolean()
	for i := 0; ; i++ {
		if i > 256 || !x.step() {
			return nil
		}
		if f.kind(n) != "call_expression" {
			return nil
		}
		callee := f.field(n, "function")
		args := f.args(n)
		if f.kind(callee) != "member_expression" {
			// the factory: given the command line or nothing
			if len(args) > 1 || len(args) == 1 && !x.jsProcessArgs(f, args[0]) {
				return nil
			}
			return t
		}
		method := f.text(f.field(callee, "property"))
		if !yargsMethods[method] || strings.Contains(f.text(callee), "?.") {
			return nil
		}
		switch method {
		case "option", "options":
			switch {
			case len(args) == 2:
				k, ok := f.stringValue(args[0])
				if !ok || f.kind(args[0]) != "string" || !x.jsYargsOption(f, k, args[1], t, boolKnown) {
					return nil
				}
			case len(args) == 1 && f.kind(args[0]) == "object":
				for _, c := range f.named(args[0]) {
					if f.kind(c) == "comment" {
						continue
					}
					if f.kind(c) != "pair" || f.kind(f.field(c, "key")) == "computed_property_name" {
						return nil
					}
					k := propKeyName(f, f.field(c, "key"))
					if k == "" || !x.jsYargsOption(f, k, f.field(c, "value"), t, boolKnown) {
						return nil
					}
				}
			default:
				return nil
			}
		}
		n = f.field(callee, "object")
	}
}

// jsProcessArgs reports whether n is the command line without node and the
// script: `hideBin(process.argv)` of "yargs/helpers", or
// `process.argv.slice(2)`.
func (x *extractor) jsProcessArgs(f *file, n nid) bool {
	if f.kind(n) != "call_expression" {
		return false
	}
	callee := f.field(n, "function")
	args := f.args(n)
	if s, m, ok := x.jsModuleRef(f, callee, 0); ok && s == "yargs/helpers" && m == "hideBin" {
		return len(args) == 1 && x.jsIsProcessArgv(f, args[0])
	}
	if f.kind(callee) == "member_expression" && f.text(f.field(callee, "property")) == "slice" && len(args) == 1 && f.text(args[0]) == "2" {
		return x.jsIsProcessArgv(f, f.field(callee, "object"))
	}
	return false
}

func (x *extractor) jsIsProcessArgv(f *file, n nid) bool {
	if f.kind(n) != "member_expression" || f.text(f.field(n, "property")) != "argv" {
		return false
	}
	obj := f.field(n, "object")
	if f.kind(obj) == "identifier" && f.text(obj) == "process" {
		_, bound := x.lookup(f, obj, "process")
		return !bound
	}
	return x.jsProcessModule(f, obj)
}

// jsYargsUnsetBoolean reports whether a boolean option with no default is
// undefined under every yargs the package admits: from yargs 12 the parser
// sets nothing for it, before it set false.
func (x *extractor) jsYargsUnsetBoolean() bool {
	if x.pkg == nil {
		return false
	}
	r, ok := x.pkg.Dependencies["yargs"]
	if !ok {
		return false
	}
	major, ok := npmRangeMinMajor(r)
	return ok && major >= 12
}

// npmRangeMinMajor is the lowest major version an npm range of one
// comparator admits: `^17.7.2`, `~17.1`, `>=17`, `17.x`, `17.7.2`.
func npmRangeMinMajor(r string) (int, bool) {
	r = strings.TrimSpace(r)
	if strings.ContainsAny(r, " |<*") {
		return 0, false
	}
	r = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(r, "^"), "~"), ">=")
	r = strings.TrimPrefix(r, "v")
	head, _, _ := strings.Cut(r, ".")
	m, err := strconv.Atoi(head)
	if err != nil || m < 0 {
		return 0, false
	}
	return m, true
}

// jsYargsOption reads one option object into t.
func (x *extractor) jsYargsOption(f *file, key string, obj nid, t cliTable, boolKnown bool) bool {
	if f.kind(obj) != "object" || key == "" || strings.Contains(key, ".") || strings.HasPrefix(key, "no-") {
		return false
	}
	members := map[string]nid{}
	for _, c := range f.named(obj) {
		if f.kind(c) == "comment" {
			continue
		}
		if f.kind(c) != "pair" || f.kind(f.field(c, "key")) == "computed_property_name" {
			return false
		}
		k := propKeyName(f, f.field(c, "key"))
		if !yargsOptionKeys[k] {
			return false
		}
		if _, dup := members[k]; dup {
			return false
		}
		members[k] = f.field(c, "value")
	}
	for _, k := range []string{"demandOption", "demand", "required"} {
		if v, ok := members[k]; ok && f.kind(v) != "false" {
			return false // with no flag given, yargs stops: the server does not start this way
		}
	}
	typ := ""
	if v, ok := members["type"]; ok {
		s, ok := f.stringValue(v)
		if !ok || f.kind(v) != "string" {
			return false
		}
		typ = s
	}
	for _, k := range []string{"boolean", "string", "number", "count", "array"} {
		if v, ok := members[k]; ok {
			if f.kind(v) != "true" && f.kind(v) != "false" {
				return false
			}
			if f.kind(v) == "true" && k != "array" {
				if typ != "" && typ != k {
					return false
				}
				typ = k
			}
		}
	}
	o := &cliOption{flag: "--" + key, def: jUndef(), text: "undefined", file: f.path, line: f.lineOf(obj)}
	_, coerced := members["coerce"]
	_, normal := members["normalize"]
	if d, ok := members["default"]; ok {
		switch {
		case coerced || normal:
			o.def = jUnknown() // the default goes through a function of the package or of node
		case yargsLiteral(f, d):
			o.def, o.text = x.jsCond(f, d, nil, 0), f.text(d)
			if typ == "number" && !o.def.isNumber() || typ == "count" {
				o.def = jUnknown() // a default yargs may convert
			}
		default:
			o.def = jUnknown()
		}
	} else {
		switch typ {
		case "count":
			o.def, o.text = jNum(0), "0"
		case "boolean":
			if !boolKnown {
				o.def = jUnknown()
			}
		case "", "string", "number", "array":
		default:
			return false
		}
		if coerced {
			o.def = jUnknown()
		}
	}
	names := []string{key}
	if a, ok := members["alias"]; ok {
		switch f.kind(a) {
		case "string":
			s, _ := f.stringValue(a)
			names = append(names, s)
		case "array":
			for _, c := range f.named(a) {
				s, ok := f.stringValue(c)
				if !ok || f.kind(c) != "string" {
					return false
				}
				names = append(names, s)
			}
		default:
			return false
		}
	}
	for _, nm := range append([]string(nil), names...) {
		if strings.Contains(nm, "-") {
			c := commanderCamel(nm)
			if c == "" {
				return false
			}
			names = append(names, c)
		}
	}
	for _, nm := range names {
		if nm == "" || strings.Contains(nm, ".") {
			return false
		}
		if prev, dup := t[nm]; dup {
			prev.twice = true
			continue
		}
		t[nm] = o
	}
	return true
}

// yargsLiteral reports whether d is a literal default: a string, number,
// boolean or null, or an array of those.
func yargsLiteral(f *file, d nid) bool {
	switch f.kind(d) {
	case "string", "number", "true", "false", "null":
		return true
	case "array":
		for _, c := range f.named(d) {
			switch f.kind(c) {
			case "string", "number", "true", "false", "null":
			default:
				return false
			}
		}
		return true
	}
	return false
}

// jsParseArgs reads `parseArgs(config)` (see the file comment).
func (x *extractor) jsParseArgs(f *file, call nid) jcv {
	return x.cliTableAt(f, call, func() cliTable { return x.jsParseArgsTable(f, call) })
}

func (x *extractor) jsParseArgsTable(f *file, call nid) cliTable {
	args := f.args(call)
	if len(args) != 1 || f.kind(args[0]) != "object" {
		return nil
	}
	var opts nid = none
	for _, c := range f.named(args[0]) {
		if f.kind(c) == "comment" {
			continue
		}
		if f.kind(c) != "pair" || f.kind(f.field(c, "key")) == "computed_property_name" {
			return nil
		}
		v := f.field(c, "value")
		switch propKeyName(f, f.field(c, "key")) {
		case "options":
			if f.kind(v) != "object" {
				return nil
			}
			opts = v
		case "args":
			if !x.jsProcessArgs(f, v) {
				return nil
			}
		case "strict", "allowPositionals", "allowNegative", "tokens":
			if f.kind(v) != "true" && f.kind(v) != "false" {
				return nil
			}
		default:
			return nil
		}
	}
	values := cliTable{}
	if opts >= 0 {
		for _, c := range f.named(opts) {
			if f.kind(c) == "comment" {
				continue
			}
			if f.kind(c) != "pair" || f.kind(f.field(c, "key")) == "computed_property_name" {
				return nil
			}
			name := propKeyName(f, f.field(c, "key"))
			o := x.jsParseArgsOption(f, name, f.field(c, "value"))
			if o == nil {
				return nil
			}
			values[name] = o
		}
	}
	x.cliTables[progKey{f: f, n: args[0]}] = values
	return cliTable{
		"values":      {def: jcv{ok: true, k: 'P', f: f, n: args[0]}},
		"positionals": {def: jcv{ok: true, k: 'a'}},
	}
}

// jsParseArgsOption reads one option of parseArgs: nil when it is not one
// the rule reads.
func (x *extractor) jsParseArgsOption(f *file, name string, obj nid) *cliOption {
	if name == "" || f.kind(obj) != "object" {
		return nil
	}
	typ, multiple := "", false
	o := &cliOption{flag: "--" + name, def: jUndef(), text: "undefined", file: f.path, line: f.lineOf(obj)}
	def := none
	for _, c := range f.named(obj) {
		if f.kind(c) == "comment" {
			continue
		}
		if f.kind(c) != "pair" || f.kind(f.field(c, "key")) == "computed_property_name" {
			return nil
		}
		v := f.field(c, "value")
		switch propKeyName(f, f.field(c, "key")) {
		case "type":
			s, ok := f.stringValue(v)
			if !ok || f.kind(v) != "string" || s != "string" && s != "boolean" {
				return nil
			}
			typ = s
		case "short":
			if f.kind(v) != "string" {
				return nil
			}
		case "multiple":
			if f.kind(v) != "true" && f.kind(v) != "false" {
				return nil
			}
			multiple = f.kind(v) == "true"
		case "default":
			def = v
		default:
			return nil
		}
	}
	if typ == "" {
		return nil // parseArgs throws without a type
	}
	if def >= 0 && !yargsLiteral(f, def) {
		o.def = jUnknown() // computed: only this option is not known
		return o
	}
	if def >= 0 {
		want := map[string]string{"string": "string", "boolean": "true false"}[typ]
		ok := false
		if multiple {
			ok = f.kind(def) == "array"
			for _, c := range f.named(def) {
				ok = ok && strings.Contains(want, f.kind(c))
			}
		} else {
			ok = strings.Contains(want, f.kind(def))
		}
		if !ok {
			return nil // parseArgs throws on a default of another type
		}
		o.def, o.text = x.jsCond(f, def, nil, 0), f.text(def)
	}
	return o
}

// noteCLI records an option read, unless the entry is a value of the
// parse's result that no flag sets (parseArgs' `values`).
func (x *extractor) noteCLI(f *file, n nid, o *cliOption) {
	if o.flag == "" {
		return
	}
	x.noteConfig(rundir.ConfigRead{Source: "cli", Name: o.flag, Default: o.text, File: f.path, Line: f.lineOf(n)})
}
