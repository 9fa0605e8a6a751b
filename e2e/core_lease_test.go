package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// alongside starts goose-acp with ACP on stdio and the goosed API on a
// free port (--http), and waits for the API.
func alongside(t *testing.T, env *agentEnv) (*acpClient, string) {
	t.Helper()
	const secret = "lease-secret"
	env.Vars["GOOSE_SERVER__SECRET_KEY"] = secret
	addr := freeAddr(t)
	base := "http://" + addr
	c := startAgent(t, env, "--http", addr, "--tls=false")
	waitStatus(t, base)
	return c, base
}

// TestCoreWorkingDirMovedOverREST: Desktop moves a session an editor has
// open (goosed's /agent/update_working_dir); the editor's next tool call
// resolves relative paths in the new directory, where the tool ran — the
// ACP face keeps no copy of the working dir.
func TestCoreWorkingDirMovedOverREST(t *testing.T) {
	first, moved := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(moved, "notes.md"), []byte("moved notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newAgentEnv(t,
		toolCallTurn("call_read", devTool("read"), map[string]any{"path": "notes.md"}),
		textTurn("read"),
	)
	c, base := alongside(t, env)
	(&editor{}).install(c)
	c.initializeAs(zedInitialize)
	sess := c.newSession(first)
	body := `{"session_id":` + string(mustMarshal(sess.SessionID)) + `,"working_dir":` + string(mustMarshal(moved)) + `}`
	if code := httpCall(t, "POST", base+"/agent/update_working_dir", "lease-secret", body, nil); code != 200 {
		t.Fatalf("update_working_dir: %d", code)
	}
	if r := c.prompt(sess.SessionID, "read the notes"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	if !llmSaw(env, "moved notes") {
		t.Fatalf("the tool did not read the moved directory's file\n%s", c.dump(sess.SessionID))
	}
	var req acp.ReadTextFileRequest
	if reads := c.callsTo("fs/read_text_file"); len(reads) != 1 || json.Unmarshal(reads[0], &req) != nil || req.Path != filepath.Join(moved, "notes.md") {
		t.Errorf("the editor was asked to read %v, want %s", reads, filepath.Join(moved, "notes.md"))
	}
	want := `[{"path":"` + filepath.Join(moved, "notes.md") + `"}]`
	n := 0
	for _, u := range c.toolUpdates(sess.SessionID, "call_read") {
		if u.Locations == nil {
			continue
		}
		n++
		if got := jsonOf(u.Locations); got != want {
			t.Errorf("%s locations = %s, want %s", u.SessionUpdate, got, want)
		}
	}
	if n == 0 {
		t.Errorf("call_read has no locations\n%s", c.dump(sess.SessionID))
	}
	terminate(t, c)
}

// TestCoreRESTStopLeavesTheEditorsSession: goosed's /agent/stop lets go of
// the REST face's hold; a session an editor has open stays loaded and its
// next prompt runs. A session only REST held is stopped (404 the second
// time).
func TestCoreRESTStopLeavesTheEditorsSession(t *testing.T) {
	env := newAgentEnv(t, textTurn("still here"))
	c, base := alongside(t, env)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(env.Root)
	stop := `{"session_id":` + string(mustMarshal(sess.SessionID)) + `}`
	if code := httpCall(t, "POST", base+"/agent/stop", "lease-secret", stop, nil); code != 200 {
		t.Fatalf("agent/stop: %d", code)
	}
	if r := c.prompt(sess.SessionID, "are you there"); r.StopReason != "end_turn" {
		t.Fatalf("prompt after REST's stop: %+v\n%s", r, c.stderr.String())
	}

	var started struct {
		ID string `json:"id"`
	}
	if code := httpCall(t, "POST", base+"/agent/start", "lease-secret", `{"working_dir":`+string(mustMarshal(env.Root))+`}`, &started); code != 200 {
		t.Fatalf("agent/start: %d", code)
	}
	own := `{"session_id":` + string(mustMarshal(started.ID)) + `}`
	if code := httpCall(t, "POST", base+"/agent/stop", "lease-secret", own, nil); code != 200 {
		t.Fatalf("agent/stop of REST's session: %d", code)
	}
	if code := httpCall(t, "POST", base+"/agent/stop", "lease-secret", own, nil); code != 404 {
		t.Fatalf("second agent/stop: %d, want 404", code)
	}
	terminate(t, c)
}
