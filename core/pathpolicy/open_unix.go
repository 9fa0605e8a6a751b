//go:build unix

package pathpolicy

import "syscall"

// openNonblock keeps open(2) of a FIFO from waiting for a writer; regular
// files ignore it.
const openNonblock = syscall.O_NONBLOCK
