package acp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// notYetUnstable lists the acp-meta.json methods still being written.
// Whoever registers one removes it here; the list must end
// empty.
var notYetUnstable = []string{}

// Every method of acp-meta.json is either answered (registered in the
// request table, the unavailable ones included) or still on notYetUnstable;
// nothing on that list is registered already.
func TestEveryUnstableMethodIsRegistered(t *testing.T) {
	table := (&Server{opts: withDefaults(Options{})}).requestTable()
	pending := map[string]bool{}
	for _, m := range notYetUnstable {
		pending[m] = true
	}
	var missing, done []string
	for _, m := range loadUnstable(t).methodNames() {
		_, registered := table[m]
		switch {
		case registered && pending[m]:
			done = append(done, m)
		case !registered && !pending[m]:
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		t.Errorf("methods of acp-meta.json neither registered nor unavailable:\n%s", strings.Join(missing, "\n"))
	}
	if len(done) > 0 {
		t.Errorf("registered methods still on notYetUnstable (remove them):\n%s", strings.Join(done, "\n"))
	}
	t.Logf("%d of %d methods not yet registered", len(pending), len(loadUnstable(t).methods))
}

// The unavailable table names methods of the contract, each once.
func TestUnavailableTableIsTheContracts(t *testing.T) {
	u := loadUnstable(t)
	seen := map[string]bool{}
	for _, m := range UnstableUnavailable {
		if _, ok := u.methods[m.Method]; !ok {
			t.Errorf("%s is not a method of acp-meta.json", m.Method)
		}
		if seen[m.Method] {
			t.Errorf("%s is listed twice", m.Method)
		}
		seen[m.Method] = true
	}
}

// An unavailable method answers -32050 naming its feature; those with a
// truthful "none" answer give it in the schema's shape.
func TestUnavailableMethodsOverStdio(t *testing.T) {
	c := serveLines(t, Options{})
	for i, m := range UnstableUnavailable {
		params := json.RawMessage(`{}`)
		r := c.callRaw(t, i+1, m.Method, params)
		if m.None != nil {
			if r.Error != nil {
				t.Fatalf("%s: error %+v, want its empty answer", m.Method, r.Error)
			}
			validateUnstableResponse(t, m.Method, r.Result)
			continue
		}
		if r.Error == nil {
			t.Fatalf("%s answered %s, want an error", m.Method, r.Result)
		}
		want := m.Feature.Name + " is not available in goose-acp: " + m.Feature.Why
		if r.Error.Code != CodeUnavailable || r.Error.Message != want {
			t.Errorf("%s: error %d %q, want %d %q", m.Method, r.Error.Code, r.Error.Message, CodeUnavailable, want)
		}
		var data map[string]string
		if err := json.Unmarshal(r.Error.Data, &data); err != nil || data["method"] != m.Method || data["feature"] != m.Feature.Name {
			t.Errorf("%s: data %s", m.Method, r.Error.Data)
		}
	}
}

// docs/desktop.md's table names every unavailable method.
func TestDesktopDocListsEveryUnavailableMethod(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "desktop.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	for _, m := range UnstableUnavailable {
		name := strings.TrimPrefix(m.Method, "_goose/unstable/")
		if !strings.Contains(readme, "`"+name+"`") {
			t.Errorf("docs/desktop.md does not list %s", name)
		}
	}
}
