package surface

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// The package's fallback and each arm of a choice reach the verifier with
// their own spans (methodology §5.4, 2.3.8): a quote inside an alternative,
// or running from the last alternative into the text after the choice (as
// it is sent when that alternative is chosen), verifies against the source
// bytes where each piece is written; a quote from the text before the choice
// into an alternative, or from one alternative into another, never does,
// because the two are never sent together.
func TestFallbackQuotesVerify(t *testing.T) {
	s, read := quoteFixture(t, "js_prompt_fallback.txtar")
	cases := []struct {
		prompt, file, quote string
		excerpts            []string // the source bytes of each piece; nil: rejected
	}{
		// The fallback alone, then the fallback running on into the text
		// after the substitution: two pieces, each where it is written.
		{"inline_or", "index.js", "every namespace", []string{"every namespace"}},
		{"inline_or", "index.js", "every namespace and report.", []string{"every namespace", " and report."}},
		// The text before the substitution with the fallback: the client's
		// hole lies between them.
		{"inline_or", "index.js", "pods in every", nil},
		// A constant of another module, the fallback of a name.
		{"named_or", "index.js", "whole cluster.", []string{"whole cluster", "."}},
		{"diagnose", "index.js", `all" (or across`, []string{"all", `" (or across`}},
		{"pattern_default", "index.js", "default, focus", []string{"default", ", focus"}},
		// A choice: each arm examined, the two never joined.
		{"choice_two", "index.js", "an overview please.", []string{"an overview", " please."}},
		{"choice_two", "index.js", "every detailan overview", nil},
		{"choice_two", "index.js", "Depth: every", nil},
		{"choice_empty", "index.js", "Pay attention to", []string{"Pay attention to"}},
		{"choice_empty", "index.js", "project. Pay", nil},
		// A number as String renders it.
		{"fallback_number", "index.js", "5 items.", []string{"5", " items."}},
	}
	for _, c := range cases {
		checkQuotePieces(t, &s, read, "prompt", c.prompt, c.file, c.quote, c.excerpts)
	}
}

// A chain of choices and fallbacks nested deep in a prompt's message is read
// with each expression evaluated once: every alternative is recorded, and the
// package's resolution steps are not exhausted (were each level evaluated
// twice, 48 levels would need 2^48 evaluations and end in
// extraction_budget_exceeded). A fallback nests two evaluations a level
// (the parentheses and the operator), so its chain is kept inside the
// resolution depth of 64.
func TestFallbackNestedChoicesRead(t *testing.T) {
	const depth, fallbacks = 48, 24
	var choice, fallback strings.Builder
	for i := range depth {
		fmt.Fprintf(&choice, "args.k === %q ? %q : ", strconv.Itoa(i), "text "+strconv.Itoa(i))
	}
	for range fallbacks {
		fallback.WriteString("(args.k || ")
	}
	choice.WriteString(`"last"`)
	fallback.WriteString(`"last"` + strings.Repeat(")", fallbacks))
	src := `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
const server = new McpServer({ name: "deep", version: "1.0.0" });
server.prompt("deep", "Deep choices.", { k: z.string().optional() },
  async (args) => ({ messages: [{ role: "user", content: { type: "text",
    text: ` + "`A ${" + choice.String() + "} B ${" + fallback.String() + "} C`" + ` } }] }));
`
	a := &txtar.Archive{Files: []txtar.File{
		{Name: "package.json", Data: []byte(`{"name": "deep", "version": "1.0.0", "type": "module", "main": "index.js"}`)},
		{Name: "index.js", Data: []byte(src)},
	}}
	s := extractArchive(t, a)
	if s.Outcome != "parsed" || len(s.PromptTexts) != 1 {
		t.Fatalf("outcome %s with %d prompt texts, want parsed with one", s.Outcome, len(s.PromptTexts))
	}
	e := s.PromptTexts[0]
	alts, clients := 0, 0
	for _, h := range e.Holes {
		switch h.FilledBy {
		case "package_alternative":
			alts++
		case "client_argument":
			clients++
		default:
			t.Errorf("unmarked hole %q", h.Source)
		}
	}
	if alts != depth+1 || clients != fallbacks {
		t.Errorf("%d alternative marks and %d client holes, want %d and %d", alts, clients, depth+1, fallbacks)
	}
	for i := range depth {
		if !strings.Contains(e.DescriptionRaw, "text "+strconv.Itoa(i)) {
			t.Errorf("alternative %d not recorded in %q", i, e.DescriptionRaw)
			break
		}
	}
	if !strings.HasSuffix(e.DescriptionRaw, "last C") {
		t.Errorf("description_raw %q does not end with the last fallback and the text after it", e.DescriptionRaw)
	}
}
