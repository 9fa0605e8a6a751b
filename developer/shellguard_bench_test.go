//go:build !windows

package developer

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// The guard's cost on an ordinary command: parse, expand, stat each word.
func BenchmarkShellGuardOrdinaryCommand(b *testing.B) {
	dir := b.TempDir()
	_, svc := newServerWithService(Options{WorkingDir: dir, Getenv: os.Getenv})
	cc := callContext{workingDir: dir}
	for b.Loop() {
		if err := svc.checkShellPaths(`go test ./... && git status --short | grep -v "^??" > /tmp/out.txt`, cc); err != nil {
			b.Fatal(err)
		}
	}
}

// Worst ordinary case: a recursive grep over 10,000 files holding no
// ignored path is searched in full.
func BenchmarkShellGuardRecursiveGrep10k(b *testing.B) {
	dir := b.TempDir()
	for d := range 100 {
		sub := filepath.Join(dir, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%03d.go", f)), nil, 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	_, svc := newServerWithService(Options{WorkingDir: dir, Getenv: os.Getenv})
	cc := callContext{workingDir: dir}
	for b.Loop() {
		if err := svc.checkShellPaths("grep -rn TODO .", cc); err != nil {
			b.Fatal(err)
		}
	}
}
