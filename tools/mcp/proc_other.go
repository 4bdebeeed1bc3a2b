//go:build !linux && !windows

package mcp

import (
	"os/exec"
	"syscall"
)

// procGroup is a local server's process group (no Pdeathsig here).
type procGroup struct{ pid int }

func newProcGroup(cmd *exec.Cmd) *procGroup {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return &procGroup{}
}

func (g *procGroup) adopt(cmd *exec.Cmd) {
	if cmd.Process != nil {
		g.pid = cmd.Process.Pid
	}
}

func (g *procGroup) end() {
	if g.pid > 0 {
		_ = syscall.Kill(-g.pid, syscall.SIGKILL)
	}
}
