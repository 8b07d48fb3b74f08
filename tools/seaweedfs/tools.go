//go:build tools

// Package tools pins SeaweedFS, whose weed binary is the S3-compatible
// server internal/s3test starts for the evidence store's tests. It is a
// module of its own because weed's go.mod carries a replace directive, which
// `go install mod@version` refuses; `make weed` builds it from here. Nothing
// of SeaweedFS is committed: only this file, go.mod and go.sum.
package tools

import _ "github.com/seaweedfs/seaweedfs/weed"
