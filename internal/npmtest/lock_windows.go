//go:build windows

package npmtest

import (
	"os"

	"golang.org/x/sys/windows"
)

// lock blocks until it holds an exclusive LockFileEx lock on path (created
// if needed); the OS drops it if the test process dies.
func lock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, err
	}
	const whole = ^uint32(0)
	h := windows.Handle(f.Fd())
	if err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK, 0, whole, whole, new(windows.Overlapped)); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = windows.UnlockFileEx(h, 0, whole, whole, new(windows.Overlapped))
		_ = f.Close()
	}, nil
}
