package analyze_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

func benchRun(b *testing.B, rel string) {
	p, err := filepath.Abs(filepath.Join("engine", "testdata", rel))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := analyze.Run(context.Background(), helper, analyze.Request{Path: p}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelperSpawn is one analyze call that parses nothing (a
// Markdown file is counted by lines): what running analyze out of process
// adds to a call.
func BenchmarkHelperSpawn(b *testing.B) { benchRun(b, "tree/README.md") }

// BenchmarkHelperGoFile is one Go file's details: the Go grammar's two
// queries (compiled once per helper process) and the parse.
func BenchmarkHelperGoFile(b *testing.B) { benchRun(b, "tree/main.go") }

// BenchmarkHelperCppFile is one C++ file's details (the largest queries
// after Ruby's).
func BenchmarkHelperCppFile(b *testing.B) { benchRun(b, "langs/native/widget.cpp") }

// BenchmarkHelperRubyFile is one Ruby file's details.
func BenchmarkHelperRubyFile(b *testing.B) { benchRun(b, "tree/app/util/strings.rb") }
