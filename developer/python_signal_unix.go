//go:build !windows

package developer

import "syscall"

// interrupt sends SIGINT to the interpreter alone (not its group: on Linux
// the group holds the supervisor, which ends everything on SIGINT); the
// cell gets a KeyboardInterrupt and the session survives.
func (k *kernel) interrupt() bool {
	if k.pid <= 0 {
		return false
	}
	return syscall.Kill(k.pid, syscall.SIGINT) == nil
}
