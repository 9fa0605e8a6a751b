package archtest

import (
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/goose-acp/goose-acp/"

// imports maps each package directory of the module to the packages of
// ours its non-test files import (directories, without the module path).
func imports(t *testing.T) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	for _, f := range sourceFiles(t) {
		if out[f.dir] == nil {
			out[f.dir] = map[string]bool{}
		}
		for _, is := range f.file.Imports {
			p, _ := strconv.Unquote(is.Path.Value)
			if rest, ok := strings.CutPrefix(p, module); ok {
				out[f.dir][rest] = true
			}
		}
	}
	return out
}

// closure is every package of ours dir reaches through imports.
func closure(g map[string]map[string]bool, dir string) map[string]bool {
	seen := map[string]bool{}
	var walk func(string)
	walk = func(d string) {
		for p := range g[d] {
			if !seen[p] {
				seen[p] = true
				walk(p)
			}
		}
	}
	walk(dir)
	return seen
}

func under(p, prefix string) bool { return p == prefix || strings.HasPrefix(p, prefix+"/") }

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// The import direction docs/architecture.md describes: cmd → {acp,
// httpapi} → core → nothing of ours; faces never import each other.
func TestLayering(t *testing.T) {
	g := imports(t)
	faces := []string{"acp", "httpapi", "cmd"}
	for dir, deps := range g {
		for _, p := range keys(deps) {
			switch {
			case under(dir, "core") && (under(p, "acp") || under(p, "httpapi") || under(p, "cmd") || under(p, "developer") || under(p, "deeplink")):
				t.Errorf("%s (core) imports %s: core knows no face and reaches developer only through a factory", dir, p)
			case under(dir, "httpapi") && under(p, "acp"):
				t.Errorf("%s imports %s: httpapi mounts /acp through the http.Handler cmd gives it", dir, p)
			case under(dir, "acp") && under(p, "httpapi"):
				t.Errorf("%s imports %s: faces are siblings", dir, p)
			}
			for _, face := range faces {
				if under(p, face) && !under(dir, face) && face == "cmd" {
					t.Errorf("%s imports %s: nothing imports cmd", dir, p)
				}
			}
		}
	}
}

// The leaves and near-leaves the docs name import, directly or not,
// nothing of ours but what they name — so developer can be served on its
// own (`goose-acp mcp developer`) and deeplink stays pure.
func TestLeaves(t *testing.T) {
	g := imports(t)
	allowed := map[string][]string{
		"core/pathpolicy":       {},
		"core/errkind":          {},
		"core/extension/inproc": {},
		"internal/proctree":     {},
		"internal/shellwords":   {},
		"internal/startpages":   {},
		"internal/deepstack":    {},
		"acp/acphttp":           {},
		"acp/handshake":         {},
		"acp/jsonrpc":           {"internal/deepstack", "acp/jsonrpc/wire"},
		"acp/jsonrpc/wire":      {},
		"internal/buildinfo":    {"internal/earlyinfo"},
		"internal/earlyinfo":    {},
		"internal/helperexe":    {},
		// Answers initialize while the binary initialises: what it imports
		// initialises before it does, and none of it waits for a package
		// Go initialises late (acp/jsonrpc/wire's and internal/earlyinfo's
		// docs say why).
		"cmd/goose-acp/internal/firstframe": {"acp/handshake", "acp/jsonrpc/wire", "internal/earlyinfo"},
		"developer/shellguard":              {"core/pathpolicy"},
		"developer/analyze":                 {"internal/helperexe"},
		"developer/analyze/engine":          {"developer/analyze", "core/pathpolicy", "internal/helperexe"},
		"developer/screen":                  {},
		"developer/imageproc":               {"core/pathpolicy"},
		"developer/pykernel":                {"internal/proctree"},
		"developer/shellrun":                {"internal/proctree", "internal/shellwords"},
		"developer": {"core/pathpolicy", "core/extension/inproc", "internal/proctree", "internal/shellwords",
			"developer/shellguard", "developer/shellrun", "developer/pykernel", "developer/analyze", "developer/imageproc", "developer/screen",
			"internal/helperexe"},
		"deeplink": {"core/config", "core/recipe"},
	}
	for dir, names := range allowed {
		if _, ok := g[dir]; !ok {
			t.Errorf("%s: no such package (update this test and docs/architecture.md)", dir)
			continue
		}
		ok := map[string]bool{}
		for _, n := range names {
			ok[n] = true
		}
		reach := closure(g, dir)
		if dir == "deeplink" {
			reach = g[dir] // what it names directly; their own imports are core's
		}
		for _, p := range keys(reach) {
			if !ok[p] {
				t.Errorf("%s imports %s (of ours it may import only %v)", dir, p, names)
			}
		}
	}
}
