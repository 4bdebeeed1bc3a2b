package mcp

import (
	"os/exec"
	"syscall"
)

// procGroup is a local server's process group: the server is its leader,
// and Pdeathsig kills the server if Yui dies without stopping it.
type procGroup struct{ pid int }

func newProcGroup(cmd *exec.Cmd) *procGroup {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return &procGroup{}
}

// adopt notes the started leader's pid.
func (g *procGroup) adopt(cmd *exec.Cmd) {
	if cmd.Process != nil {
		g.pid = cmd.Process.Pid
	}
}

// end kills whatever is left of the group once the session closed: a
// server started through npx or a shell leaves children behind otherwise.
func (g *procGroup) end() {
	if g.pid > 0 {
		_ = syscall.Kill(-g.pid, syscall.SIGKILL)
	}
}
