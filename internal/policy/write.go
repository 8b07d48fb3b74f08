package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Files a decision writes into the run directory.
const (
	DecisionsFile      = "decisions.json"
	DecisionsLinesFile = "decisions.jsonl"
	DecisionsMarkdown  = "decisions.md"
	GateMapFile        = "gate_map.json"
)

// WriteDecisions writes decisions.json, decisions.jsonl (the header, then
// each package, then each finding, one JSON object per line, every line
// stamped, then each candidate not examined), decisions.md and
// gate_map.json into dir, each atomically.
func WriteDecisions(dir string, d *Decisions) error {
	doc, err := rundir.Marshal(d)
	if err != nil {
		return fmt.Errorf("policy: encode %s: %w", DecisionsFile, err)
	}
	lines, err := MarshalLines(d)
	if err != nil {
		return fmt.Errorf("policy: encode %s: %w", DecisionsLinesFile, err)
	}
	for _, f := range []struct {
		name string
		b    []byte
	}{
		{DecisionsFile, doc},
		{DecisionsLinesFile, lines},
		{DecisionsMarkdown, Markdown(d)},
		{GateMapFile, ExportGateMap()},
	} {
		if err := rundir.WriteFileAtomic(filepath.Join(dir, f.name), f.b); err != nil {
			return fmt.Errorf("policy: %w", err)
		}
	}
	return nil
}

// MarshalLines encodes the rows as decisions.jsonl.
func MarshalLines(d *Decisions) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d.Header); err != nil {
		return nil, err
	}
	for _, p := range d.Packages {
		if err := enc.Encode(p); err != nil {
			return nil, err
		}
	}
	for _, f := range d.Findings {
		if err := enc.Encode(f); err != nil {
			return nil, err
		}
	}
	for _, n := range d.NotExamined {
		if err := enc.Encode(n); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// mdCell makes text safe inside a Markdown table cell.
func mdCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.ReplaceAll(s, "\n", " ")
}

// Markdown summarises the decisions for reading (decisions.md).
func Markdown(d *Decisions) []byte {
	var b bytes.Buffer
	h := d.Header
	fmt.Fprintf(&b, "# Decisions for run %s\n\n", mdCell(h.RunID))
	fmt.Fprintf(&b, "- policy: %s, methodology %s (sha256 %s)\n", h.Policy, h.MethodologyVersion, h.MethodologySHA256)
	fmt.Fprintf(&b, "- extractor: %s (version pair allowed: %t); verifier: %s (run: %s)\n", mdCell(h.ExtractorVersion), h.VersionPairAllowed, h.VerifierVersion, mdCell(h.RunVerifierVersion))
	fmt.Fprintf(&b, "- analyzer: %s; prompt sha256: %s (%s)\n", mdCell(orNone(h.AnalyzerModel)), orNone(h.PromptSHA256), h.PromptSHA256Source)
	fmt.Fprintf(&b, "- code: %s (dirty: %t); decided at %s\n", orNone(h.CodeCommit), h.CodeDirty, h.DecidedAt.Format("2006-01-02T15:04:05Z07:00"))
	if len(h.MissingFiles) > 0 {
		fmt.Fprintf(&b, "- missing run files: %s\n", strings.Join(h.MissingFiles, ", "))
	}
	c := h.Counts
	fmt.Fprintf(&b, "\n## Counts\n\n%d packages: %d graded, %d not gradeable, %d out of scope. Findings: %d confirmed, %d noted, %d withheld.\n",
		c.Packages, c.Graded, c.NotGradeable, c.OutOfScope, c.Findings.Confirmed, c.Findings.Noted, c.Findings.Withheld)
	if c.NotExamined > 0 {
		fmt.Fprintf(&b, "\n%d candidates were not examined and are in none of these counts (Not examined, below).\n", c.NotExamined)
	}
	if len(c.Grades) > 0 {
		b.WriteString("\n| grade | packages |\n| --- | --- |\n")
		for _, g := range []string{"A", "B", "C", "F"} {
			if n := c.Grades[g]; n > 0 {
				fmt.Fprintf(&b, "| %s | %d |\n", g, n)
			}
		}
	}
	if len(c.Reasons) > 0 {
		b.WriteString("\n| reason | guard | packages | meaning |\n| --- | --- | --- | --- |\n")
		for _, e := range vocab.GateMap {
			if n := c.Reasons[e.Code]; n > 0 {
				fmt.Fprintf(&b, "| `%s` | %s | %d | %s |\n", e.Code, e.Guard, n, mdCell(e.Line))
			}
		}
	}

	b.WriteString("\n## Packages\n\n| package | verdict | grade | blocked by | manifest hash |\n| --- | --- | --- | --- | --- |\n")
	for _, p := range d.Packages {
		reasons := strings.Join(p.BlockedBy, ", ")
		if p.Verdict == vocab.VerdictOutOfScope {
			reasons = p.Reason
		}
		mh := p.ManifestHash
		if mh == "" {
			mh = "none: " + p.ManifestReason
		} else {
			mh = "`" + mh[:16] + "…`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", mdCell(p.Package.Key()), p.Verdict, orDash(p.Grade), orDash(reasons), mh)
	}

	refusals(&b, d.Packages)

	var shown, withheld []FindingRow
	for _, f := range d.Findings {
		if f.Decision != vocab.DecisionWithheld {
			shown = append(shown, f)
		} else {
			withheld = append(withheld, f)
		}
	}
	sort.SliceStable(shown, func(i, j int) bool {
		return severityRank[shown[i].SeverityDecided] > severityRank[shown[j].SeverityDecided]
	})
	if len(shown) > 0 {
		b.WriteString("\n## Findings of graded packages\n\n| package | finding | check | tag | decided | rule | where | verification | excerpt |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for _, f := range shown {
			rule := f.Rule
			if len(f.SeverityRules) > 0 {
				rule += " (" + strings.Join(f.SeverityRules, ", ") + ")"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				mdCell(f.Package.Key()), mdCell(f.ID), f.Check, mdCell(f.Tag), f.SeverityDecided, rule,
				mdCell(findingWhere(f)), mdCell(verificationCell(f.Verification)), mdCell(fmt.Sprintf("%q", f.Evidence.Excerpt)))
		}
	}
	if len(withheld) > 0 {
		fmt.Fprintf(&b, "\n## Withheld findings\n\nWithheld with their packages (D3, D4), never published: %d.\n\n| package | finding | check | tag | assigned | rule | where | verification | excerpt |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n", len(withheld))
		for _, f := range withheld {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
				mdCell(f.Package.Key()), mdCell(f.ID), f.Check, mdCell(f.Tag), f.SeverityAssigned, f.Rule,
				mdCell(findingWhere(f)), mdCell(verificationCell(f.Verification)), mdCell(fmt.Sprintf("%q", f.Evidence.Excerpt)))
		}
	}
	if len(d.NotExamined) > 0 {
		fmt.Fprintf(&b, "\n## Not examined\n\n%d candidates were not examined: the run could not examine what the candidates file asked for (methodology §4). They are not packages of this decision: no count above includes them and nothing of them is published. Correct the candidates file or the configuration and run again.\n\n| candidate | stage | kind | reason |\n| --- | --- | --- | --- |\n", len(d.NotExamined))
		for _, n := range d.NotExamined {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(n.Package.Key()), mdCell(n.Stage), mdCell(n.Kind), mdCell(n.Reason))
		}
	}
	return b.Bytes()
}

// refusals writes each refused package's reasons in the order recorded: what
// failed, where, and the names involved, then each partial description with
// its holes marked.
func refusals(b *bytes.Buffer, pkgs []PackageRow) {
	first := true
	for _, p := range pkgs {
		if p.Verdict != vocab.VerdictNotGradeable || len(p.Blocking) == 0 {
			continue
		}
		if first {
			b.WriteString("\n## Refusals\n")
			first = false
		}
		fmt.Fprintf(b, "\n### %s\n\n| reason | guard | what failed | where | names |\n| --- | --- | --- | --- | --- |\n", mdCell(p.Package.Key()))
		var partial []PartialEntry
		for _, r := range p.Blocking {
			fmt.Fprintf(b, "| `%s` | %s | %s | %s | %s |\n", r.Code, r.Guard, mdCell(orDash(r.Detail)), mdCell(orDash(place(r.File, r.Line))), mdCell(orDash(reasonNames(r))))
			partial = append(partial, r.Partial...)
		}
		if len(partial) > 0 {
			b.WriteString("\nPartial descriptions, each substitution the extractor could not read marked «like this» at its place:\n")
			for _, e := range partial {
				fmt.Fprintf(b, "\n- %s %s (%s):\n\n", strings.ReplaceAll(e.Kind, "_", " "), mdCell(e.Name), mdCell(place(e.File, e.Line)))
				for _, line := range strings.Split(MarkHoles(e, "«", "»"), "\n") {
					b.WriteString("  > " + line + "\n")
				}
			}
		}
	}
}

// MarkHoles returns a partial entry's text with each hole's source written
// at its offset between open and close, so a reader sees every gap.
func MarkHoles(e PartialEntry, open, close string) string {
	var out strings.Builder
	at := 0
	for _, h := range e.Holes {
		if h.Offset < at || h.Offset > len(e.Text) {
			continue
		}
		out.WriteString(e.Text[at:h.Offset])
		out.WriteString(open + h.Source + close)
		at = h.Offset
	}
	out.WriteString(e.Text[at:])
	return out.String()
}

// reasonNames lists a reason's names, then the findings it rests on.
func reasonNames(r Blocking) string {
	names := slices.Clone(r.Names)
	for _, f := range r.Findings {
		names = append(names, "finding "+f)
	}
	return strings.Join(names, ", ")
}

// place is "file:line", "file" without a line, or "" without a file.
func place(file string, line int) string {
	switch {
	case file == "":
		return ""
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// findingWhere is a finding's span: "path:start-end", or "path:line".
func findingWhere(f FindingRow) string {
	ev := f.Evidence
	switch {
	case ev.LineStart > 0 && ev.LineEnd > ev.LineStart:
		return fmt.Sprintf("%s:%d-%d", ev.Path, ev.LineStart, ev.LineEnd)
	case ev.LineStart > 0:
		return fmt.Sprintf("%s:%d", ev.Path, ev.LineStart)
	}
	return ev.Path
}

// verificationCell is what G6 and G7 concluded, with why when it failed.
func verificationCell(v Verification) string {
	s := v.Outcome
	if v.Outcome != Verified {
		s += " (excerpt " + v.Excerpt + ", verifier " + v.Verifier
		if v.Detail != "" {
			s += ": " + v.Detail
		}
		s += ")"
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
