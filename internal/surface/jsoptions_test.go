package surface

import (
	"testing"

	"github.com/attestari/attestari/internal/rundir"
)

// Each commander form is decided, or left unknown, as jsoptions.go says:
// no flag given, every option at the default the package declares.
func TestCommanderOptions(t *testing.T) {
	const imp = "import { program, Command } from 'commander';\n"
	cases := []struct{ name, decls, test, want string }{
		{"no default is undefined", imp + "program.option('--tools-config <path>', 'a file').parse(process.argv);\nconst o = program.opts();", "o.toolsConfig", rundir.HoldsFalse},
		{"a literal default", imp + "program.option('--mode <m>', 'mode', 'read').parse();\nconst o = program.opts();", "o.mode === 'read'", rundir.HoldsTrue},
		{"a negated flag is true", imp + "program.option('--no-write', 'no writes');\nprogram.parse();", "program.opts().write", rundir.HoldsTrue},
		{"a boolean flag is undefined", imp + "program.option('-r, --read-only', 'read only').parse();", "!program.opts().readOnly", rundir.HoldsTrue},
		{"a short flag only", imp + "program.option('-x', 'x').parse();", "program.opts().x", rundir.HoldsFalse},
		{"new Command", imp + "const p = new Command();\np.name('s').option('--extra', 'extra').parse();", "p.opts().extra", rundir.HoldsFalse},
		{"await parseAsync", imp + "program.option('--extra', 'extra');\nawait program.parseAsync(process.argv);", "program.opts().extra", rundir.HoldsFalse},
		{"a key no option declares", imp + "program.option('--extra', 'extra').parse();", "program.opts().other", rundir.HoldsUnknown},
		{"a parser function", imp + "program.option('--n <n>', 'n', parseInt, 3).parse();", "program.opts().n", rundir.HoldsUnknown},
		{"a parser function, no default", imp + "program.option('--n <n>', 'n', (v) => v).parse();", "program.opts().n", rundir.HoldsUnknown},
		{"a computed default", imp + "program.option('--m <m>', 'm', process.env.M).parse();", "program.opts().m", rundir.HoldsUnknown},
		{"a computed flags string", imp + "const F = '--extra';\nprogram.option(F, 'extra').parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"both --x and --no-x", imp + "program.option('--write', 'w').option('--no-write', 'nw').parse();", "program.opts().write", rundir.HoldsUnknown},
		{"a required option", imp + "program.requiredOption('--db <url>', 'db').option('--extra', 'e').parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"an Option object", imp + "program.addOption(x).option('--extra', 'e').parse();", "program.opts().extra", rundir.HoldsUnknown},
		// Since 2.3.10 a subcommand's options are its own and an arrow action reads them (jsargs_commander.go).
		{"a subcommand", imp + "program.command('serve');\nprogram.option('--extra', 'e').parse();", "program.opts().extra", rundir.HoldsFalse},
		{"an action", imp + "program.option('--extra', 'e').action(() => {}).parse();", "program.opts().extra", rundir.HoldsFalse},
		{"an action given the command", imp + "program.option('--extra', 'e').action((o, cmd) => {}).parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"an executable subcommand", imp + "program.command('serve', 'Serve');\nprogram.option('--extra', 'e').parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"the program handed on", imp + "program.option('--extra', 'e').parse();\nsetup(program);", "program.opts().extra", rundir.HoldsUnknown},
		{"a chain stored", imp + "const q = program.option('--extra', 'e');\nq.parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"not commander's program", "import { program } from 'other-cli';\nprogram.option('--extra', 'e').parse();", "program.opts().extra", rundir.HoldsUnknown},
		{"a let program", imp + "let p = new Command();\np.option('--extra', 'e').parse();", "p.opts().extra", rundir.HoldsUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := condHolds(t, c.decls, c.test); got != c.want {
				t.Errorf("%s: holds %s, want %s", c.test, got, c.want)
			}
		})
	}
}

// Another module of the package importing commander may add options to the
// same program, so none is known.
func TestCommanderOtherModule(t *testing.T) {
	files := map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js"}`,
		"index.js": "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nimport { program } from 'commander';\nimport './more.js';\n" +
			"const server = new McpServer({ name: 't', version: '1' });\nprogram.option('--extra', 'e').parse();\n" +
			"if (program.opts().extra) {\n  server.tool('t', 'A tool.', {}, async () => ({}));\n}\n",
		"more.js": "import { program } from 'commander';\nexport const x = 1;\n",
	}
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	if len(s.Tools) != 1 || len(s.Tools[0].Conditions) != 1 || s.Tools[0].Conditions[0].Holds != rundir.HoldsUnknown {
		t.Fatalf("tools %+v, want one with an unknown condition", s.Tools)
	}
}

func TestCommanderCamel(t *testing.T) {
	for in, want := range map[string]string{"tools-config": "toolsConfig", "a-b-c": "aBC", "x": "x", "bad--dash": "", "-lead": ""} {
		if got := commanderCamel(in); got != want {
			t.Errorf("commanderCamel(%q) = %q, want %q", in, got, want)
		}
	}
}
