package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/plugins"
)

// pluginEnv is a plugins.Env over a fresh home, with one user plugin whose
// hooks.json is hooks ("" for no plugin at all).
func pluginEnv(b *testing.B, hooks string) *plugins.Env {
	home := b.TempDir()
	if hooks != "" {
		dir := filepath.Join(home, ".agents", "plugins", "bench", "hooks")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "hooks.json"), []byte(hooks), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return &plugins.Env{Home: home, ConfigDir: filepath.Join(home, "config")}
}

// BenchmarkThreeToolTurnNoPlugins is BenchmarkThreeToolTurn with plugin
// discovery on (as goose-acp runs) and no plugin installed: what a turn
// costs a user without plugins.
func BenchmarkThreeToolTurnNoPlugins(b *testing.B) {
	env := pluginEnv(b, "")
	benchTurnWith(b, true, func(o *Options) { o.Plugins = env }, "")
}

// BenchmarkThreeToolTurnPreToolUseHook is the same turn with one plugin
// whose PreToolUse hook (sh -c true) runs before each of the three calls:
// the difference to NoPlugins is the hooks' process time.
func BenchmarkThreeToolTurnPreToolUseHook(b *testing.B) {
	env := pluginEnv(b, `{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"true"}]}]}}`)
	benchTurnWith(b, true, func(o *Options) { o.Plugins = env }, "")
}
