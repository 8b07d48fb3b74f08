package pipeline

import (
	"os/exec"
	"syscall"
)

// setChildAttrs makes the kernel kill the child when the worker dies, so a
// worker killed with SIGKILL leaves no extraction running behind it. The
// signal follows the thread that started the child; the Go runtime ends a
// thread only when a goroutine locked to it exits, which no worker code does.
// The child gets a process group of its own, so a Ctrl-C at the terminal
// reaches only the worker, which ends its children as it cancels, instead
// of dying children racing the cancellation.
func setChildAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
}
