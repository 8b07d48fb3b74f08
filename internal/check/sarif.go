package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/owenrumney/go-sarif/v2/sarif"

	"github.com/attestari/attestari/internal/vocab"
)

// sarifToolName is the SARIF driver's name.
const sarifToolName = "attestari check"

// manifestFile is the file a reason with no place of its own is reported
// at: the package's own metadata, which stands for the package as a whole.
func manifestFile(r *Report) string {
	if r.Target.Registry == vocab.RegistryPyPI {
		return "PKG-INFO"
	}
	return "package.json"
}

// renderSARIF writes r as SARIF 2.1.0: one rule per reason code and per
// finding (check/tag), one result per finding and per reason, each with a
// physical location (member path relative to the package root, and lines).
func renderSARIF(w io.Writer, r *Report) error {
	rep, err := sarif.New(sarif.Version210, false)
	if err != nil {
		return err
	}
	rep.Properties = sarif.Properties{"notice": r.Notice}
	driver := sarif.NewVersionedDriver(sarifToolName, r.Versions.Methodology)
	driver.FullName = strPtr("attestari check, methodology " + r.Versions.Methodology + ", extractor " + r.Versions.Extractor + ", verifier " + r.Versions.Verifier)
	run := sarif.NewRun(sarif.Tool{Driver: driver})
	run.Properties = sarif.Properties{
		"notice": r.Notice, "schema": r.Schema, "verdict": r.Verdict.Verdict, "grade": r.Verdict.Grade,
		"blocked_by": r.Verdict.BlockedBy, "manifest_hash": r.Manifest.ManifestHash, "exit_code": r.Exit.Code,
		"package": r.Target.Registry + ":" + r.Target.Name + "@" + r.Target.Version,
	}
	inv := run.AddInvocation(true)
	inv.ExitCode = &r.Exit.Code
	inv.Properties = sarif.Properties{"exit_why": r.Exit.Why}
	for _, x := range r.Reasons {
		rule := run.AddRule(x.Code).WithName(ruleName(x.Code)).WithShortDescription(sarif.NewMultiformatMessageString(x.GateMapLine)).
			WithFullDescription(sarif.NewMultiformatMessageString(x.GateMapLine)).WithTextHelp(x.Remedy)
		rule.Properties = sarif.Properties{"guard": x.Guard, "kind": "refusal_reason"}
		level := "error"
		if x.Tolerated {
			level = "warning"
		}
		msg := x.GateMapLine
		if x.Detail != "" {
			msg += " " + x.Detail + "."
		}
		msg += " Remedy: " + x.Remedy
		file, line := x.File, x.Line
		if file == "" || !memberPath(file) {
			file, line = manifestFile(r), 0
		}
		res := run.CreateResultForRule(x.Code).WithLevel(level).WithMessage(sarif.NewTextMessage(msg)).
			WithLocations([]*sarif.Location{location(file, line, line, "")})
		res.Properties = sarif.Properties{"tolerated": x.Tolerated}
	}
	for _, f := range r.Findings {
		id := f.Check + "/" + f.Tag
		rule := run.AddRule(id).WithName(ruleName(f.Tag)).WithShortDescription(sarif.NewMultiformatMessageString(f.Title))
		rule.Properties = sarif.Properties{"check": f.Check, "tag": f.Tag, "kind": "finding"}
		sev := f.SeverityDecided
		if sev == "" {
			sev = f.SeverityAssigned
		}
		msg := fmt.Sprintf("%s (%s, %s) on %s %s: %q", f.Title, f.Decision, sev, orNone(f.Kind), orNone(f.Entry), f.Excerpt)
		loc := location(f.File, f.LineStart, f.LineEnd, f.Excerpt)
		if f.InRecord {
			// The quote is in the registry's document of the version, which
			// package.json (PKG-INFO) stands for in the repository.
			loc = location(manifestFile(r), 0, 0, "")
			msg += " (in the registry record at " + f.File + ")"
		}
		res := run.CreateResultForRule(id).WithLevel(findingLevel(f)).WithMessage(sarif.NewTextMessage(msg)).
			WithLocations([]*sarif.Location{loc})
		res.Properties = sarif.Properties{"finding_id": f.ID, "decision": f.Decision, "severity": sev, "verification": f.Verification}
		res.PartialFingerprints = map[string]interface{}{"attestariFinding/v1": f.ID}
	}
	rep.AddRun(run)
	var buf bytes.Buffer
	if err := rep.PrettyWrite(&buf); err != nil {
		return err
	}
	return leadWithNotice(w, buf.Bytes(), r.Notice)
}

// leadWithNotice rewrites the opening of the indented document so that the
// notice (the report's first member) is on its first line.
func leadWithNotice(w io.Writer, b []byte, notice string) error {
	q, err := json.Marshal(notice)
	if err != nil {
		return err
	}
	opening := "{\n  \"properties\": {\n    \"notice\": " + string(q) + "\n  },\n  "
	s := string(b)
	if rest, ok := strings.CutPrefix(s, opening); ok {
		s = "{\"properties\": {\"notice\": " + string(q) + "},\n  " + rest
	}
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	_, err = io.WriteString(w, s)
	return err
}

// memberPath: a place that names a member of the package (not a record's
// JSON pointer or a registry document).
func memberPath(p string) bool {
	return !strings.HasPrefix(p, "/") && !strings.Contains(p, "://")
}

func location(file string, start, end int, snippet string) *sarif.Location {
	pl := sarif.NewPhysicalLocation().WithArtifactLocation(sarif.NewSimpleArtifactLocation(file))
	if start > 0 {
		if end < start {
			end = start
		}
		reg := sarif.NewSimpleRegion(start, end)
		if snippet != "" {
			reg = reg.WithSnippet(sarif.NewArtifactContent().WithText(snippet))
		}
		pl = pl.WithRegion(reg)
	}
	return sarif.NewLocationWithPhysicalLocation(pl)
}

func findingLevel(f Finding) string {
	if f.Decision != vocab.DecisionConfirmed {
		return "note"
	}
	switch f.SeverityDecided {
	case vocab.SeverityHigh:
		return "error"
	case vocab.SeverityMedium, vocab.SeverityLow:
		return "warning"
	}
	return "note"
}

// ruleName is a rule's name in the SARIF convention (PascalCase).
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.FieldsFunc(code, func(r rune) bool { return r == '_' || r == '/' || r == '-' }) {
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

func strPtr(s string) *string { return &s }
