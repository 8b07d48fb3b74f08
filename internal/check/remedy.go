package check

import (
	"fmt"
	"strings"

	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/vocab"
)

// remedies holds, for every reason code the policy can record (vocab.GateMap),
// what a publisher changes in the package so that the pass can read its
// surface. Each reads the reason's own detail and places (policy.Blocking),
// so the remedy names the file:line that causes it. A test fails when a code
// of the gate map has none.
var remedies = map[string]func(b policy.Blocking, s *rundir.Surface) string{
	vocab.CodeVersionPairNotAllowed: func(b policy.Blocking, _ *rundir.Surface) string {
		return "This build of attestari reads with an extractor the methodology in force does not allow; install the release whose `attestari version` the pass uses and check again. Nothing in the package causes this."
	},
	vocab.CodeGateNotRecorded: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The run wrote no gate row for the package, usually because an earlier stage failed; fix the failure listed under failures and check again."
	},
	vocab.CodeGateFailedAsRecorded: func(b policy.Blocking, _ *rundir.Surface) string {
		if len(b.Names) > 0 {
			return "This is the gate's own refusal; fix the reasons it recorded (" + strings.Join(b.Names, ", ") + "), each listed with its own remedy."
		}
		return "This is the gate's own refusal; fix the other reasons listed, each with its own remedy."
	},
	vocab.CodeGateNotRecomputable: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The extractor produced no surface for the package (see failures); make the archive readable (a plain npm pack tarball, wheel or sdist) and check again."
	},
	vocab.CodeMinifiedOnly: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The tools are registered only inside minified code" + atDetail(b) + "; ship a readable build (unminified JavaScript or the TypeScript sources with their registration calls) in the package beside or instead of the bundle."
	},
	vocab.CodeRuntimeGenerated: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The tools are built from data read when the server runs" + atDetail(b) + "; declare each tool in the source (name, description and schema as literals or constants) so the published artifact says what it exposes."
	},
	vocab.CodeDeclarationNotParsed: func(b policy.Blocking, _ *rundir.Surface) string {
		return "A registration in readable source could not be read to its name and text" + atDetail(b) + "; write the tool's name and description as string literals or constants declared in the package (not computed, imported from outside it, or built by a helper the extractor cannot follow)."
	},
	vocab.CodeNoRegistrationSite: func(b policy.Blocking, _ *rundir.Surface) string {
		return "No call in the package registers a tool, prompt or resource" + atDetail(b) + "; make sure the published files include the server's source (check the `files` field of package.json, or the wheel's contents) and that registration goes through an MCP SDK's API (server.tool, registerTool, setRequestHandler, @mcp.tool)."
	},
	vocab.CodeArchiveUnreadable: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The archive cannot be read safely" + atDetail(b) + "; publish the plain output of `npm pack` or `python -m build` (no links out of the package, no absolute or parent paths, within the size limits)."
	},
	vocab.CodeExtractionBudgetExceeded: func(b policy.Blocking, _ *rundir.Surface) string {
		return "Reading the source went past the per-package budget" + atDetail(b) + "; leave generated bundles, vendored copies and test data out of the published files so the server's own source is what is read."
	},
	vocab.CodeAdvertisedToolsNotParsed: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The package names tools " + quoteList(b.Names) + " at " + place(b.File, b.Line) + " that no registration declares; register them in the source, or remove or rename them where they are advertised so the list matches what the server registers."
	},
	vocab.CodeNoSurfaceExamined: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The registration code was read and declares no tool, prompt, resource or resource template; if the server has tools, check that the files that register them are published and reached from the package's entry point."
	},
	vocab.CodeNotAnalyzed: func(b policy.Blocking, s *rundir.Surface) string {
		if strings.Contains(b.Detail, "was not analysed") {
			return "The model check has no answer for " + namesOr(b, "an entry") + " at " + place(b.File, b.Line) + " (" + b.Detail + "); configure the analyzer the pass uses (ATTESTARI_ANALYZER) so every description is examined."
		}
		return "The text of " + namesOr(b, "an entry") + " at " + place(b.File, b.Line) + " cannot be read (" + b.Detail + "); write it as a string literal or a constant declared in the package, not read from a file, the environment or another package at run time."
	},
	vocab.CodePartialDescription: func(b policy.Blocking, _ *rundir.Surface) string {
		var subs []string
		for _, pe := range b.Partial {
			for _, h := range pe.Holes {
				subs = append(subs, fmt.Sprintf("`%s` at %s", h.Source, place(pe.File, h.Line)))
			}
		}
		what := "a substitution"
		if len(subs) > 0 {
			what = "a substitution " + strings.Join(subs, ", ")
		}
		return "The description of " + namesOr(b, "an entry") + " is a template with " + what + " whose value is not in the package; make the substituted value a literal or a constant declared in the package, or write the text out in full."
	},
	vocab.CodeModelCheckSkipped: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The model check did not run (" + b.Detail + "); set ATTESTARI_ANALYZER (and its key) to the analyzer the pass uses and check again. Nothing in the package causes this."
	},
	vocab.CodeNotAnalyzedRecorded: func(b policy.Blocking, _ *rundir.Surface) string {
		return "An entry was recorded as not analysed" + atDetail(b) + "; this follows from a description the analyzer could not be given or did not answer for; configure the analyzer and check again, and see not_analyzed for the entry."
	},
	vocab.CodeCheckMissing: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The check " + namesOr(b, "a check") + " wrote no result, because an earlier stage failed; fix the failure listed under failures and check again."
	},
	vocab.CodeCheckFailed: func(b policy.Blocking, _ *rundir.Surface) string {
		return "A stage crashed on the package (" + b.Detail + "); if the archive is well formed this is a defect of attestari: report it with the failure line, which names no secret."
	},
	vocab.CodeExcerptUnverified: func(b policy.Blocking, _ *rundir.Surface) string {
		return "A finding's quote was not found in the file it cites at " + place(b.File, b.Line) + "; this is a defect of the run, not of the package: report it."
	},
	vocab.CodeVerifierRejected: func(b policy.Blocking, _ *rundir.Surface) string {
		return "A finding's quote at " + place(b.File, b.Line) + " does not lie inside one declared entry's literal text; keep each description in one literal (or literals joined by +) without substitutions between the parts a reader would quote."
	},
	vocab.CodeNotAServer: func(b policy.Blocking, _ *rundir.Surface) string {
		return "The package does not look like an MCP server (a client, an SDK or a tool around one), so the pass leaves it out of scope; if it is a server, make its entry point create an MCP server and register its tools through an MCP SDK."
	},
	vocab.CodeEvidenceUnpublishable: func(b policy.Blocking, _ *rundir.Surface) string {
		return "A finding's quoted text carries personal data (an e-mail address, a name with a contact) at " + place(b.File, b.Line) + "; remove personal data from tool descriptions."
	},
}

// Remedy is what a publisher changes so that reason b no longer holds.
func Remedy(b policy.Blocking, s *rundir.Surface) string {
	if f, ok := remedies[b.Code]; ok {
		return f(b, s)
	}
	return "No remedy is known for " + b.Code + "; see the gate map line."
}

func place(file string, line int) string {
	switch {
	case file == "":
		return "(no place recorded)"
	case line > 0:
		return fmt.Sprintf("%s:%d", file, line)
	}
	return file
}

// atDetail says where and what: " (dist/index.js:1: longest line 1.2 MB)".
func atDetail(b policy.Blocking) string {
	var parts []string
	if b.File != "" {
		parts = append(parts, "at "+place(b.File, b.Line))
	}
	if b.Detail != "" {
		parts = append(parts, b.Detail)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ": ") + ")"
}

func namesOr(b policy.Blocking, none string) string {
	if len(b.Names) == 0 {
		return none
	}
	return strings.Join(b.Names, ", ")
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
