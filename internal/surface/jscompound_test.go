package surface

import (
	"strings"
	"testing"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// The configuration module the servers below import: every flag is off
// under the default configuration (no variable set), VERSION is a constant.
const compoundConfig = `export const ALLOW_INSERT = process.env.ALLOW_INSERT === "true";
export const ALLOW_DELETE = process.env.ALLOW_DELETE === "true";
export const MULTI = process.env.MULTI === "true";
export const ON = process.env.OFF !== "true";
export const VERSION = "1.2";
export const SUFFIX = " (beta)";
`

const compoundHead = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ALLOW_INSERT, ALLOW_DELETE, MULTI, ON, VERSION, SUFFIX } from './config.js';
import { flag } from 'some-lib';
const server = new McpServer({ name: 't', version: '1' });
`

func compoundFiles(body string) map[string]string {
	return map[string]string{
		"package.json": `{"name":"t","version":"1.0.0","main":"index.js","type":"module"}`,
		"config.js":    compoundConfig,
		"index.js":     compoundHead + body,
	}
}

// compoundRead extracts the files and returns the tool's entry by default
// (the first, with no condition) and the texts of its entries off by
// default (a configured server's texts, jsbranches.go).
func compoundRead(t *testing.T, files map[string]string) (rundir.Surface, rundir.Entry, []string) {
	t.Helper()
	s := extractMap(t, files, Options{})
	failOnRecoveredPanic(t, s)
	if len(s.Tools) == 0 || len(s.Tools[0].Conditions) != 0 {
		t.Fatalf("tools %+v (%s %s), want one by default first", s.Tools, s.Outcome, s.OutcomeDetail)
	}
	var off []string
	for _, en := range s.Tools[1:] {
		if len(en.Conditions) == 0 {
			t.Fatalf("tools %+v: a second entry by default", s.Tools)
		}
		off = append(off, en.DescriptionRaw)
	}
	return s, s.Tools[0], off
}

// The mysql server's form (methodology §5.2, 2.3.19, part cmp): a `let`
// text at module level built by statements under configuration tests, with
// else branches, nested ifs, `x = x.replace(/,$/, "") + …`, and the use in
// a registration after every write.
const compoundMySQL = "let d = `[v${VERSION}] Run SQL`;\n" + `if (MULTI) {
    d += " (multi)";
}
if (ALLOW_INSERT || ALLOW_DELETE || ON_WRITE) {
    d += " with:";
    if (ALLOW_INSERT) {
        d += " INSERT,";
    }
    if (ALLOW_DELETE) {
        d += " DELETE,";
    }
    d = d.replace(/,$/, "") + " and READ";
}
else {
    d += " (READ-ONLY)";
}
server.tool('t', d, {}, async () => ({ content: [] }));
`

// TestJSCompoundTextUnderConfiguration: each write on the path the
// default configuration decides is applied in program order; each branch a
// test of configuration does not take by default is read too, as an entry
// off by default (the text a configured server sends), as for a ternary's
// arms (2.3.11). All but the twin read through a literal test fail at
// 6f52bb4 (the local was "modified by a compound assignment", or its tests
// were not decided).
func TestJSCompoundTextUnderConfiguration(t *testing.T) {
	reg := "server.tool('t', d, {}, async () => ({ content: [] }));\n"
	cases := []struct {
		name, body, want string
		off              []string // the entries off by default, in order
	}{
		{"else if chain", "let d = 'A';\nif (MULTI) d += ' a';\nelse if (!ALLOW_INSERT) d += ' b';\nelse d += ' c';\n" + reg, "A b", []string{"A a", "A c"}},
		{"x = x + pieces", "let d = 'A';\nd += ' b';\nif (ON) { d = d + ' c' + SUFFIX; }\n" + reg, "A b c (beta)", []string{"A b"}},
		{"var at module level", "var d = 'A';\nif (ON) { d += ' on'; } else { d += ' off'; }\n" + reg, "A on", []string{"A off"}},
		{"in one function body", "function build() {\n  let d = 'A';\n  if (MULTI) { d += ' B'; } else { d += ' C'; }\n  return d;\n}\nserver.tool('t', build(), {}, async () => ({ content: [] }));\n", "A C", []string{"A B"}},
		{"replace with no match", "let d = 'A';\nd += ' b';\nif (ON) { d = d.replace(/,$/, '') + '.'; }\n" + reg, "A b.", []string{"A b"}},
		{"replace of a longer literal across pieces", "let d = 'A, ';\nd += 'and';\nd = d.replace(/, and$/, '') + '.';\n" + reg, "A.", nil},
		{"replace trims the last comma", "let d = 'A:';\nif (ON) { d += ' INSERT,'; }\nif (MULTI) { d += ' DELETE,'; }\nd = d.replace(/,$/, '') + ' and READ';\n" + reg, "A: INSERT and READ", []string{"A: and READ", "A: INSERT, DELETE and READ", "A: DELETE and READ"}},
		{"nested on the path", "let d = 'A';\nif (ON) { d += ':'; if (MULTI) { d += ' multi'; } else { d += ' single'; } } else { d += ' off'; }\n" + reg, "A: single", []string{"A off", "A: multi"}},
		{"twin, read at the base: a literal test", "const LOCAL = true;\nlet d = 'A';\nif (LOCAL) { d += ' on'; }\n" + reg, "A on", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, en, off := compoundRead(t, compoundFiles(tc.body))
			if en.DescriptionState != vocab.StateReadable || en.DescriptionRaw != tc.want {
				t.Errorf("%s %q (%s), want readable %q", en.DescriptionState, en.DescriptionRaw, en.UnreadableReason, tc.want)
			}
			if strings.Join(off, "|") != strings.Join(tc.off, "|") {
				t.Errorf("off by default %q, want %q", off, tc.off)
			}
		})
	}
}

// The mysql server's form: four tests of configuration give more texts
// than a site's readings are bounded to (maxArmReadings), so the text is not
// read, with the reason, rather than read as its default alone (the
// branches not taken are the publisher's texts a configured server sends:
// 2.3.11); the site is read. With two tests every configured text is read,
// off by default.
func TestJSCompoundTextMySQLForm(t *testing.T) {
	_, en, off := compoundRead(t, compoundFiles(strings.Replace(compoundMySQL, "ON_WRITE", "false", 1)))
	if en.DescriptionState != vocab.StateUnreadable || !strings.Contains(en.UnreadableReason, "4 tests of configuration") || len(off) != 0 {
		t.Errorf("%s %q (%s) off %q, want not read for its configured texts", en.DescriptionState, en.DescriptionRaw, en.UnreadableReason, off)
	}
	two := strings.NewReplacer("ON_WRITE", "false", "if (ALLOW_DELETE) {\n        d += \" DELETE,\";\n    }\n", "", "if (MULTI) {\n    d += \" (multi)\";\n}\n", "").Replace(compoundMySQL)
	_, en, off = compoundRead(t, compoundFiles(two))
	if en.DescriptionRaw != "[v1.2] Run SQL (READ-ONLY)" || strings.Join(off, "|") != "[v1.2] Run SQL with: and READ|[v1.2] Run SQL with: INSERT and READ" {
		t.Errorf("default %q, off by default %q", en.DescriptionRaw, off)
	}
}

// A read in a function declaration after the last write (mysql's `export
// default function createMcpServer`) is read when nothing between the
// declaration and the last write runs code of the package (a `let` cannot
// be read before its declaration); a call there, or a `var`, refuses it.
func TestJSCompoundTextHoistedRead(t *testing.T) {
	fn := "function make() {\n  server.tool('t', d, {}, async () => ({ content: [] }));\n}\nmake();\n"
	cases := []struct {
		name, body string
		want       string // "" for not read
	}{
		{"read", "let d = 'A';\nconst keys = Object.keys({ a: 1 });\nif (ON) { d += ' on'; }\nd += '.';\n" + fn, "A on."},
		{"twin: a call between the writes", "let d = 'A';\nsetup();\nif (ON) { d += ' on'; }\nfunction setup() {}\n" + fn, ""},
		{"twin: a var", "var d = 'A';\nif (ON) { d += ' on'; }\n" + fn, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, en, _ := compoundRead(t, compoundFiles(tc.body))
			if tc.want == "" {
				if en.DescriptionState == vocab.StateReadable {
					t.Errorf("read %q, want not read", en.DescriptionRaw)
				}
				return
			}
			if en.DescriptionState != vocab.StateReadable || en.DescriptionRaw != tc.want {
				t.Errorf("%s %q (%s), want %q", en.DescriptionState, en.DescriptionRaw, en.UnreadableReason, tc.want)
			}
		})
	}
}

// Each piece keeps its own bytes: a quote across the pieces verifies
// against the source where they are written (one run in source order, as
// literals joined by +); bytes .replace removed are not quoted.
func TestJSCompoundTextQuotes(t *testing.T) {
	body := "let d = `[v${VERSION}] Run SQL`;\nif (ON) { d += ' with: INSERT,'; }\nd = d.replace(/,$/, '') + ' and READ';\n" +
		"server.tool('t', d, {}, async () => ({ content: [] }));\n"
	files := compoundFiles(body)
	s, en, _ := compoundRead(t, files)
	if en.DescriptionRaw != "[v1.2] Run SQL with: INSERT and READ" {
		t.Fatalf("raw %q", en.DescriptionRaw)
	}
	src := files["index.js"]
	from := strings.Index(src, "] Run SQL")
	to := strings.Index(src, " and READ") + len(" and READ")
	read := func(p string) ([]byte, error) { return []byte(files[p]), nil }
	s.Tools = s.Tools[:1]
	checkQuotePieces(t, &s, read, "tool", "t", "index.js", "] Run SQL with: INSERT and READ", []string{src[from:to]})
	checkQuotePieces(t, &s, read, "tool", "t", "index.js", "INSERT, and", nil)
	checkQuotePieces(t, &s, read, "tool", "t", "index.js", "v1.2] Run", []string{"v", "1.2", "] Run"})
}

// A hole stays a hole: the server's version from the environment.
func TestJSCompoundTextHole(t *testing.T) {
	body := "let d = `[v${process.env.npm_package_version}] Run SQL`;\nif (ALLOW_INSERT) { d += ' with INSERT'; } else { d += ' (READ-ONLY)'; }\nserver.tool('t', d, {}, async () => ({ content: [] }));\n"
	_, en, off := compoundRead(t, compoundFiles(body))
	if en.DescriptionState != vocab.StatePartial || en.DescriptionRaw != "[v] Run SQL (READ-ONLY)" || len(en.Holes) != 1 {
		t.Errorf("%s %q (%s) holes %+v, want partial with one hole", en.DescriptionState, en.DescriptionRaw, en.UnreadableReason, en.Holes)
	}
	if len(off) != 1 || off[0] != "[v] Run SQL with INSERT" {
		t.Errorf("off by default %q", off)
	}
}

// Twins: a write the reading cannot place stays unreadable, with a reason.
func TestJSCompoundTextRefused(t *testing.T) {
	reg := "server.tool('t', d, {}, async () => ({ content: [] }));\n"
	cases := []struct{ name, body string }{
		{"+= in a handler", "let d = 'A';\nif (ON) { d += ' on'; } else { d += ' off'; }\nserver.tool('t', d, {}, async () => { d += ' called'; return { content: [] }; });\n"},
		{"x = x + in a callback", "let d = 'A';\nd += ' b';\nsetTimeout(() => { d = d + ' later'; }, 10);\n" + reg},
		{"a write under an undecided test", "let d = 'A';\nif (flag) { d += ' x'; } else { d += ' y'; }\n" + reg},
		{"an undecided test nested on the path", "let d = 'A';\nif (ON) { if (flag) { d += ' x'; } } else { d += ' y'; }\n" + reg},
		{"a write after the use", "let d = 'A';\nif (ON) { d += ' on'; } else { d += ' off'; }\n" + reg + "d += ' late';\n"},
		{"a write in a loop", "let d = 'A';\nif (ON) { d += ' on'; } else { d += ' off'; }\nfor (const s of ['x', 'y']) { d += s; }\n" + reg},
		{"a loop in a branch", "let d = 'A';\nif (ON) { for (const s of ['x']) { d += s; } } else { d += ' off'; }\n" + reg},
		{"a read in a test", "let d = 'A';\nif (d.length > 0) { d += ' on'; } else { d += ' off'; }\n" + reg},
		{"a plain reassignment", "let d = 'A';\nif (ON) { d += ' on'; } else { d = 'B'; }\n" + reg},
		{"replace with a flag", "let d = 'A,';\nd += ' b,';\nd = d.replace(/,$/g, '') + '.';\n" + reg},
		{"replace of a pattern", "let d = 'A,';\nd += ' b,';\nd = d.replace(/[,;]$/, '') + '.';\n" + reg},
		{"replace where the end is a hole", "let d = 'A';\nd += process.env.X;\nd = d.replace(/,$/, '') + '.';\n" + reg},
		{"var declared twice", "var d = 'A';\nvar d = 'B';\nd += ' b';\nif (ON) { d += ' c'; } else { d += ' e'; }\n" + reg},
		{"too deep", "let d = 'A';\nif (ON) { if (ON) { if (ON) { if (ON) { if (ON) { d += ' x'; } } } } } else { d += ' y'; }\n" + reg},
		{"a call in a branch", "let d = 'A';\nif (ON) { d += ' on'; console.log(d); } else { d += ' off'; }\n" + reg},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, en, _ := compoundRead(t, compoundFiles(tc.body))
			if en.DescriptionState == vocab.StateReadable || en.UnreadableReason == "" {
				t.Errorf("%s %q (reason %q), want not read with a reason", en.DescriptionState, en.DescriptionRaw, en.UnreadableReason)
			}
		})
	}
}
