//go:build cgo

package engine

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// fixtureRoot is the absolute path of testdata/tree; goldens show it as ROOT.
func fixtureRoot(t testing.TB) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("testdata", "tree"))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if got != string(want) {
		t.Errorf("%s mismatch\n--- got ---\n%s\n--- want ---\n%s", name, got, want)
	}
}

// goldenCase is one analysis of a fixture tree and the golden file its
// output (with the tree's path shown as ROOT) must equal.
type goldenCase struct {
	golden string
	req    Request
}

func runGoldenCases(t *testing.T, root string, cases []goldenCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.golden, func(t *testing.T) {
			tt.req.WorkingDir = root
			got, err := Analyze(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.golden, strings.ReplaceAll(got, root, "ROOT"))
		})
	}
}

func TestGolden(t *testing.T) {
	runGoldenCases(t, fixtureRoot(t), []goldenCase{
		{"overview_depth3.txt", Request{Path: ".", MaxDepth: 3}},
		{"overview_depth1.txt", Request{Path: ".", MaxDepth: 1}},
		{"overview_unlimited.txt", Request{Path: ".", MaxDepth: 0}},
		{"file_go.txt", Request{Path: "main.go"}},
		{"file_python.txt", Request{Path: "app/service.py"}},
		{"file_ruby.txt", Request{Path: "app/util/strings.rb"}},
		{"file_javascript.txt", Request{Path: "web/app.js"}},
		{"file_typescript.txt", Request{Path: "web/types.ts"}},
		{"file_rust.txt", Request{Path: "deep/a/lib.rs"}},
		{"file_java.txt", Request{Path: "deep/a/b/Main.java"}},
		{"file_markdown.txt", Request{Path: "README.md"}},
		{"focus_helper.txt", Request{Path: ".", Focus: "helper", FollowDepth: 2, MaxDepth: 3}},
		{"focus_build_depth1.txt", Request{Path: ".", Focus: "build", FollowDepth: 1, MaxDepth: 3}},
		{"focus_definitions_only.txt", Request{Path: ".", Focus: "process", FollowDepth: 0, MaxDepth: 3}},
		{"focus_single_file.txt", Request{Path: "app/service.py", Focus: "normalize", FollowDepth: 2}},
		{"focus_missing.txt", Request{Path: ".", Focus: "nonexistent_symbol", FollowDepth: 2, MaxDepth: 3}},
	})
}
