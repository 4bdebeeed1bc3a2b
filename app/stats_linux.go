package app

import (
	"os"
	"strconv"
	"strings"
)

// residentBytes reads VmRSS from /proc/self/status.
func residentBytes() (int64, bool) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(rest)
			if len(f) == 0 {
				return 0, false
			}
			kb, err := strconv.ParseInt(f[0], 10, 64)
			return kb * 1024, err == nil
		}
	}
	return 0, false
}

// openFiles counts the entries of /proc/self/fd.
func openFiles() (int, bool) {
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return 0, false
	}
	return len(es), true
}
