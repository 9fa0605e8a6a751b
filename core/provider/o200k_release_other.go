//go:build !linux

package provider

// releaseAsset keeps the asset's pages: only Linux drops them (see
// o200k_release_linux.go).
func releaseAsset(string) {}
