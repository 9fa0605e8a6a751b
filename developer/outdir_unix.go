//go:build unix

package developer

import (
	"errors"
	"os"
	"syscall"
)

// processAlive reports whether pid exists (EPERM: it does, as another user).
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	err = p.Signal(syscall.Signal(0))
	return err == nil || errors.Is(err, syscall.EPERM)
}
