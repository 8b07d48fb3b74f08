package pipeline

import (
	"os/exec"
	"syscall"
)

// setChildAttrs makes the kernel kill the child when the worker dies, so a
// worker killed with SIGKILL leaves no extraction running behind it. The
// signal follows the thread that started the child; the Go runtime ends a
// thread only when a goroutine locked to it exits, which no worker code does.
func setChildAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
