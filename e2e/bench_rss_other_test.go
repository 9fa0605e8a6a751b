//go:build !linux

package e2e

import "time"

// rssMB is only measured on Linux (/proc/<pid>/status); elsewhere the
// benchmark reports no RSS metric.
func rssMB(int) (float64, bool) { return 0, false }

// cpuTime is only measured on Linux.
func cpuTime(int) (time.Duration, bool) { return 0, false }
