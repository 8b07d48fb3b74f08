package policy

import (
	"slices"

	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// Not examined (docs/methodology.md §4 and §9, "before the guards"): a
// candidate the run could not examine as the operator asked for it. The
// registry answered that the name, or any version the specifier admits, does
// not exist; or the request could not be made at all (a name or specifier
// that is not valid, a specifier form this version does not resolve, a
// registry this machine is not configured for, a run stopped before the
// fetch ended). None of these is a fact about a third party's package, so
// such a candidate is not a subject: it has no package row, it is in no
// count of the population, it is never published, and a diff does not list
// it as removed. It is listed, with the reason, in decisions.json,
// decisions.md and at the end of a run, for the operator to correct.
//
// "The package exists and could not be examined" stays a refusal: a
// registry that answers 5xx, 429 or 403, a network failure, an artifact
// that does not match its published digest or has none, a body past the
// size cap, a malformed document, an artifact the registry lists and does
// not serve, a release with no distribution, a store or extractor failure.
// Each says something about the package or the registry that holds it, or
// leaves open that the package exists, so the row is refused (check_failed)
// and the refusal says what failed.

// notExaminedKinds are the fetch failure kinds (summary.json) that say the
// run could not examine what was asked for, and so may make a candidate not
// examined:
//   - resolution: the package document was received, and no published
//     version matches the specifier, or the specifier is not valid, or it is
//     a form (git, URL, alias, markers) the run does not resolve;
//   - configuration: the candidate's registry has no client on this machine;
//   - the run's context ended the fetch (the operator stopped the run);
//   - the registry has no package of that name (404 or 410 on the package
//     document), or the name is not valid for the registry so nothing was
//     asked (the candidates file's check lets none through today).
//
// nameKinds (the last) need, besides, that the run received no document
// about the package at all, so a 404 on an artifact the registry lists is
// never read as a missing name.
var (
	notExaminedKinds = []string{
		vocab.RecordNotFound, vocab.RecordInvalidRequest,
		vocab.FailureNoMatchingVersion, vocab.FailureInvalidSpecifier, vocab.FailureUnsupportedSpecifier,
		vocab.FailureRegistryNotConfigured, vocab.RecordCanceled,
	}
	nameKinds = []string{vocab.RecordNotFound, vocab.RecordInvalidRequest}
)

// NotExaminedKind reports whether a fetch failure of this kind can make a
// candidate not examined (it does when NotExamined's other conditions hold).
func NotExaminedKind(kind string) bool { return slices.Contains(notExaminedKinds, kind) }

// received reports whether the run received any document about the package
// whole (a record with outcome ok or ok_sha1_only).
func received(recs []rundir.Record) bool {
	for _, r := range recs {
		if r.Outcome == vocab.RecordOK || r.Outcome == vocab.RecordOKSHA1Only {
			return true
		}
	}
	return false
}

// notExamined is the rule for one package: a selected candidate (not one
// that joined by delegation, which the run resolved at its registry and so
// exists), with no surface row (no artifact of it was read), whose summary
// records a fetch failure of a not-examined kind; for a name kind,
// records.json exists and holds no document about the package received
// whole. Anything else is decided under the guards.
//
// Result rows and findings do not stop the rule: publisher_provenance runs
// on whatever registry documents the fetch received, artifact or not. They
// are not decided: without a surface row the package would be refused
// (gate_not_recomputable) and every one of its findings withheld (D3), so
// setting the candidate apart publishes nothing that deciding it would
// have published but the refusal itself.
func notExamined(p *perPackage, recordsMissing bool) (rundir.Failure, bool) {
	if p.joined || len(p.surfaces) > 0 {
		return rundir.Failure{}, false
	}
	for _, f := range p.failures {
		if f.Stage != vocab.StageFetch || !NotExaminedKind(f.Kind) {
			continue
		}
		if slices.Contains(nameKinds, f.Kind) && (recordsMissing || received(p.records)) {
			continue
		}
		return f, true
	}
	return rundir.Failure{}, false
}

// NotExamined returns the candidates of a run's files that the run could
// not examine as asked, in key order, with the failure that says so: the
// rows Decide sets apart. The end of a run reads it to tell the operator
// which failures are theirs to correct.
func NotExamined(f *rundir.Files) []NotExaminedRow {
	g := groupRun(f)
	var out []NotExaminedRow
	for _, k := range g.keys {
		p := g.pkgs[k]
		if fl, ok := notExamined(p, has(f.Missing, rundir.RecordsFile)); ok {
			out = append(out, NotExaminedRow{Row: vocab.RowNotExamined, Package: p.ref, Stage: fl.Stage, Kind: fl.Kind, Reason: fl.Message})
		}
	}
	return out
}
