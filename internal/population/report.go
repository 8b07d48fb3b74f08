package population

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// gateMapAnchor is where docs/population.md links each reason code: the
// methodology's table of codes (§9), beside which analysis/gate_map.json
// is the same list as data.
const gateMapAnchor = "methodology.md#9-gradeability-the-gate-fails-closed"

// WriteJSON writes the figures as one indented JSON object.
func WriteJSON(w io.Writer, f *Figures) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(f)
}

// WriteMarkdown writes the figures as docs/population.md states them:
// the run and its versions, the command that wrote the page, the three
// groups of §4 kept apart, the refusals by reason code and the findings by
// decision. It names no package. The page is a function of the decision
// alone (its date is the decision's), so writing it twice gives the same
// bytes.
func WriteMarkdown(w io.Writer, f *Figures, command string) error {
	var b strings.Builder
	pct := func(n, of int) string {
		if of == 0 {
			return "–"
		}
		return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
	}
	fmt.Fprintf(&b, "# The latest pass\n\n")
	fmt.Fprintf(&b, "Run `%s`, decided %s under methodology %s (extractor `%s`, verifier `%s`, analyzer `%s`); candidates file `%s` (SHA-256 `%s`).\n\n",
		f.RunID, f.DecidedAt.Format("2006-01-02 15:04 UTC"), f.MethodologyVersion, f.ExtractorVersion, f.VerifierVersion, orNone(f.AnalyzerModel), f.CandidatesFile, f.CandidatesSHA256)
	fmt.Fprintf(&b, "Written by `%s`. Figures only: no package is named and no package text is quoted here.\n\n", command)
	b.WriteString("A grade rests on the analyzer named above: [model-check.md](model-check.md) says whether that analyzer has passed the admission test of §18.\n\n")
	b.WriteString("Every count is over the selected sample (methodology §4 and §18), not over a registry. The three groups of §4 are kept apart: servers examined and graded, servers that could not be graded, and packages that are not servers.\n\n")

	b.WriteString("## The sample\n\n| group | packages | share of the examined |\n| --- | ---: | ---: |\n")
	fmt.Fprintf(&b, "| examined (every package row; %d joined as delegation targets) | %d | 100%% |\n", f.DelegationTargets, f.Packages)
	fmt.Fprintf(&b, "| servers graded (gradeable) | %d | %s |\n", f.Gradeable, pct(f.Gradeable, f.Packages))
	fmt.Fprintf(&b, "| servers not gradeable | %d | %s |\n", f.NotGradeable, pct(f.NotGradeable, f.Packages))
	fmt.Fprintf(&b, "| not servers (out of scope, `not_a_server`) | %d | %s |\n", f.OutOfScope, pct(f.OutOfScope, f.Packages))
	fmt.Fprintf(&b, "\nSelected candidates the run could not examine as asked (§4: not a subject, in no count above): %d.\n\n", f.NotExamined)

	b.WriteString("## Grades of the graded servers\n\n| grade | packages |\n| --- | ---: |\n")
	for _, g := range []string{"A", "B", "C", "F"} {
		fmt.Fprintf(&b, "| %s | %d |\n", g, f.Grades[g])
	}

	b.WriteString("\n## Not gradeable, by reason code\n\n")
	b.WriteString("A package refused on several codes is counted under each; \"alone\" counts the packages refused on that code and no other, apart from `gate_failed_as_recorded` and `not_analyzed_recorded`, which restate the gate the run recorded.\n\n")
	b.WriteString("| reason code | refusals including it | on it alone |\n| --- | ---: | ---: |\n")
	for _, r := range f.Reasons {
		fmt.Fprintf(&b, "| [`%s`](%s) | %d | %d |\n", r.Code, gateMapAnchor, r.Packages, r.Alone)
	}
	if len(f.Reasons) == 0 {
		b.WriteString("| (none) | 0 | 0 |\n")
	}

	b.WriteString("\n## Findings, by decision\n\n| decision | findings |\n| --- | ---: |\n")
	fmt.Fprintf(&b, "| confirmed (D1) | %d |\n| noted (D2) | %d |\n| withheld (D3, D4) | %d |\n", f.Findings.Confirmed, f.Findings.Noted, f.Findings.Withheld)
	_, err := io.WriteString(w, b.String())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
