package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// condHoldsPkg is condHolds with the package's own package.json (its
// dependencies decide what yargs sets for an unset boolean).
func condHoldsPkg(t *testing.T, pkg, decls, test string) string {
	t.Helper()
	files := map[string]string{
		"package.json": pkg,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" +
			decls + "\nif (" + test + ") {\n  server.tool('t', 'A tool.', {}, async () => ({}));\n}\n",
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	if len(s.Tools) != 1 || len(s.Tools[0].Conditions) != 1 {
		t.Fatalf("tools %+v, want one with one condition", s.Tools)
	}
	return s.Tools[0].Conditions[0].Holds
}

// Each yargs form is decided, or left unknown, as jsargs.go says.
func TestYargsOptions(t *testing.T) {
	const pkg = `{"name":"t","version":"1.0.0","main":"index.js","dependencies":{"yargs":"^17.7.2"}}`
	const imp = "import yargs from 'yargs';\nimport { hideBin } from 'yargs/helpers';\n"
	cases := []struct{ name, pkg, decls, test, want string }{
		{"a string default", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('mode', { type: 'string', default: 'read' }).parse();", "argv.mode === 'read'", rundir.HoldsTrue},
		{"options object", pkg, imp + "const argv = yargs(hideBin(process.argv)).options({ mode: { type: 'string', default: 'read' }, extra: { type: 'string' } }).parseSync();", "argv.extra", rundir.HoldsFalse},
		{"camel-cased key", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('read-only', { type: 'boolean', default: true }).parse();", "argv.readOnly", rundir.HoldsTrue},
		{"kebab key by subscript", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('read-only', { type: 'boolean', default: true }).parse();", "argv['read-only']", rundir.HoldsTrue},
		{"an alias", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('toolsets', { alias: 't', default: 'a' }).parse();", "argv.t === 'a'", rundir.HoldsTrue},
		{"the argv property", pkg, imp + "const argv = yargs(process.argv.slice(2)).option('x', { type: 'string' }).argv;", "argv.x", rundir.HoldsFalse},
		{"awaited parseAsync", pkg, imp + "const argv = await yargs(hideBin(process.argv)).option('x', { default: 'on' }).help().parseAsync();", "argv.x === 'on'", rundir.HoldsTrue},
		{"parseAsync not awaited", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: 'on' }).parseAsync();", "argv.x === 'on'", rundir.HoldsUnknown},
		{"a count", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('v', { type: 'count' }).parse();", "argv.v === 0", rundir.HoldsTrue},
		{"a boolean, yargs 17", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('write', { type: 'boolean' }).parse();", "argv.write === undefined", rundir.HoldsTrue},
		{"a boolean, yargs 11", `{"name":"t","dependencies":{"yargs":"^11.0.0"}}`, imp + "const argv = yargs(hideBin(process.argv)).option('write', { type: 'boolean' }).parse();", "argv.write === undefined", rundir.HoldsUnknown},
		{"a boolean, no dependency", `{"name":"t"}`, imp + "const argv = yargs(hideBin(process.argv)).option('write', { type: 'boolean' }).parse();", "argv.write", rundir.HoldsUnknown},
		{"CommonJS as tsc writes it", pkg, "const yargs_1 = __importDefault(require('yargs'));\nconst helpers_1 = require('yargs/helpers');\nconst argv = (0, yargs_1.default)((0, helpers_1.hideBin)(process.argv)).option('mode', { default: 'read' }).parseSync();", "argv.mode === 'read'", rundir.HoldsTrue},
		{"require of yargs", pkg, "const yargs = require('yargs');\nconst argv = yargs(process.argv.slice(2)).option('mode', { default: 'read' }).argv;", "argv.mode === 'write'", rundir.HoldsFalse},
		{"a coerced default", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('m', { default: 'a', coerce: (v) => v.toUpperCase() }).parse();", "argv.m === 'a'", rundir.HoldsUnknown},
		{"a required option", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('db', { demandOption: true }).option('x', { default: 'a' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"env", pkg, imp + "const argv = yargs(hideBin(process.argv)).env('APP').option('x', { default: 'a' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"a command", pkg, imp + "const argv = yargs(hideBin(process.argv)).command('serve', 'Serve').option('x', { default: 'a' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"a computed default", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: process.env.X }).parse();", "argv.x", rundir.HoldsUnknown},
		{"a key declared twice", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: 'a' }).option('x', { default: 'b' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"another member", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: 'a', env: 'X' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"other arguments", pkg, imp + "const argv = yargs(['--x', 'b']).option('x', { default: 'a' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"parse given arguments", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: 'a' }).parse(['--x', 'b']);", "argv.x", rundir.HoldsUnknown},
		{"not yargs", pkg, "import yargs from 'other-args';\nconst argv = yargs(process.argv.slice(2)).option('x', { default: 'a' }).parse();", "argv.x", rundir.HoldsUnknown},
		{"a key no option declares", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('x', { default: 'a' }).parse();", "argv.y", rundir.HoldsUnknown},
		{"a negated key", pkg, imp + "const argv = yargs(hideBin(process.argv)).option('no-x', { type: 'boolean' }).parse();", "argv.noX", rundir.HoldsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := condHoldsPkg(t, c.pkg, c.decls, c.test); got != c.want {
				t.Errorf("%s: holds %s, want %s", c.test, got, c.want)
			}
		})
	}
}

// Each parseArgs form is decided, or left unknown, as jsargs.go says.
func TestParseArgsOptions(t *testing.T) {
	const imp = "import { parseArgs } from 'node:util';\n"
	cases := []struct{ name, decls, test, want string }{
		{"a default", imp + "const { values } = parseArgs({ options: { mode: { type: 'string', default: 'read' } } });", "values.mode === 'read'", rundir.HoldsTrue},
		{"no default is undefined", imp + "const { values } = parseArgs({ options: { write: { type: 'boolean', short: 'w' } }, strict: false });", "values.write", rundir.HoldsFalse},
		{"renamed", imp + "const { values: opts } = parseArgs({ options: { mode: { type: 'string', default: 'a' } }, allowPositionals: true });", "opts.mode === 'a'", rundir.HoldsTrue},
		{"the result's values", imp + "const args = parseArgs({ args: process.argv.slice(2), options: { mode: { type: 'string', default: 'a' } } });", "args.values.mode === 'b'", rundir.HoldsFalse},
		{"positionals", imp + "const { positionals } = parseArgs({ allowPositionals: true });", "positionals.length === 0", rundir.HoldsTrue},
		{"util namespace", "import util from 'node:util';\nconst { values } = util.parseArgs({ options: { mode: { type: 'string', default: 'a' } } });", "values.mode === 'a'", rundir.HoldsTrue},
		{"require", "const { parseArgs } = require('util');\nconst { values } = parseArgs({ options: { mode: { type: 'string', default: 'a' } } });", "values.mode === 'a'", rundir.HoldsTrue},
		{"multiple", imp + "const { values } = parseArgs({ options: { tool: { type: 'string', multiple: true, default: ['a'] } } });", "values.tool.includes('a')", rundir.HoldsTrue},
		{"a default of another type", imp + "const { values } = parseArgs({ options: { n: { type: 'string', default: 3 } } });", "values.n", rundir.HoldsUnknown},
		{"other arguments", imp + "const { values } = parseArgs({ args: ['--mode', 'b'], options: { mode: { type: 'string', default: 'a' } } });", "values.mode", rundir.HoldsUnknown},
		{"options by reference", imp + "const O = { mode: { type: 'string', default: 'a' } };\nconst { values } = parseArgs({ options: O });", "values.mode", rundir.HoldsUnknown},
		{"a key no option declares", imp + "const { values } = parseArgs({ options: { mode: { type: 'string' } } });", "values.other", rundir.HoldsUnknown},
		{"not node's", "import { parseArgs } from 'args-lib';\nconst { values } = parseArgs({ options: { mode: { type: 'string', default: 'a' } } });", "values.mode", rundir.HoldsUnknown},
		{"a values written", imp + "let { values } = parseArgs({ options: { mode: { type: 'string', default: 'a' } } });\nvalues = {};", "values.mode", rundir.HoldsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := condHolds(t, c.decls, c.test); got != c.want {
				t.Errorf("%s: holds %s, want %s", c.test, got, c.want)
			}
		})
	}
}

// commander's subcommands, actions and CommonJS forms.
func TestCommanderSubcommands(t *testing.T) {
	const imp = "import { program, Command } from 'commander';\n"
	const cjs = "const commander_1 = require('commander');\nconst program = new commander_1.Command();\n"
	reg := "\n  server.tool('t', 'A tool.', {}, async () => ({}));\n"
	cases := []struct{ name, src, want string }{
		{"an action's options", imp + "program.command('serve').option('--mode <m>', 'm', 'read').action((options) => {\n if (options.mode === 'read') {" + reg + "}\n});\nprogram.parse();", rundir.HoldsTrue},
		{"a subcommand's own options", imp + "program.option('--top', 't');\nprogram.command('serve').option('--extra', 'e').action((opts) => {\n if (opts.extra) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsFalse},
		{"after positional arguments", imp + "program.command('serve <dir> [port]').option('--mode <m>', 'm', 'a').action((dir, port, o) => {\n if (o.mode === 'a') {" + reg + "}\n});\nprogram.parse();", rundir.HoldsTrue},
		{"a positional argument", imp + "program.command('serve <dir>').action((dir) => {\n if (dir) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsUnknown},
		{"the program's action", imp + "program.option('--mode <m>', 'm', 'a').action((o) => {\n if (o.mode === 'a') {" + reg + "}\n}).parse();", rundir.HoldsTrue},
		{"the command handed in", imp + "program.command('serve').option('--x', 'x').action((o, cmd) => {\n if (o.x) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsUnknown},
		{"a function expression", imp + "program.command('serve').option('--x', 'x').action(function (o) {\n if (o.x) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsUnknown},
		{"a destructured action", imp + "program.command('serve').option('--x', 'x').action(({ x }) => {\n if (x) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsUnknown},
		{"an executable subcommand", imp + "program.command('serve', 'Serve').option('--x', 'x').action((o) => {\n if (o.x) {" + reg + "}\n});\nprogram.parse();", rundir.HoldsUnknown},
		{"the program exported", imp + "program.command('serve').option('--x', 'x').action((o) => {\n if (o.x) {" + reg + "}\n});\nexport { program };\nprogram.parse();", rundir.HoldsUnknown},
		{"tsc's CommonJS", cjs + "program.command('mcp').option('-t, --tools <tools>', 'tools', 'preset.default').action(async (options) => {\n if (options.tools === 'preset.default') {" + reg + "}\n});\nprogram.parse(process.argv);", rundir.HoldsTrue},
		{"destructured require", "const { program } = require('commander');\nprogram.option('--x', 'x').parse();\nif (program.opts().x) {" + reg + "}", rundir.HoldsFalse},
		{"tsc's commander_1.program", "const commander_1 = require('commander');\ncommander_1.program.option('--mode <m>', 'm', 'a').parse();\nconst options = commander_1.program.opts();\nif (options.mode === 'a') {" + reg + "}", rundir.HoldsTrue},
		{"commander_1.program's action", "const commander_1 = require('commander');\ncommander_1.program.command('serve').option('--x', 'x').action((o) => {\n if (o.x) {" + reg + "}\n});\ncommander_1.program.parse();", rundir.HoldsFalse},
		{"commander_1.program exported", "const commander_1 = require('commander');\ncommander_1.program.option('--x', 'x').parse();\nexports.program = commander_1.program;\nif (commander_1.program.opts().x) {" + reg + "}", rundir.HoldsUnknown},
		{"commander_1 handed on", "const commander_1 = require('commander');\ncommander_1.program.option('--x', 'x').parse();\nsetup(commander_1);\nif (commander_1.program.opts().x) {" + reg + "}", rundir.HoldsUnknown},
		{"a let program", "const commander_1 = require('commander');\nlet program = new commander_1.Command();\nprogram.option('--x', 'x').parse();\nif (program.opts().x) {" + reg + "}", rundir.HoldsUnknown},
		{"not commander", "const c = require('other-cli');\nconst program = new c.Command();\nprogram.option('--x', 'x').parse();\nif (program.opts().x) {" + reg + "}", rundir.HoldsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{
				"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
				"index.js":     "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nconst server = new McpServer({ name: 't', version: '1' });\n" + c.src + "\n",
			}
			s := extractMap(t, files, Options{})
			failOnRecoveredPanic(t, s)
			if len(s.Tools) != 1 || len(s.Tools[0].Conditions) != 1 {
				t.Fatalf("tools %+v, want one with one condition", s.Tools)
			}
			if got := s.Tools[0].Conditions[0].Holds; got != c.want {
				t.Errorf("holds %s, want %s", got, c.want)
			}
		})
	}
}

func TestNpmRangeMinMajor(t *testing.T) {
	for in, want := range map[string]int{"^17.7.2": 17, "~12.0.1": 12, ">=13": 13, "17.x": 17, "11.1.1": 11, "v16": 16} {
		if got, ok := npmRangeMinMajor(in); !ok || got != want {
			t.Errorf("npmRangeMinMajor(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"*", "latest", ">=11 <18", "^11 || ^17", "<18", "git+https://x/y.git", ""} {
		if _, ok := npmRangeMinMajor(in); ok {
			t.Errorf("npmRangeMinMajor(%q) read, want not read", in)
		}
	}
}
