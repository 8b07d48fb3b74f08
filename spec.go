package attestari

import _ "embed"

// OpenAPI is openapi.yaml, the public contract: handlers, tests and the Go
// client answer to it. It is embedded here because Go cannot embed a file
// from a parent directory.
//
//go:embed openapi.yaml
var OpenAPI []byte
