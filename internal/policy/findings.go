// Decisions D1–D6 (methodology §10) on each finding, and its context tags.

package policy

import (
	"fmt"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// decideFindings applies D1–D6 to a package's findings, or withholds them.
func (d *decider) decideFindings(p *perPackage, s *rundir.Surface, row *PackageRow, verifs []Verification, art *artifactMembers) ([]FindingRow, error) {
	out := make([]FindingRow, 0, len(p.findings))
	// D6: the distinct provenance tags on the package.
	provTags := map[string]bool{}
	for _, f := range p.findings {
		if f.Check == vocab.CheckProvenance {
			provTags[f.Tag] = true
		}
	}
	highest := -1
	for i, f := range p.findings {
		fr := FindingRow{
			Row: vocab.RowFinding, Stamps: row.Stamps, Subject: row.Subject,
			ID: f.ID, Package: f.Package, Check: f.Check, Tag: f.Tag, Title: f.Title,
			SurfaceKind: f.SurfaceKind, EntryName: f.EntryName, Analyzer: f.Analyzer,
			SeverityAssigned: f.Severity, Evidence: f.Evidence,
			EvidenceSHA256: f.Evidence.SHA256, ExcerptSHA256: vocab.SHA256Hex([]byte(f.Evidence.Excerpt)),
			Verification: verifs[i], ContextTags: f.ContextTags,
		}
		if f.Check == vocab.CheckModel && fr.SurfaceKind == "" && f.Tag != vocab.TagReassigned {
			fr.SurfaceKind = vocab.EntryTool
		}
		if f.Check == vocab.CheckModel && f.Tag == "exfiltrate_data" {
			if err := d.contextTags(&fr, f, s, art); err != nil {
				return nil, err
			}
		}
		switch row.Verdict {
		case vocab.VerdictOutOfScope:
			fr.Decision, fr.Rule = vocab.DecisionWithheld, vocab.RuleD4
			fr.BlockedBy = []string{vocab.CodeNotAServer}
			row.Findings.Withheld++
		case vocab.VerdictNotGradeable:
			fr.Decision, fr.Rule = vocab.DecisionWithheld, vocab.RuleD3
			fr.BlockedBy = row.BlockedBy
			row.Findings.Withheld++
		default:
			sev := f.Severity
			if f.Check == vocab.CheckProvenance {
				fr.SeverityRules = append(fr.SeverityRules, vocab.RuleD6)
				sev = vocab.SeverityLow
				if len(provTags) >= 2 {
					sev = vocab.SeverityHigh
				}
			}
			if !Measured(f.Check, f.Tag) {
				fr.SeverityRules = append(fr.SeverityRules, vocab.RuleD5)
				sev = vocab.SeverityInfo
			}
			fr.SeverityDecided = sev
			if sev == vocab.SeverityInfo {
				fr.Decision, fr.Rule = vocab.DecisionNoted, vocab.RuleD2
				row.Findings.Noted++
			} else {
				fr.Decision, fr.Rule = vocab.DecisionConfirmed, vocab.RuleD1
				row.Findings.Confirmed++
				if severityRank[sev] > highest {
					highest = severityRank[sev]
					row.HighestConfirmed = sev
				}
			}
		}
		out = append(out, fr)
	}
	if row.Verdict == vocab.VerdictGraded {
		row.Grade = Grade(row.HighestConfirmed)
	}
	return out, nil
}

// contextTags fills the exfiltrate_data context tags: computed at decision
// time when a tagger is configured, else as the run recorded them, and in
// either case a note when there are none.
func (d *decider) contextTags(fr *FindingRow, f rundir.Finding, s *rundir.Surface, art *artifactMembers) error {
	if d.opts.ContextTags != nil && s != nil {
		member := func(path string) ([]byte, bool) {
			b, _ := art.member(path)
			return b, b != nil
		}
		tags, err := d.opts.ContextTags(d.ctx, f, s, member)
		if err != nil {
			if d.ctx.Err() != nil {
				return fmt.Errorf("policy: decide: context tags of %s: %w", f.ID, err)
			}
			fr.ContextTags = nil
			fr.ContextTagsNote = "context tags not computed: " + err.Error()
			return nil
		}
		fr.ContextTags = tags
	}
	if len(fr.ContextTags) == 0 {
		fr.ContextTagsNote = "context tags not computed: no context-tag analyser ran on this finding"
	}
	return nil
}
