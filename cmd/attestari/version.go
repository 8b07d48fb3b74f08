package main

import (
	"fmt"

	"github.com/attestari/attestari/internal/analyzer"
	"github.com/attestari/attestari/internal/checks"
	"github.com/attestari/attestari/internal/methodology"
	"github.com/attestari/attestari/internal/surface"
)

// versionLine names every version a run records (methodology §12), so an
// operator can tell from one line which rules and readers a build applies.
func versionLine() string {
	return fmt.Sprintf("attestari %s (methodology %s, sha256 %s; extractor %s; verifier %s; prompt %s)",
		version, methodology.Version, methodology.SHA256()[:12], surface.ExtractorVersion, checks.VerifierVersion, analyzer.PromptVersion)
}

func buildVersion() string { return version }
