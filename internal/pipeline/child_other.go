//go:build !linux

package pipeline

import "os/exec"

// setChildAttrs: outside Linux there is no parent-death signal; a child
// outlives a killed worker until its own budget ends it (its CPU budget,
// or, outside Unix where no CPU clock is read, its wall budget).
func setChildAttrs(*exec.Cmd) {}
