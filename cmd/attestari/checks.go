package main

import (
	"context"
	"errors"

	attestari "github.com/attestari/attestari"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/policy"
	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/rundir"
	"github.com/attestari/attestari/internal/sigstore"
)

// runningChecks are the checks a run executes, in order.
func runningChecks(e *env) []pipeline.Check {
	prov := pipeline.ProvenanceCheck{}
	if v, err := sigstore.NewVerifier(attestari.SigstoreTrustedRoot, sigstore.Options{}); err == nil {
		prov.Verifier = v
	} else {
		e.log.Warn("sigstore trusted root unreadable; attestations will be recorded as not verified", "error", err)
	}
	if cfg, err := repohost.ConfigFromEnv(); err == nil {
		if c, err := repohost.New(cfg, repohost.Options{Version: buildVersion()}); err == nil {
			prov.Repositories = c
		} else {
			e.log.Warn("repository host misconfigured; repositories will be recorded as not looked up", "error", err)
		}
	} else if !errors.Is(err, repohost.ErrNotConfigured) {
		e.log.Warn("repository host misconfigured", "error", err)
	}
	return append(pipeline.DefaultChecks(), prov)
}

// contextTagger computes the exfiltrate_data context tags at decision time,
// reading the version's registry record from the run's own records.
func contextTagger(files *rundir.Files, blobs policy.Blobs, extraShared ...string) func(context.Context, rundir.Finding, *rundir.Surface, func(string) ([]byte, bool)) ([]rundir.ContextTag, error) {
	t := checks.ExfilTagger{
		Shared: checks.DefaultSharedHosts(extraShared...),
		RegistryRecord: func(ctx context.Context, pkg rundir.PackageRef) ([]byte, bool) {
			for _, r := range files.Records {
				if r.Package == pkg && r.SHA256 != "" && (r.Kind == "npm_version" || r.Kind == "pypi_json") {
					b, err := blobs.Get(ctx, r.SHA256)
					return b, err == nil
				}
			}
			return nil, false
		},
	}
	return t.Tags
}
