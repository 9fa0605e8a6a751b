package archtest

import (
	"go/ast"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// MaxDocLines bounds a package's doc.go: what a newcomer reads first says
// what the package owns; the detail goes in docs/.
const MaxDocLines = 40

// Every package has a doc.go of at most MaxDocLines lines holding its
// package comment, and no other file has one.
func TestPackageDocs(t *testing.T) {
	root := moduleRoot(t)
	dirs := map[string]bool{}
	for _, f := range sourceFiles(t) {
		dirs[f.dir] = true
		if f.file.Doc != nil && filepath.Base(f.rel) != "doc.go" {
			t.Errorf("%s has a package comment: it belongs in doc.go", f.rel)
		}
	}
	for dir := range dirs {
		path := filepath.Join(root, dir, "doc.go")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s has no doc.go", dir)
			continue
		}
		if n := strings.Count(string(b), "\n"); n > MaxDocLines {
			t.Errorf("%s/doc.go has %d lines (at most %d; move the detail to docs/)", dir, n, MaxDocLines)
		}
		if !strings.Contains(string(b), "\npackage ") || !strings.HasPrefix(string(b), "//") {
			t.Errorf("%s/doc.go does not open with the package comment", dir)
		}
	}
}

// outsideRef matches references to documents a reader of the repository
// cannot open: the project's issues, its seed documents, the reference
// notes beside the repository, section marks into them.
var outsideRef = regexp.MustCompile(`(?i)\bseeds? \d|\bissues? #?\d|§|shared/reference|\.\./reference|[a-z0-9_-]+\.md §`)

// Comments (tests included) and the docs refer to nothing outside the
// repository: say what is meant instead.
func TestNoReferencesOutsideTheRepository(t *testing.T) {
	for _, f := range goFiles(t) {
		for _, cg := range f.file.Comments {
			for _, c := range cg.List {
				if m := outsideRef.FindString(c.Text); m != "" {
					t.Errorf("%s: comment refers outside the repository (%q): %s", f.rel, m, firstLine(c.Text))
				}
			}
		}
	}
	root := moduleRoot(t)
	docs, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	docs = append(docs, filepath.Join(root, "README.md"))
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := outsideRef.FindString(stripRFC(line)); m != "" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d refers outside the repository (%q): %s", rel, i+1, m, line)
			}
		}
	}
}

// stripRFC drops references to sections of an RFC: public standards, not
// documents of ours.
func stripRFC(s string) string {
	return regexp.MustCompile(`RFC \d+ §[\d.]+`).ReplaceAllString(s, "")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// docs/architecture.md names every event of the one event stream: each
// type of core/agent with an isEvent method.
func TestArchitectureNamesEveryEvent(t *testing.T) {
	var events []string
	for _, f := range sourceFiles(t) {
		if f.dir != "core/agent" {
			continue
		}
		for _, d := range f.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == "isEvent" {
				events = append(events, receiverName(fd))
			}
		}
	}
	if len(events) < 10 {
		t.Fatalf("found only %v: the scan is broken", events)
	}
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if !strings.Contains(string(b), "`"+e+"`") {
			t.Errorf("docs/architecture.md does not name %s", e)
		}
	}
}
