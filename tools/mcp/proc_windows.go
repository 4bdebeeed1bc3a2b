package mcp

import (
	"os/exec"
	"unsafe"

	"golang.org/x/sys/windows"
)

// procGroup is a job object that holds a local server and everything it
// starts: closing the job's last handle (end, or Yui dying) kills them
// all (JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE).
type procGroup struct{ job windows.Handle }

func newProcGroup(cmd *exec.Cmd) *procGroup {
	cmd.SysProcAttr = &windows.SysProcAttr{HideWindow: true, CreationFlags: windows.CREATE_NEW_PROCESS_GROUP}
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return &procGroup{}
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{}
	info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return &procGroup{}
	}
	return &procGroup{job: job}
}

// adopt puts the started server into the job.
func (g *procGroup) adopt(cmd *exec.Cmd) {
	if g.job == 0 || cmd.Process == nil {
		return
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(cmd.Process.Pid))
	if err != nil {
		return
	}
	defer windows.CloseHandle(h)
	_ = windows.AssignProcessToJobObject(g.job, h)
}

// end closes the job, which kills what is left in it.
func (g *procGroup) end() {
	if g.job != 0 {
		windows.CloseHandle(g.job)
		g.job = 0
	}
}
