//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package npmtest

import "sync"

// Platforms without flock or LockFileEx serialise installs within one test
// process only.
var mu sync.Mutex

func lock(string) (func(), error) {
	mu.Lock()
	return mu.Unlock, nil
}
