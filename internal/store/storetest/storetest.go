// Package storetest builds synthetic publications (publication.Publication
// values) for the tests of the loader and the API, and for the load test's
// seed. Hashes are computed by internal/manifest exactly as a real decision
// computes them, so a gateway check against a synthetic manifest is real.
//
// It never touches a database or the file system; it is not used by any
// production path.
package storetest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/attestari/attestari/internal/decision"
	"github.com/attestari/attestari/internal/manifest"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/publication"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// ExtractorVersion is the extractor version synthetic rows carry.
const ExtractorVersion = "syntax-tree-4"

// Publication returns an empty publication with its header filled in.
func Publication(id, runID string, at time.Time) *publication.Publication {
	return &publication.Publication{
		Header: publication.Header{
			Schema: publication.Schema, ID: id, RunID: runID, PublishedAt: at, Day0: at.Add(-30 * 24 * time.Hour),
			MethodologyVersion: methodology.Version, MethodologySHA256: methodology.SHA256(),
			Decided: stamps(at.Add(-31 * 24 * time.Hour)), RunStartedAt: at.Add(-32 * 24 * time.Hour),
			RunFinishedAt: at.Add(-32*24*time.Hour + 2*time.Hour),
		},
		GateMap: decision.ExportGateMap(),
		Blobs:   map[string][]byte{},
	}
}

func stamps(at time.Time) decision.Stamps {
	return decision.Stamps{
		Policy: "test", MethodologyVersion: methodology.Version, MethodologySHA256: methodology.SHA256(),
		CodeCommit: "0000000", DecidedAt: at, ExtractorVersion: ExtractorVersion,
	}
}

// Tool returns a published tool with its hash computed under docs/manifest.md.
// state is a description state (readable, partial, unreadable, absent).
func Tool(name, state, description, schemaKind, schema string) publication.Tool {
	th := manifest.HashTool(rundir.Entry{Kind: vocab.EntryTool, Name: name, DescriptionState: state, DescriptionRaw: description, SchemaKind: schemaKind, SchemaRaw: schema})
	return publication.Tool{Name: name, DescriptionState: state, DescriptionRaw: description, SchemaKind: schemaKind,
		SchemaRaw: schema, ToolHash: th.Hash, Reason: th.Reason, File: "index.js", Line: 1}
}

// Package returns a package version as published. verdict is graded,
// not_gradeable or out_of_scope; grade is set only for graded; codes are
// blocked_by for not_gradeable and the reason for out_of_scope.
func Package(registry, name, version, verdict, grade string, codes []string, tools ...publication.Tool) publication.Package {
	ref := rundir.PackageRef{Registry: registry, Name: name, Version: version}
	sum := sha256.Sum256([]byte(ref.Key()))
	entries := make([]rundir.Entry, len(tools))
	for i, t := range tools {
		entries[i] = rundir.Entry{Kind: vocab.EntryTool, Name: t.Name, DescriptionState: t.DescriptionState, DescriptionRaw: t.DescriptionRaw, SchemaKind: t.SchemaKind, SchemaRaw: t.SchemaRaw}
	}
	outcome := vocab.OutcomeParsed
	if verdict == vocab.VerdictNotGradeable {
		outcome = vocab.OutcomeMinifiedOnly
	}
	att := manifest.Compute(&rundir.Surface{Outcome: outcome, Tools: entries})
	row := decision.PackageRow{
		Row: vocab.RowPackage, Stamps: stamps(time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)),
		Subject: decision.Subject{ToolHashes: att.Tools, ManifestHash: att.ManifestHash, ManifestReason: att.Reason},
		Package: ref, Verdict: verdict, Grade: grade, SurfaceOutcome: outcome,
		ArtifactSHA256: hex.EncodeToString(sum[:]),
		MCPSurface:     &decision.MCPSurface{Tools: len(tools)},
		Capabilities:   []decision.CapabilityRow{},
	}
	switch verdict {
	case vocab.VerdictNotGradeable:
		row.BlockedBy = codes
	case vocab.VerdictOutOfScope:
		if len(codes) > 0 {
			row.Reason = codes[0]
		}
	}
	if tools == nil {
		tools = []publication.Tool{}
	}
	return publication.Package{PackageRow: row, DecidedVerdict: verdict, DecidedGrade: grade, Tools: tools,
		NotAssessed: []string{vocab.CheckUndeclaredNetworkCalls, vocab.CheckDependencyRisk, vocab.CheckAbandonment, vocab.CheckForkDivergence}}
}

// Capability returns one capability inventory entry.
func Capability(kind, tag, target, file string, line int) decision.CapabilityRow {
	sum := sha256.Sum256([]byte(file))
	return decision.CapabilityRow{Capability: rundir.Capability{Kind: kind, Tag: tag, Target: target, File: file, Line: line,
		FileSHA256: hex.EncodeToString(sum[:]), Excerpt: target, Count: 1, Verification: decision.CapVerified}}
}

// Blob adds bytes to the publication's evidence and returns their SHA-256.
func Blob(p *publication.Publication, path, contentType string, body []byte) string {
	sum := sha256.Sum256(body)
	sha := hex.EncodeToString(sum[:])
	if _, ok := p.Blobs[sha]; !ok {
		p.Blobs[sha] = body
		p.Evidence = append(p.Evidence, publication.EvidenceItem{SHA256: sha, ContentType: contentType, Size: int64(len(body)), Kind: vocab.EvidenceKindFile, Path: path})
	}
	return sha
}

// Finding adds a finding about pkg whose evidence is file (published whole
// as a blob) and whose excerpt is quote, found on the line it is on.
func Finding(p *publication.Publication, pkg publication.Package, id, status, severity, entry string, path string, file []byte, quote string) publication.Finding {
	sha := Blob(p, path, "text/javascript", file)
	line := 1
	for i := 0; i+len(quote) <= len(file); i++ {
		if string(file[i:i+len(quote)]) == quote {
			break
		}
		if file[i] == '\n' {
			line++
		}
	}
	qs := sha256.Sum256([]byte(quote))
	f := publication.Finding{
		FindingRow: decision.FindingRow{
			Row: vocab.RowFinding, Stamps: pkg.Stamps, Subject: pkg.Subject, ID: id, Package: pkg.Package,
			Check: vocab.CheckModel, Tag: "exfiltrate_data", Title: fmt.Sprintf("The description of %s instructs the model", entry),
			SurfaceKind: vocab.EntryTool, EntryName: entry, SeverityAssigned: severity, SeverityDecided: severity,
			Decision: vocab.DecisionConfirmed, Rule: vocab.RuleD1,
			Evidence:       rundir.Evidence{SHA256: sha, Path: path, LineStart: line, LineEnd: line, Excerpt: quote},
			EvidenceSHA256: sha, ExcerptSHA256: hex.EncodeToString(qs[:]),
			Verification: decision.Verification{Outcome: decision.Verified, Excerpt: decision.Verified, Verifier: decision.Verified},
		},
		Status: status, Appeals: []publication.AppealStatus{},
		PublishedEvidence: publication.EvidenceRef{SHA256: sha, Kind: vocab.EvidenceKindFile},
	}
	p.Findings = append(p.Findings, f)
	return f
}
