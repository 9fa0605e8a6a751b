package archtest

import (
	"fmt"
	"go/ast"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// MaxMethods is the most methods one receiver type may have: past it, a
// type holds more than one job and should be split.
const MaxMethods = 60

// receiverName is the type name of a method's receiver (T for *T, T[K]).
func receiverName(fd *ast.FuncDecl) string {
	expr := fd.Recv.List[0].Type
	if star, ok := expr.(*ast.StarExpr); ok {
		expr = star.X
	}
	switch x := expr.(type) {
	case *ast.IndexExpr:
		expr = x.X
	case *ast.IndexListExpr:
		expr = x.X
	}
	if id, ok := expr.(*ast.Ident); ok {
		return id.Name
	}
	return fmt.Sprintf("%T", expr)
}

// splitting lists the types still being split, each with the count it may
// not grow past; an entry goes when its type is at MaxMethods or under.
var splitting = map[string]int{}

func TestNoTypeHasTooManyMethods(t *testing.T) {
	counts := map[string]int{}
	for _, f := range sourceFiles(t) {
		for _, d := range f.file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) > 0 {
				counts[f.dir+"."+receiverName(fd)]++
			}
		}
	}
	var over []string
	for k, n := range counts {
		limit, pending := splitting[k]
		if !pending {
			limit = MaxMethods
		}
		if n > limit {
			over = append(over, fmt.Sprintf("%s: %d methods", k, n))
		}
	}
	for k := range splitting {
		if counts[k] <= MaxMethods {
			t.Errorf("%s has %d methods: remove it from splitting", k, counts[k])
		}
	}
	sort.Strings(over)
	if len(over) > 0 {
		t.Errorf("types over %d methods (split them by job):\n%s", MaxMethods, strings.Join(over, "\n"))
	}
	if counts["core/agent.Agent"] == 0 {
		t.Error("counted no methods of core/agent.Agent: the walk is broken")
	}
}

// receiverLine is how a line-oriented check counts methods: a line that
// starts a method, its receiver's type name cut at the first character
// that is not a letter or _ (so v2API, v2Turns and v2Terminals all count
// as "v"), non-test files only.
var receiverLine = regexp.MustCompile(`(?m)^func \([a-zA-Z_]+ \*?([A-Za-z_]+)`)

// TestNoTypeHasTooManyMethodsByLine counts as a grep over the source does,
// so that check and this test cannot disagree: where a grep lumps types
// whose names share a prefix before a digit, or misses a method written
// across lines, its count is the one held to MaxMethods here too.
func TestNoTypeHasTooManyMethodsByLine(t *testing.T) {
	root := moduleRoot(t)
	counts := map[string]int{}
	for _, f := range sourceFiles(t) {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(f.rel)))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range receiverLine.FindAllSubmatch(src, -1) {
			counts[f.dir+"/"+string(m[1])]++
		}
	}
	var over []string
	for k, n := range counts {
		if n > MaxMethods {
			over = append(over, fmt.Sprintf("%s: %d methods", k, n))
		}
	}
	sort.Strings(over)
	if len(over) > 0 {
		t.Errorf("receivers over %d methods by a line count (split them by job):\n%s", MaxMethods, strings.Join(over, "\n"))
	}
	if counts["core/agent/Agent"] == 0 {
		t.Error("counted no methods of core/agent/Agent: the line count is broken")
	}
}

// Core is the same for every face: no file in core is named for one.
func TestNoFaceNamedFilesInCore(t *testing.T) {
	for _, f := range sourceFiles(t) {
		if !strings.HasPrefix(f.rel, "core/") {
			continue
		}
		base := strings.TrimSuffix(path.Base(f.rel), ".go")
		for _, face := range []string{"_desktop", "_acp", "_http", "_goosed", "_editor"} {
			if strings.HasSuffix(base, face) {
				t.Errorf("%s is named for a face (%s)", f.rel, strings.TrimPrefix(face, "_"))
			}
		}
	}
}
