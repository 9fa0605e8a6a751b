//go:build !unix

package developer

import "os"

// processAlive reports whether pid exists; on Windows FindProcess opens
// the process and fails when it is gone. Elsewhere nothing is swept.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}
