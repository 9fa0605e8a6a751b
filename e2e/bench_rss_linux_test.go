//go:build linux

package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// rssMB reads a process's resident set size (VmRSS) in MB.
func rssMB(pid int) (float64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024, err == nil
		}
	}
	return 0, false
}

// cpuTime is the user+system CPU time a process has used so far (from
// /proc/<pid>/stat, in clock ticks of 10 ms). Wall-clock medians on a
// shared machine swing with load; the agent's own CPU time does not.
func cpuTime(pid int) (time.Duration, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	if len(f) < 13 {
		return 0, false
	}
	utime, err1 := strconv.Atoi(f[11])
	stime, err2 := strconv.Atoi(f[12])
	return time.Duration(utime+stime) * 10 * time.Millisecond, err1 == nil && err2 == nil
}
