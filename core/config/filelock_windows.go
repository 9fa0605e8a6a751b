//go:build windows

package config

import (
	"os"

	"golang.org/x/sys/windows"
)

// lockRange covers the whole file, as fs2 does.
const lockRange = ^uint32(0)

func lockFile(f *os.File, exclusive bool) error {
	var flags uint32
	if exclusive {
		flags = windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := new(windows.Overlapped)
	return windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, lockRange, lockRange, ol)
}

func unlockFile(f *os.File) error {
	ol := new(windows.Overlapped)
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, lockRange, lockRange, ol)
}
