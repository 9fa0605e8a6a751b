//go:build !linux

package analyze

import "os/exec"

// dieWithParent is Linux's parent-death signal; elsewhere a helper whose
// agent was killed ends when its stdin closes (after the analysis it is
// running, if any).
func dieWithParent(*exec.Cmd) (release func()) { return func() {} }
