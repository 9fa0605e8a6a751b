//go:build !windows

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// Every frame an ACP v1 editor exchanges with goose-acp over stdio, in
// order, for one fixed run: initialize with the editor's exact request,
// session/new, a text turn, a turn whose write asks permission (allowed),
// a turn whose shell call is rejected, and a turn cancelled while the
// model streams; then a new process loads the session (its replay). Two capability sets: Zed's (fs, terminal, terminal auth,
// _meta.terminal_output; and its newer set adding boolean config options
// and elicitation) and codecompanion.nvim's (fs only). Pinned in
// e2e/testdata/v1_frames/<client>.golden, one frame a line: "> " is
// client to agent, "< " agent to client, then the frame as JSON with
// sorted keys.
//
// Normalised, because they change from run to run and nothing else: the
// session id ($SESSION), the temporary directories and the binary's path
// ($WORK, $ROOT, $BINARY), UUIDs (message ids and the like: $UUID1,
// $UUID2… numbered by first appearance, so equal ids stay equal), the
// mock's completion ids (chatcmpl-$1…, numbered alike: its counter is
// shared by every test of the process), RFC 3339 timestamps ($TIME), the
// Unix times in _meta.goose.created ($CREATED), usage_update's token
// counts and cost, and a turn's closing usage_update when it repeats the
// last one (the agent leaves it out when the counts are equal). No frame
// is reordered: each step waits for what it needs before the next one is
// sent, so the order on the wire is the agent's own; in particular a call
// is in_progress before the tool's first request to the editor.
//
// Regenerate with `go test ./e2e -run TestV1Frames -update`; run another
// binary with GOOSE_ACP_BINARY=<path> (with -update, its frames replace
// the goldens: `git diff` is then what changed between the two).
func TestV1Frames(t *testing.T) {
	for _, p := range []struct{ name, initialize string }{
		{"zed", zedInitialize},
		{"zed-boolean-options", zedBooleanOptionsInitialize},
		{"codecompanion", codeCompanionInitialize},
	} {
		t.Run(p.name, func(t *testing.T) {
			frames := recordV1Frames(t, p.initialize)
			path := filepath.Join("testdata", "v1_frames", p.name+".golden")
			got := strings.Join(frames, "\n") + "\n"
			if *updateGoldens {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Fatalf("%s differs (regenerate with -update and review the diff):\n%s", path, firstDifference(string(want), got))
			}
		})
	}
}

// Zed since it supports boolean config options
// (crates/agent_servers/src/acp.rs, client_capabilities_for_agent): the
// same as zedInitialize plus session.configOptions.boolean and form and
// URL elicitation (the client info is zedInitialize's).
const zedBooleanOptionsInitialize = `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true,"auth":{"terminal":true},"session":{"configOptions":{"boolean":{}}},"elicitation":{"form":{},"url":{}},"_meta":{"terminal_output":true,"terminal-auth":true}},"clientInfo":{"name":"zed","title":"Zed","version":"0.230.0"}}`

// codecompanion.nvim's ACP adapters' initialize parameters
// (lua/codecompanion/adapters/acp/*.lua): fs only.
const codeCompanionInitialize = `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true}},"clientInfo":{"name":"CodeCompanion.nvim","version":"1.0.0"}}`

// firstDifference shows the first line where got leaves want.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			at := 0
			for at < min(len(wl), len(gl)) && wl[at] == gl[at] {
				at++
			}
			from := max(at-80, 0)
			return fmt.Sprintf("line %d, byte %d\nwant: …%s\ngot:  …%s", i+1, at, wl[from:min(len(wl), at+200)], gl[from:min(len(gl), at+200)])
		}
	}
	return "(equal)"
}

// recordV1Frames runs the fixed session and returns its frames, normalised.
func recordV1Frames(t *testing.T, initialize string) []string {
	env, work := goldenEnv(t, textTurn("Hello! How can I help?"))
	env.Vars["GOOSE_MODE"] = "approve"
	r := startFrameRecorder(t, env, work)

	r.request("initialize", json.RawMessage(initialize))
	newSession := r.request("session/new", map[string]any{"cwd": work, "mcpServers": []any{}})
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(newSession, &sess); err != nil || sess.SessionID == "" {
		t.Fatalf("session/new: %s", newSession)
	}
	r.sessionID = sess.SessionID
	// Sent after session/new's answer; waited for so the next step's
	// frames cannot pass it.
	r.waitSeen("available_commands_update", func(f frame) bool { return f.update() == "available_commands_update" })

	prompt := func(text string) json.RawMessage {
		return r.request("session/prompt", map[string]any{"sessionId": sess.SessionID, "prompt": []any{map[string]any{"type": "text", "text": text}}})
	}
	prompt("hello")

	// The tools the binary offers name the calls below (goose 1.54's bare
	// names, or an older binary's prefixed ones).
	write, shell := offeredTool(t, env, "write"), offeredTool(t, env, "shell")
	env.LLM.Script.Append(
		toolCallTurn("call_write", write, map[string]string{"path": "notes.txt", "content": "remember the milk\n"}),
		textTurn("Wrote notes.txt."),
		toolCallTurn("call_rm", shell, map[string]string{"command": "rm -rf build"}),
		textTurn("I will not delete build."),
		providertest.Turn{Text: []string{"Working on it"}, Hang: true},
	)
	r.permission = "allow_once"
	prompt("write a note")
	if b, err := os.ReadFile(filepath.Join(work, "notes.txt")); err != nil || string(b) != "remember the milk\n" {
		t.Errorf("notes.txt after the allowed write: %q, %v", b, err)
	}
	r.permission = "reject_once"
	prompt("delete the build directory")

	id := r.send("session/prompt", map[string]any{"sessionId": sess.SessionID, "prompt": []any{map[string]any{"type": "text", "text": "keep going"}}})
	r.waitFrame("the streamed text", func(f frame) bool {
		return f.update() == "agent_message_chunk" && strings.Contains(string(f.raw), "Working on it")
	})
	r.notify("session/cancel", map[string]any{"sessionId": sess.SessionID})
	var cancelled struct {
		StopReason string `json:"stopReason"`
	}
	_ = json.Unmarshal(r.await(id), &cancelled)
	if cancelled.StopReason != "cancelled" {
		t.Errorf("the cancelled turn ended %q", cancelled.StopReason)
	}
	r.close()
	ids := newFrameIDs()
	frames := r.normalised(env.Root, work, ids)

	// A new process loads the session: the editor reopening the thread.
	l := startFrameRecorder(t, env, work)
	l.sessionID = sess.SessionID
	l.request("initialize", json.RawMessage(initialize))
	l.request("session/load", map[string]any{"sessionId": sess.SessionID, "cwd": work, "mcpServers": []any{}})
	l.waitSeen("available_commands_update", func(f frame) bool { return f.update() == "available_commands_update" })
	l.close()
	frames = append(frames, "# a new process: the editor loads the session")
	return append(frames, l.normalised(env.Root, work, ids)...)
}

// offeredTool is the name of the tool the binary offered the model whose
// bare name is bare.
func offeredTool(t *testing.T, env *agentEnv, bare string) string {
	t.Helper()
	reqs := env.LLM.Requests()
	if len(reqs) == 0 {
		t.Fatal("no model request")
	}
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	for _, tool := range body.Tools {
		if n := tool.Function.Name; n == bare || strings.HasSuffix(n, "__"+bare) {
			return n
		}
	}
	t.Fatalf("no %s tool offered", bare)
	return ""
}
