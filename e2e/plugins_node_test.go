package e2e

import (
	"encoding/json"
	"testing"
)

// TestPluginsNodeSDKClient: the official ACP TypeScript SDK client sees a
// project plugin's consent notice, a tool call a PreToolUse hook denied
// (failed, with goose's denial text) and a Stop hook's notice, every frame
// valid against the SDK's zod schemas.
func TestPluginsNodeSDKClient(t *testing.T) {
	dir := nodeHarness(t)
	work, _ := repoWithPlugin(t)
	env := newAgentEnv(t,
		toolCallTurn("call_rm", shellTool, map[string]string{"command": "rm -rf build"}),
		textTurn("Done."), textTurn("Tests pass. Done."))
	userPlugin(t, env, "guard", map[string]string{
		"guard.sh":         guardScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{"PreToolUse": {"shell$", "sh ${PLUGIN_ROOT}/guard.sh"}}),
	})
	userPlugin(t, env, "tests-first", map[string]string{
		"stop.sh":          stopScript,
		"hooks/hooks.json": hooksJSON(map[string][2]string{"Stop": {"", "sh ${PLUGIN_ROOT}/stop.sh"}}),
	})
	var report struct {
		Frames     int               `json:"frames"`
		Violations []json.RawMessage `json:"violations"`
	}
	runNodeHarness(t, dir, append(env.environ(), "GOOSE_ACP_BIN="+binary, "WORKDIR="+work), &report, "plugins")
	if report.Frames == 0 || len(report.Violations) != 0 {
		t.Fatalf("frames=%d violations=%s", report.Frames, report.Violations)
	}
}
