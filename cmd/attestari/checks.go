package main

import (
	"errors"
	"fmt"

	attestari "github.com/attestari/attestari"
	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/pipeline"
	"github.com/attestari/attestari/internal/repohost"
	"github.com/attestari/attestari/internal/sigstore"
)

// analyzerFor builds the model check's analyzer from the environment
// (ATTESTARI_ANALYZER: none, offline, purpose, anthropic, openai). The demo uses the
// offline rules when none is named, and says so.
func analyzerFor(e *env, demo bool) (analyzer.Analyzer, error) {
	getenv := e.getenv
	if demo && e.getenv(analyzer.EnvAnalyzer) == "" {
		fmt.Fprintln(e.stdout, "demo: the model check uses the offline rules (ATTESTARI_ANALYZER=offline); they have not passed the admission test (docs/model-check.md)")
		getenv = func(k string) string {
			if k == analyzer.EnvAnalyzer {
				return analyzer.NameOffline
			}
			return e.getenv(k)
		}
	}
	an, err := analyzer.FromEnv(getenv)
	if err != nil {
		return nil, fmt.Errorf("model check analyzer: %w", err)
	}
	if an == nil {
		e.log.Warn("no analyzer configured (ATTESTARI_ANALYZER); descriptions without a cached answer are not analysed and their packages refused")
	}
	return an, nil
}

// runningChecks are the checks a run executes, in order.
func runningChecks(e *env, an analyzer.Analyzer, cache checks.ProposalCache) []pipeline.Check {
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
	return append(pipeline.DefaultChecks(), prov, pipeline.ModelCheck{Analyzer: an, Cache: cache})
}
