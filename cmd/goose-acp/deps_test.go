package main

import (
	"os/exec"
	"strings"
	"testing"
)

// heavyPackages cost every goose-acp start time (package init) and
// resident memory while giving the binary nothing it uses: the provider
// SDKs were only HTTP plumbing. (Licences are licenses_test.go's.)
var heavyPackages = []string{
	"github.com/openai/openai-go/v3",
	"github.com/anthropics/anthropic-sdk-go",
	"google.golang.org/genai",
	"google.golang.org/grpc",
	"google.golang.org/protobuf/internal/detrand", // hashes the executable at init
}

func TestHeavyPackagesStayOutOfTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if !deps["github.com/goose-acp/goose-acp/developer/analyze"] || !deps["github.com/tree-sitter/go-tree-sitter"] {
		t.Fatal("go list output does not look like goose-acp's dependencies")
	}
	for _, p := range heavyPackages {
		if deps[p] {
			t.Errorf("%s is linked into goose-acp again", p)
		}
	}
}
