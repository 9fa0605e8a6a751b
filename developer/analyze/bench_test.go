package analyze_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

func benchRun(b *testing.B, name string) {
	p, err := filepath.Abs(filepath.Join("engine", "testdata", "tree", name))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := analyze.Run(context.Background(), helper, analyze.Request{Path: p}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelperSpawn is one helper run that parses nothing (a Markdown
// file is counted by lines): what running analyze out of process adds.
func BenchmarkHelperSpawn(b *testing.B) { benchRun(b, "README.md") }

// BenchmarkHelperGoFile is one Go file's details: the spawn plus the Go
// grammar's two queries compiled in that process, and the parse.
func BenchmarkHelperGoFile(b *testing.B) { benchRun(b, "main.go") }
