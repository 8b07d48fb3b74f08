package attestari

import _ "embed"

// SigstoreTrustedRoot is testdata/sigstore/trusted_root.json, the Sigstore
// trusted root npm provenance is verified against (docs/provenance.md says
// where it came from and how to refresh it). Embedded so the binaries verify
// the same way from any working directory.
//
//go:embed testdata/sigstore/trusted_root.json
var SigstoreTrustedRoot []byte
