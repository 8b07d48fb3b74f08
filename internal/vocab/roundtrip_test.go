package vocab_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// TestRunFilesRoundTrip: every vocabulary string a stage writes into a run
// file, written the way the stages write (rundir.WriteJSON), is read back by
// the reader every later stage uses (rundir.Read, unknown fields refused) as
// the same string, and re-encoding what was read gives the same bytes, so
// decide, publish and a resume read exactly what the run wrote.
func TestRunFilesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ref := rundir.PackageRef{Registry: "npm", Name: "roundtrip", Version: "1.0.0"}
	outcomes := []string{vocab.OutcomeParsed, vocab.OutcomeNotAServer, vocab.OutcomeMinifiedOnly, vocab.OutcomeRuntimeGenerated,
		vocab.OutcomeDeclarationNotParsed, vocab.OutcomeNoRegistrationSite, vocab.OutcomeArchiveUnreadable, vocab.OutcomeExtractionBudgetExceeded}
	states := []string{vocab.StateReadable, vocab.StatePartial, vocab.StateUnreadable, vocab.StateAbsent}
	checks := []string{vocab.CheckProvenance, vocab.CheckSurface, vocab.CheckModel}
	results := []string{vocab.ResultRan, vocab.ResultNoDescriptions, vocab.ResultDescriptionsUnreadable, vocab.ResultSkipped, vocab.ResultError, vocab.ResultFailed}
	kinds := []string{vocab.KindNPMPackument, vocab.KindNPMVersion, vocab.KindNPMTarball, vocab.KindNPMAttestations, vocab.KindPyPIJSON,
		vocab.KindPyPISimple, vocab.KindPyPIProvenance, vocab.KindPyPIFile, vocab.KindRepository, vocab.KindRepositoryOwner, vocab.KindRepositoryCommit}
	recordOutcomes := []string{vocab.RecordOK, vocab.RecordOKSHA1Only, vocab.RecordNotFound, vocab.RecordIntegrityMismatch, vocab.RecordNoIntegrity,
		vocab.RecordTooLarge, vocab.RecordHTTPError, vocab.RecordNetworkError, vocab.RecordMalformed, vocab.RecordInvalidRequest, vocab.RecordCanceled}
	severities := []string{vocab.SeverityHigh, vocab.SeverityMedium, vocab.SeverityLow, vocab.SeverityInfo}
	failures := []string{vocab.FailureRegistryNotConfigured, vocab.FailureNoMatchingVersion, vocab.FailureInvalidSpecifier,
		vocab.FailureUnsupportedSpecifier, vocab.FailureNoDistribution, vocab.FailureEvidenceStore, vocab.FailureCorruptBlob,
		vocab.FailureExtractorUnavailable, vocab.FailureExtractorError, vocab.FailureExtractorCrashed, vocab.FailureExtractorAbandoned,
		vocab.FailureCheckError, vocab.FailurePanic, vocab.FailureInternal}
	stages := []string{vocab.StageFetch, vocab.StageSurface, vocab.StageGate, vocab.StagePipeline, vocab.CheckModel}

	entryKinds := []string{vocab.EntryTool, vocab.EntryPrompt, vocab.EntryPromptText, vocab.EntryResource, vocab.EntryResourceTemplate,
		vocab.EntryInstructions, vocab.EntryParameterDescription}
	schemaKinds := []string{vocab.SchemaJSON, vocab.SchemaSource, vocab.SchemaNone}

	var surfaces []rundir.Surface
	for _, o := range outcomes {
		s := rundir.Surface{Package: ref, Outcome: o}
		for _, st := range states {
			s.Tools = append(s.Tools, rundir.Entry{Kind: vocab.EntryTool, Name: st, NameState: st, DescriptionState: st})
		}
		surfaces = append(surfaces, s)
	}
	for _, reg := range []string{vocab.RegistryNPM, vocab.RegistryPyPI} {
		s := rundir.Surface{Package: rundir.PackageRef{Registry: reg, Name: "kinds", Version: "1.0.0"}, Outcome: vocab.OutcomeParsed}
		for _, k := range entryKinds {
			for _, sk := range schemaKinds {
				if !s.Add(k, rundir.Entry{Kind: k, Name: k + "_" + sk, DescriptionState: vocab.StateReadable, SchemaKind: sk}) {
					t.Errorf("rundir.Surface.Add has no list for entry kind %q", k)
				}
			}
		}
		surfaces = append(surfaces, s)
	}
	var res []rundir.Result
	var findings []rundir.Finding
	var notAnalyzed []rundir.NotAnalyzed
	for _, c := range checks {
		for _, o := range results {
			res = append(res, rundir.Result{Package: ref, Check: c, Outcome: o})
		}
		for _, sev := range severities {
			findings = append(findings, rundir.Finding{ID: c + sev, Package: ref, Check: c, Tag: vocab.TagReassigned, Severity: sev})
		}
		for _, k := range entryKinds {
			notAnalyzed = append(notAnalyzed, rundir.NotAnalyzed{Package: ref, Check: c, Kind: k, Name: "x", Reason: vocab.ResultDescriptionsUnreadable})
		}
	}
	var records []rundir.Record
	for _, k := range kinds {
		for _, o := range recordOutcomes {
			records = append(records, rundir.Record{Package: ref, Kind: k, Outcome: o})
		}
	}
	var gradeable []rundir.Gradeable
	for _, e := range vocab.GateMap {
		gradeable = append(gradeable, rundir.Gradeable{Package: ref, Reasons: []string{e.Code}})
	}
	ps := rundir.PackageSummary{Package: ref}
	for _, st := range stages {
		for _, f := range append(append([]string(nil), failures...), recordOutcomes...) {
			ps.Failures = append(ps.Failures, rundir.Failure{Stage: st, Kind: f, Message: "m"})
		}
	}
	summary := rundir.Summary{Packages: []rundir.PackageSummary{ps}, Counts: map[string]int{}}

	written := map[string]any{
		rundir.SurfacesFile: surfaces, rundir.ResultsFile: res, rundir.FindingsFile: findings,
		rundir.NotAnalyzedFile: notAnalyzed, rundir.RecordsFile: records, rundir.GradeableFile: gradeable,
		rundir.SummaryFile: summary,
	}
	for name, v := range written {
		if err := rundir.WriteJSON(dir, name, v); err != nil {
			t.Fatal(err)
		}
	}
	f, err := rundir.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	read := map[string]any{
		rundir.SurfacesFile: f.Surfaces, rundir.ResultsFile: f.Results, rundir.FindingsFile: f.Findings,
		rundir.NotAnalyzedFile: f.NotAnalyzed, rundir.RecordsFile: f.Records, rundir.GradeableFile: f.Gradeable,
		rundir.SummaryFile: f.Summary,
	}
	for name, v := range written {
		if !reflect.DeepEqual(read[name], v) {
			t.Errorf("%s: read back differs from what was written", name)
		}
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		again, err := rundir.Marshal(read[name])
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: re-encoding what was read gives other bytes (%v)", name, err)
		}
	}
}

// TestDecisionFilesRoundTrip: the vocabulary strings a decision and a
// publication write (the shared-hosts source of a row, the tool changes of
// diff.json, the evidence kinds of a publication, the entry kinds of a
// finding), written as decide and publish write them (rundir.WriteJSON), are
// read back strictly (unknown fields refused) as the same strings and
// re-encode to the same bytes.
func TestDecisionFilesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	ref := rundir.PackageRef{Registry: vocab.RegistryPyPI, Name: "roundtrip", Version: "1.0.0"}
	var rows []decision.FindingRow
	for _, k := range []string{vocab.EntryTool, vocab.EntryPrompt, vocab.EntryResource, vocab.EntryResourceTemplate,
		vocab.EntryInstructions, vocab.EntryParameterDescription} {
		rows = append(rows, decision.FindingRow{Row: vocab.RowFinding, ID: k, Package: ref, SurfaceKind: k,
			Stamps: decision.Stamps{SharedHostsSource: vocab.SharedHostsDecidingMachine}})
	}
	var changes []decision.ToolChange
	for _, c := range []string{vocab.ChangeAdded, vocab.ChangeRemoved, vocab.ChangeDescription, vocab.ChangeSchema, vocab.ChangeDescriptionAndSchema} {
		changes = append(changes, decision.ToolChange{Name: c, Change: c})
	}
	diff := decision.RunDiff{RunID: "r", Manifests: []decision.ManifestChange{{Registry: vocab.RegistryNPM, Name: "n", Tools: changes}}}
	var items []publication.EvidenceItem
	for _, k := range []string{vocab.EvidenceKindFile, vocab.EvidenceKindProjection} {
		items = append(items, publication.EvidenceItem{SHA256: k, Kind: k})
	}
	header := decision.Header{Row: vocab.RowHeader}
	pkgs := []decision.PackageRow{{Row: vocab.RowPackage, Package: ref}}
	notExamined := []decision.NotExaminedRow{{Row: vocab.RowNotExamined, Package: ref}}
	cases := []struct {
		name        string
		value, into any
	}{
		{"findings.json", rows, &[]decision.FindingRow{}},
		{"header.json", header, &decision.Header{}},
		{"packages.json", pkgs, &[]decision.PackageRow{}},
		{"not_examined.json", notExamined, &[]decision.NotExaminedRow{}},
		{decision.DiffFile, diff, &decision.RunDiff{}},
		{publication.EvidenceFile, items, &[]publication.EvidenceItem{}},
	}
	for _, c := range cases {
		if err := rundir.WriteJSON(dir, c.name, c.value); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(c.into); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := reflect.ValueOf(c.into).Elem().Interface()
		if !reflect.DeepEqual(got, c.value) {
			t.Errorf("%s: read back differs from what was written", c.name)
		}
		again, err := rundir.Marshal(got)
		if err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: re-encoding what was read gives other bytes (%v)", c.name, err)
		}
	}
}
