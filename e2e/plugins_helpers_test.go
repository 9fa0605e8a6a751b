package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// shellTool is the developer shell tool's name as the model calls it.
var shellTool = devTool("shell")

// writePlugin writes a plugin directory: files by path relative to it.
func writePlugin(t *testing.T, dir string, files map[string]string) string {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(rel, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// userPlugin is a plugin in the user's plugin dir of env.
func userPlugin(t *testing.T, env *agentEnv, name string, files map[string]string) string {
	t.Helper()
	return writePlugin(t, filepath.Join(env.Root, ".agents", "plugins", name), files)
}

// hooksJSON is a hooks.json with one rule per event: event → [matcher, command].
func hooksJSON(rules map[string][2]string) string {
	type action struct {
		Type    string `json:"type"`
		Command string `json:"command"`
	}
	type rule struct {
		Matcher string   `json:"matcher,omitempty"`
		Hooks   []action `json:"hooks"`
	}
	out := map[string][]rule{}
	for ev, r := range rules {
		out[ev] = []rule{{Matcher: r[0], Hooks: []action{{Type: "command", Command: r[1]}}}}
	}
	b, _ := json.Marshal(map[string]any{"hooks": out})
	return string(b)
}

// recordTo is a hook command appending its stdin payload as one line to
// ${PLUGIN_ROOT}/<log> and exiting 0.
func recordTo(log string) string {
	return `payload=$(cat); printf '%s\n' "$payload" >> "${PLUGIN_ROOT}/` + log + `"`
}

// payloads reads the JSON lines a recording hook wrote, as written.
func payloads(path string) []string {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if line != "" {
			out = append(out, line)
		}
	}
	return out
}

// waitPayloads waits until path holds n payload lines.
func waitPayloads(path string, n int) []string {
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := payloads(path)
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// field reads one top-level field of a JSON payload.
func field(t *testing.T, payload, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		t.Fatalf("hook payload %q: %v", payload, err)
	}
	return m[name]
}
