package analyze_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// benchRun times analyze calls of one file after a first, untimed one:
// the helper process is running and has compiled the language's queries,
// as for every call after an agent's first of that language.
func benchRun(b *testing.B, rel string) {
	p, err := filepath.Abs(filepath.Join("engine", "testdata", rel))
	if err != nil {
		b.Fatal(err)
	}
	req := analyze.Request{Path: p}
	if _, err := analyze.Run(context.Background(), helper, req); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := analyze.Run(context.Background(), helper, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHelperRoundTrip is one analyze call that parses nothing (a
// Markdown file is counted by lines): what running analyze out of process
// adds to a call once the helper runs.
func BenchmarkHelperRoundTrip(b *testing.B) { benchRun(b, "tree/README.md") }

// BenchmarkHelperGoFile is one Go file's details: the parse, the Go
// grammar's queries already compiled.
func BenchmarkHelperGoFile(b *testing.B) { benchRun(b, "tree/main.go") }

// BenchmarkHelperCppFile is one C++ file's details (with Ruby, the
// grammars whose queries take longest to compile).
func BenchmarkHelperCppFile(b *testing.B) { benchRun(b, "langs/native/widget.cpp") }

// BenchmarkHelperRubyFile is one Ruby file's details.
func BenchmarkHelperRubyFile(b *testing.B) { benchRun(b, "tree/app/util/strings.rb") }

// BenchmarkHelperFirstGoFile is an agent's first analyze call of a Go
// file: a new helper process started, the Go queries compiled, the parse.
func BenchmarkHelperFirstGoFile(b *testing.B) {
	p, err := filepath.Abs(filepath.Join("engine", "testdata", "tree", "main.go"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		b.StopTimer()
		analyze.CloseIdle(helper)
		b.StartTimer()
		if _, err := analyze.Run(context.Background(), helper, analyze.Request{Path: p}); err != nil {
			b.Fatal(err)
		}
	}
}
