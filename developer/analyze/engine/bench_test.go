//go:build cgo

package engine

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/developer/analyze"
)

// BenchmarkAnalyzeRepo is the directory overview of this repository with
// goose's defaults; the goal is a median of at most 1.5 s over 10 runs.
func BenchmarkAnalyzeRepo(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), Request{Path: root, MaxDepth: analyze.DefaultMaxDepth, FollowDepth: analyze.DefaultFollowDepth, Force: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeRepoUnlimited walks the whole repository with no depth
// limit, the worst case a caller can ask for.
func BenchmarkAnalyzeRepoUnlimited(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), Request{Path: root, MaxDepth: 0, Force: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFocusRepo builds the call graph of the whole repository.
func BenchmarkFocusRepo(b *testing.B) {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Analyze(context.Background(), Request{Path: root, Focus: "Analyze", MaxDepth: 0, FollowDepth: 2, Force: true}); err != nil {
			b.Fatal(err)
		}
	}
}
