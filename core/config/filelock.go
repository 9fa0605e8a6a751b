package config

import (
	"fmt"
	"os"
)

// fileLock is an advisory OS lock on a sidecar lock file (flock on Unix,
// LockFileEx on Windows), shared with goose's fs2 locks on the same files.
type fileLock struct{ f *os.File }

// lockExclusive creates path if needed and blocks until it holds an
// exclusive lock on it.
func lockExclusive(path string) (*fileLock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("config: open lock file: %w", err)
	}
	if err := lockFile(f, true); err != nil {
		f.Close()
		return nil, fmt.Errorf("config: lock %s: %w", path, err)
	}
	return &fileLock{f}, nil
}

// lockShared takes a shared lock on an existing lock file. It returns nil,
// nil when the file does not exist: readers never create lock files (goose
// does the same), so a read-only config dir stays readable.
func lockShared(path string) (*fileLock, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: open lock file: %w", err)
	}
	if err := lockFile(f, false); err != nil {
		f.Close()
		return nil, fmt.Errorf("config: lock %s: %w", path, err)
	}
	return &fileLock{f}, nil
}

// unlock releases the lock; safe on a nil lock.
func (l *fileLock) unlock() {
	if l == nil {
		return
	}
	_ = unlockFile(l.f)
	_ = l.f.Close()
}
