//go:build !cgo || !linux

package engine

// trimC has nothing to do without glibc's malloc_trim.
func trimC() {}
