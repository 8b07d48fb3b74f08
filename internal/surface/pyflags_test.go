package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// typerServer is a package whose write tool is registered only under a
// Typer option; the cases change one thing each.
func typerServer(scripts, appDef, command, params, tail, mainBody string) map[string]string {
	return map[string]string{
		"pyproject.toml": "[project]\nname = \"t\"\nversion = \"1\"\n" + scripts,
		"t/__init__.py":  "",
		"t/__main__.py":  "from t.server import app\n\n\ndef main():\n" + mainBody,
		"t/server.py": "import typer\nfrom typing import Annotated, Optional\nfrom mcp.server.fastmcp import FastMCP\n\n" + appDef + "\n\n" +
			"def ping() -> str:\n    \"\"\"Ping.\"\"\"\n    return ''\n\n\ndef drop() -> str:\n    \"\"\"Drop.\"\"\"\n    return ''\n\n\n" +
			command + "\ndef run(" + params + ") -> None:\n    mcp = FastMCP('t')\n    mcp.add_tool(ping)\n    if enable_writes:\n        mcp.add_tool(drop)\n    mcp.run()\n" + tail,
	}
}

const typerScripts = "\n[project.scripts]\nt = \"t.__main__:main\"\n"

func TestPythonTyperDefaults(t *testing.T) {
	app := "app = typer.Typer()"
	cmd := "@app.command()"
	flag := "*, enable_writes: bool = False"
	for _, tc := range []struct {
		name  string
		files map[string]string
		off   bool // drop is off by default (else listed: its test unknown)
		cli   string
	}{
		{"the console script calls app()", typerServer(typerScripts, app, cmd, flag, "", "    app()\n"), true, "--enable-writes=False"},
		{"the console script names the application itself", typerServer("\n[project.scripts]\nt = \"t.server:app\"\n", app, cmd, flag, "", "    pass\n"), true, "--enable-writes=False"},
		{"typer.Option(False) with its own flag name and an envvar", typerServer(typerScripts, app, cmd, "enable_writes: bool = typer.Option(False, \"--writes\", envvar=\"T_WRITES\")", "", "    app()\n"), true, "--writes=False"},
		{"an imported alias called with no arguments", func() map[string]string {
			fs := typerServer(typerScripts, app, cmd, flag, "", "")
			fs["t/__main__.py"] = "from t.server import app as cli\n\n\ndef main():\n    cli()\n"
			return fs
		}(), true, "--enable-writes=False"},
		{"a flag on by default", typerServer(typerScripts, app, cmd, "enable_writes: bool = True", "", "    app()\n"), false, "--enable-writes=True"},
		{"negative: a second command makes the application a group", typerServer(typerScripts, app, cmd, flag, "\n\n@app.command()\ndef other() -> None:\n    pass\n", "    app()\n"), false, ""},
		{"negative: a callback runs before the command", typerServer(typerScripts, app, cmd, flag, "\n\n@app.callback()\ndef cb() -> None:\n    pass\n", "    app()\n"), false, ""},
		{"negative: arguments handed to the application", typerServer(typerScripts, app, cmd, flag, "", "    app(args=['--enable-writes'])\n"), false, ""},
		{"negative: no console script says what runs", typerServer("", app, cmd, flag, "", "    app()\n"), false, ""},
		{"negative: the console script does not run the application", typerServer(typerScripts, app, cmd, flag, "", "    print('no')\n"), false, ""},
		{"negative: context_settings may hold a default_map", typerServer(typerScripts, "app = typer.Typer(context_settings={'default_map': {'enable_writes': True}})", cmd, flag, "", "    app()\n"), false, ""},
		{"negative: Annotated declarations are not read", typerServer(typerScripts, app, cmd, "enable_writes: Annotated[bool, typer.Option(envvar='W')] = False", "", "    app()\n"), false, ""},
		{"negative: a callback converts the value", typerServer(typerScripts, app, cmd, "enable_writes: bool = typer.Option(False, callback=print)", "", "    app()\n"), false, ""},
		{"negative: a required option", typerServer(typerScripts, app, cmd, "enable_writes: bool = typer.Option(...)", "", "    app()\n"), false, ""},
		{"negative: a bool with a None default", typerServer(typerScripts, app, cmd, "enable_writes: Optional[bool] = None", "", "    app()\n"), false, ""},
		{"negative: a parameter without a default is an argument", typerServer(typerScripts, app, cmd, "enable_writes: bool", "", "    app()\n"), false, ""},
		{"negative: another decorator on the command", typerServer(typerScripts, app, "@app.command()\n@staticmethod", flag, "", "    app()\n"), false, ""},
		{"negative: the application is rebound", typerServer(typerScripts, app+"\napp = typer.Typer()", cmd, flag, "", "    app()\n"), false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := capExtract(t, tc.files, Options{})
			if s.Outcome != vocab.OutcomeParsed {
				t.Fatalf("outcome %s (%s)", s.Outcome, s.OutcomeDetail)
			}
			var drop *rundir.Entry
			for i := range s.Tools {
				if s.Tools[i].Name == "drop" {
					drop = &s.Tools[i]
				}
			}
			if drop == nil || len(s.Tools) != 2 {
				t.Fatalf("tools %+v, want ping and drop", s.Tools)
			}
			if drop.OffByDefault() != tc.off {
				t.Errorf("drop off by default %v, want %v; conditions %+v", drop.OffByDefault(), tc.off, drop.Conditions)
			}
			var cli []string
			for _, r := range drop.Configuration {
				if r.Source == "cli" {
					cli = append(cli, r.Name+"="+r.Default)
				}
			}
			if strings.Join(cli, ",") != tc.cli {
				t.Errorf("command-line reads %q, want %q", cli, tc.cli)
			}
			want := rundir.HoldsUnknown
			if tc.cli != "" {
				want = rundir.HoldsTrue
				if tc.off {
					want = rundir.HoldsFalse
				}
			}
			if len(drop.Conditions) != 1 || drop.Conditions[0].Holds != want {
				t.Errorf("conditions %+v, want one that holds %q", drop.Conditions, want)
			}
		})
	}
}
