package vocab

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// declared is one string constant of the package as its source declares it.
type declared struct {
	name  string
	value string // the literal, or "" when the constant is declared as another
	alias string // the constant it is declared as
}

// declaredConstants parses the package's own source files and returns every
// string constant, so the tests below cover a constant added tomorrow
// without anyone listing it.
func declaredConstants(t *testing.T) []declared {
	t.Helper()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []declared
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, p, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				for i, n := range vs.Names {
					switch v := vs.Values[i].(type) {
					case *ast.BasicLit:
						if v.Kind != token.STRING {
							t.Fatalf("%s: constant %s is not a string", p, n.Name)
						}
						s, err := strconv.Unquote(v.Value)
						if err != nil {
							t.Fatal(err)
						}
						out = append(out, declared{name: n.Name, value: s})
					case *ast.Ident:
						out = append(out, declared{name: n.Name, alias: v.Name})
					default:
						t.Fatalf("%s: constant %s is neither a literal nor another constant", p, n.Name)
					}
				}
			}
		}
	}
	if len(out) < 50 {
		t.Fatalf("parsed %d constants; the package declares more", len(out))
	}
	return out
}

// TestNoTwoConstantsShareAValue: a value is written once. Two names for one
// value are allowed only when the second is declared as the first (the
// documented same thing), never as a second literal.
func TestNoTwoConstantsShareAValue(t *testing.T) {
	byValue := map[string][]string{}
	names := map[string]bool{}
	for _, c := range declaredConstants(t) {
		names[c.name] = true
		if c.alias == "" {
			byValue[c.value] = append(byValue[c.value], c.name)
		}
	}
	for v, ns := range byValue {
		if len(ns) > 1 {
			sort.Strings(ns)
			t.Errorf("value %q is declared as a literal by %v: declare the second as the first if they are the same thing", v, ns)
		}
	}
	for _, c := range declaredConstants(t) {
		if c.alias != "" && !names[c.alias] {
			t.Errorf("%s is declared as %s, which is not a constant of this package", c.name, c.alias)
		}
	}
}

// TestValuesAreSnakeCase: every stored value is lower snake case (the run
// files' and the database's form), apart from the guard and rule names and
// the policy's name, which the methodology spells as they are.
func TestValuesAreSnakeCase(t *testing.T) {
	spelled := map[string]bool{GuardG1: true, GuardG2: true, GuardG3: true, GuardG4: true, GuardG5: true,
		GuardG6: true, GuardG7: true, RuleD1: true, RuleD2: true, RuleD3: true, RuleD4: true, RuleD5: true, RuleD6: true, PolicyName: true}
	for _, c := range declaredConstants(t) {
		if c.alias != "" || spelled[c.value] {
			continue
		}
		for _, r := range c.value {
			if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
				t.Errorf("%s = %q is not lower snake case", c.name, c.value)
				break
			}
		}
	}
}

// TestGateMapCoversEveryCode: every reason code declared here has exactly
// one gate-map entry, and every entry is a declared code with a guard and a
// line.
func TestGateMapCoversEveryCode(t *testing.T) {
	values := map[string]string{}
	for _, c := range declaredConstants(t) {
		values[c.name] = c.value
	}
	resolve := func(c declared) string {
		for c.alias != "" {
			c = declared{value: values[c.alias], alias: ""}
		}
		return c.value
	}
	codes := map[string]bool{}
	guards := map[string]bool{}
	for _, c := range declaredConstants(t) {
		switch {
		case strings.HasPrefix(c.name, "Code"):
			codes[resolve(c)] = true
		case strings.HasPrefix(c.name, "Guard"):
			guards[resolve(c)] = true
		}
	}
	seen := map[string]bool{}
	for _, e := range GateMap {
		if seen[e.Code] {
			t.Errorf("gate map lists %s twice", e.Code)
		}
		seen[e.Code] = true
		if !codes[e.Code] {
			t.Errorf("gate map entry %s is not a declared reason code", e.Code)
		}
		if !guards[e.Guard] {
			t.Errorf("gate map entry %s names guard %q, which is not declared", e.Code, e.Guard)
		}
		if e.Line == "" || !strings.HasSuffix(e.Line, ".") {
			t.Errorf("gate map entry %s has no one-line sentence: %q", e.Code, e.Line)
		}
		if got, ok := GateEntryFor(e.Code); !ok || got != e {
			t.Errorf("GateEntryFor(%s) = %v, %v", e.Code, got, ok)
		}
	}
	for c := range codes {
		if !seen[c] {
			t.Errorf("reason code %s has no gate-map entry", c)
		}
	}
	if _, ok := GateEntryFor("no_such_code"); ok {
		t.Error("GateEntryFor found an undeclared code")
	}
}
