package main

import (
	"fmt"

	"github.com/attestari/attestari/internal/methodology"
)

func versionLine() string {
	return fmt.Sprintf("attestari %s (methodology %s, sha256 %s)", version, methodology.Version, methodology.SHA256()[:12])
}

func buildVersion() string { return version }
