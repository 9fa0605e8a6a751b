//go:build windows

package developer

// interrupt is unavailable on Windows (as in goose): the caller stops the
// session instead and the next cell starts a fresh one.
func (k *kernel) interrupt() bool { return false }
