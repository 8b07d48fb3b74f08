package check

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/attestari/attestari/internal/vocab"
)

// Formats of the report.
const (
	FormatText     = "text"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
	FormatSARIF    = "sarif"
)

// Formats lists every format, for flag help.
var Formats = []string{FormatText, FormatJSON, FormatMarkdown, FormatSARIF}

// RenderOptions shape the text format.
type RenderOptions struct {
	// Color uses ANSI colours (only on a terminal).
	Color bool
}

// Render writes r in format f. Every format's first line is the notice.
func Render(w io.Writer, r *Report, f string, o RenderOptions) error {
	switch f {
	case FormatText, "":
		return renderText(w, r, o)
	case FormatJSON:
		return RenderJSON(w, r)
	case FormatMarkdown:
		return renderMarkdown(w, r)
	case FormatSARIF:
		return renderSARIF(w, r)
	}
	return fmt.Errorf("unknown format %q (one of %s)", f, strings.Join(Formats, ", "))
}

// RenderJSON writes r as JSON: the notice is its first key, so the first
// line a reader sees (after the brace) says the result is not a grade.
func RenderJSON(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	// The notice leads on the first line: {"notice": "...", then the rest.
	out := strings.Replace(string(b), "{\n  ", "{", 1)
	_, err = fmt.Fprintf(w, "%s\n", out)
	return err
}

type painter struct{ on bool }

func (p painter) c(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}
func (p painter) bold(s string) string  { return p.c("1", s) }
func (p painter) red(s string) string   { return p.c("31", s) }
func (p painter) green(s string) string { return p.c("32", s) }
func (p painter) yel(s string) string   { return p.c("33", s) }

func verdictLine(r *Report) string {
	switch r.Verdict.Verdict {
	case vocab.VerdictGraded:
		return fmt.Sprintf("would be graded %s (%d confirmed, %d noted finding(s))", r.Verdict.Grade, r.Verdict.Confirmed, r.Verdict.Noted)
	case vocab.VerdictNotGradeable:
		return "would be refused (not gradeable): " + strings.Join(r.Verdict.BlockedBy, ", ")
	case vocab.VerdictOutOfScope:
		return "would be out of scope (not an MCP server)"
	}
	return "could not be examined as asked"
}

func renderText(w io.Writer, r *Report, o RenderOptions) error {
	p := painter{o.Color}
	var b strings.Builder
	fmt.Fprintln(&b, p.yel(r.Notice))
	fmt.Fprintf(&b, "\n%s %s:%s@%s (%s)\n", p.bold("target"), r.Target.Registry, r.Target.Name, r.Target.Version, r.Target.Spec)
	if r.Target.ArtifactSHA256 != "" {
		fmt.Fprintf(&b, "  artifact sha256 %s\n", r.Target.ArtifactSHA256)
	}
	v := r.Versions
	fmt.Fprintf(&b, "  methodology %s, extractor %s, verifier %s, analyzer %s\n", v.Methodology, v.Extractor, v.Verifier, orNone(v.Analyzer))
	vl := verdictLine(r)
	switch r.Exit.Code {
	case ExitClean:
		vl = p.green(vl)
	default:
		vl = p.red(vl)
	}
	fmt.Fprintf(&b, "\n%s %s\n", p.bold("verdict"), vl)
	if len(r.Reasons) > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.bold("reasons"))
		for _, x := range r.Reasons {
			tol := ""
			if x.Tolerated {
				tol = " (tolerated by --fail-on)"
			}
			fmt.Fprintf(&b, "  %s [%s]%s: %s\n", p.red(x.Code), x.Guard, tol, x.GateMapLine)
			if x.Detail != "" {
				fmt.Fprintf(&b, "    detail: %s\n", x.Detail)
			}
			if x.File != "" {
				fmt.Fprintf(&b, "    at: %s\n", place(x.File, x.Line))
			}
			fmt.Fprintf(&b, "    remedy: %s\n", x.Remedy)
		}
	}
	fmt.Fprintf(&b, "\n%s %d\n", p.bold("findings"), len(r.Findings))
	for _, f := range r.Findings {
		sev := f.SeverityDecided
		if sev == "" {
			sev = f.SeverityAssigned
		}
		fmt.Fprintf(&b, "  %s %s %s/%s on %s at %s\n    %q\n", f.Decision, sev, f.Check, f.Tag, findingSubject(f), findingPlace(f), f.Excerpt)
	}
	s := r.Surface
	c := s.Counts
	fmt.Fprintf(&b, "\n%s outcome %s: %d tools, %d prompts, %d prompt texts, %d resources, %d resource templates, %d instructions, %d parameter descriptions (%d readable, %d partial, %d unreadable, %d absent)\n",
		p.bold("surface"), s.Outcome, c.Tools, c.Prompts, c.PromptTexts, c.Resources, c.ResourceTemplates, c.Instructions, c.ParameterDescriptions, c.Readable, c.Partial, c.Unreadable, c.Absent)
	for _, e := range s.Entries {
		name := e.Name
		if e.Parent != "" {
			name = e.Parent + "." + e.Name
		}
		fmt.Fprintf(&b, "  %-22s %-30s %-10s %s\n", e.Kind, name, e.State, place(e.File, e.Line))
	}
	for _, a := range s.Advertised {
		fmt.Fprintf(&b, "  advertised %q in %s (parsed: %v, stale: %v)\n", a.Name, place(a.Source, a.Line), a.Parsed, a.Stale)
	}
	fmt.Fprintf(&b, "\n%s %d (no effect on any grade)\n", p.bold("capabilities"), len(r.Capabilities))
	for _, k := range r.Capabilities {
		fmt.Fprintf(&b, "  %s/%s %s at %s (%s)\n", k.Kind, k.Tag, k.Target, place(k.File, k.Line), orNone(k.Verification))
	}
	fmt.Fprintf(&b, "\n%s %s\n", p.bold("manifest"), orNone(r.Manifest.ManifestHash))
	if r.Manifest.ManifestReason != "" {
		fmt.Fprintf(&b, "  no manifest hash: %s\n", r.Manifest.ManifestReason)
	}
	for _, t := range r.Manifest.Tools {
		h := t.Hash
		if h == "" {
			h = "(" + t.Reason + ")"
		}
		fmt.Fprintf(&b, "  %-30s %s\n", t.Name, h)
	}
	if a := r.Against; a != nil {
		fmt.Fprintf(&b, "\n%s %s (%s%s), manifest changed: %v\n", p.bold("against"), a.Package.Key(), a.Verdict, gradeSuffix(a.Grade), a.ManifestChanged)
		for _, t := range a.Tools {
			fmt.Fprintf(&b, "  %-30s %s\n", t.Name, t.Gateway)
		}
	} else if r.AgainstNote != "" {
		fmt.Fprintf(&b, "\n%s %s\n", p.bold("against"), r.AgainstNote)
	}
	for _, f := range r.Failures {
		fmt.Fprintf(&b, "\nfailure: %s %s: %s\n", f.Stage, f.Kind, f.Message)
	}
	fmt.Fprintf(&b, "\nexit %d: %s\n", r.Exit.Code, r.Exit.Why)
	_, err := io.WriteString(w, b.String())
	return err
}

func findingSubject(f Finding) string {
	if f.Entry == "" {
		return "the package"
	}
	return strings.ReplaceAll(orNone(f.Kind), "_", " ") + " " + f.Entry
}

func findingPlace(f Finding) string {
	if f.InRecord {
		return "registry record " + f.File
	}
	return lines(f.File, f.LineStart, f.LineEnd)
}

func gradeSuffix(g string) string {
	if g == "" {
		return ""
	}
	return " " + g
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func lines(file string, a, b int) string {
	if b > a {
		return fmt.Sprintf("%s:%d-%d", file, a, b)
	}
	return place(file, a)
}

// md escapes text for a Markdown table cell.
func md(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r", " ")
	s = strings.ReplaceAll(s, "\n", " ")
	return s
}

// code wraps s in a code span that its own backticks cannot end.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	return fence + " " + md(s) + " " + fence
}

func renderMarkdown(w io.Writer, r *Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "> **%s**\n\n", r.Notice)
	fmt.Fprintf(&b, "### attestari check: `%s:%s@%s` %s\n\n", r.Target.Registry, r.Target.Name, r.Target.Version, md(verdictLine(r)))
	v := r.Versions
	fmt.Fprintf(&b, "Methodology %s, extractor `%s`, verifier `%s`, analyzer `%s`. Exit %d: %s.\n", v.Methodology, v.Extractor, v.Verifier, orNone(v.Analyzer), r.Exit.Code, md(r.Exit.Why))
	if len(r.Reasons) > 0 {
		b.WriteString("\n#### Why it would not be graded, and what to change\n\n| code | guard | what it means | where | what to change |\n| --- | --- | --- | --- | --- |\n")
		for _, x := range r.Reasons {
			c := "`" + x.Code + "`"
			if x.Tolerated {
				c += " (tolerated)"
			}
			where := ""
			if x.File != "" {
				where = code(place(x.File, x.Line))
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", c, x.Guard, md(x.GateMapLine), where, md(x.Remedy))
		}
	}
	fmt.Fprintf(&b, "\n#### Findings (%d)\n\n", len(r.Findings))
	if len(r.Findings) > 0 {
		b.WriteString("| decision | severity | check / tag | entry | where | quoted |\n| --- | --- | --- | --- | --- | --- |\n")
		for _, f := range r.Findings {
			sev := f.SeverityDecided
			if sev == "" {
				sev = f.SeverityAssigned
			}
			fmt.Fprintf(&b, "| %s | %s | `%s` / `%s` | %s | %s | %s |\n", f.Decision, sev, f.Check, f.Tag, md(findingSubject(f)), code(findingPlace(f)), code(f.Excerpt))
		}
	}
	s, c := r.Surface, r.Surface.Counts
	fmt.Fprintf(&b, "\n<details><summary>Surface: %s, %d tools, %d prompts, %d resources, %d resource templates (%d readable, %d partial, %d unreadable)</summary>\n\n",
		s.Outcome, c.Tools, c.Prompts, c.Resources, c.ResourceTemplates, c.Readable, c.Partial, c.Unreadable)
	if len(s.Entries) > 0 {
		b.WriteString("| kind | name | state | where |\n| --- | --- | --- | --- |\n")
		for _, e := range s.Entries {
			name := e.Name
			if e.Parent != "" {
				name = e.Parent + "." + e.Name
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", e.Kind, code(name), e.State, code(place(e.File, e.Line)))
		}
	}
	b.WriteString("\n</details>\n")
	fmt.Fprintf(&b, "\n<details><summary>Capabilities: %d (no effect on any grade)</summary>\n\n", len(r.Capabilities))
	for _, k := range r.Capabilities {
		fmt.Fprintf(&b, "- `%s/%s` %s at %s (%s)\n", k.Kind, k.Tag, code(k.Target), code(place(k.File, k.Line)), orNone(k.Verification))
	}
	b.WriteString("\n</details>\n")
	fmt.Fprintf(&b, "\n<details><summary>Attested manifest: %s</summary>\n\n", orNone(r.Manifest.ManifestHash))
	for _, t := range r.Manifest.Tools {
		h := t.Hash
		if h == "" {
			h = t.Reason
		}
		fmt.Fprintf(&b, "- %s `%s`\n", code(t.Name), h)
	}
	b.WriteString("\n</details>\n")
	if a := r.Against; a != nil {
		fmt.Fprintf(&b, "\n#### Against `%s` (%s%s)\n\n| tool | change | what a gateway pinning it sees |\n| --- | --- | --- |\n", a.Package.Key(), a.Verdict, gradeSuffix(a.Grade))
		for _, t := range a.Tools {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", code(t.Name), t.Change, md(t.Gateway))
		}
	} else if r.AgainstNote != "" {
		fmt.Fprintf(&b, "\nAgainst a published version: %s.\n", md(r.AgainstNote))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
