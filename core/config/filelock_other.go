//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package config

import "os"

// Platforms without flock/LockFileEx (plan9, wasm, solaris, aix) rely on the
// in-process mutexes only; cross-process writers are not serialised there.
func lockFile(*os.File, bool) error { return nil }

func unlockFile(*os.File) error { return nil }
