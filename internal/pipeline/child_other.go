//go:build !linux

package pipeline

import "os/exec"

// setChildAttrs: outside Linux there is no parent-death signal; a child
// outlives a killed worker until its own wall budget ends it.
func setChildAttrs(*exec.Cmd) {}
