//go:build cgo

package engine

import (
	"path/filepath"
	"testing"
)

// TestLanguageGolden covers the languages added with the official grammars:
// Kotlin (goose's kotlin.rs queries), C and C++ (goose counts only their
// lines; here functions, types and #includes), TSX, and Swift, which stays
// line-counted because no Swift grammar module for these bindings is
// available.
func TestLanguageGolden(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("testdata", "langs"))
	if err != nil {
		t.Fatal(err)
	}
	runGoldenCases(t, root, []goldenCase{
		{"langs_overview.txt", Request{Path: ".", MaxDepth: 0}},
		{"file_kotlin.txt", Request{Path: "kotlin/Service.kt"}},
		{"file_kotlin_script.txt", Request{Path: "kotlin/build.gradle.kts"}},
		{"file_c.txt", Request{Path: "native/buffer.c"}},
		{"file_c_header.txt", Request{Path: "native/buffer.h"}},
		{"file_cpp.txt", Request{Path: "native/widget.cpp"}},
		{"file_tsx.txt", Request{Path: "web/App.tsx"}},
		{"file_swift.txt", Request{Path: "swift/notes.swift"}},
		{"focus_kotlin_helper.txt", Request{Path: ".", Focus: "helper", FollowDepth: 2}},
		{"focus_kotlin_process.txt", Request{Path: "kotlin", Focus: "process", FollowDepth: 1}},
		{"focus_c_grow.txt", Request{Path: "native", Focus: "grow", FollowDepth: 2}},
		{"focus_cpp_measure.txt", Request{Path: "native/widget.cpp", Focus: "measure", FollowDepth: 2}},
		{"focus_tsx_format.txt", Request{Path: "web", Focus: "format", FollowDepth: 1}},
	})
}

// Every language's queries compile, the call query included, though an
// analysis compiles it only when it needs calls (focus).
func TestEveryQueryCompiles(t *testing.T) {
	for name, spec := range specs {
		c, _, err := compiledFor(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if _, err := c.callsQuery(spec); err != nil {
			t.Errorf("%s calls: %v", name, err)
		}
	}
}
