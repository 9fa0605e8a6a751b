package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/acp"
)

// TestPluginFileHooksAndFailures: a user plugin's BeforeReadFile hook
// fires before a `read` whose path its matcher selects (and not for
// another path), AfterFileEdit after a successful `write` but not after
// an `edit` that fails, and PostToolUseFailure for that failed `edit`
// only; each payload carries goose's fields in goose's order, the file
// path as matcher_context (no tool_call_id on the file events).
func TestPluginFileHooksAndFailures(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	other := filepath.Join(work, "other.txt")
	out := filepath.Join(work, "out.txt")
	for _, p := range []string{notes, other} {
		if err := os.WriteFile(p, []byte("some notes\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := newAgentEnv(t,
		toolCallTurn("call_read", devTool("read"), map[string]string{"path": notes}),
		toolCallTurn("call_other", devTool("read"), map[string]string{"path": other}),
		toolCallTurn("call_write", devTool("write"), map[string]string{"path": out, "content": "hello\n"}),
		toolCallTurn("call_edit", devTool("edit"), map[string]string{"path": out, "before": "not in the file", "after": "x"}),
		textTurn("done"))
	root := userPlugin(t, env, "files", map[string]string{
		"hooks/hooks.json": hooksJSON(map[string][2]string{
			"BeforeReadFile":     {`notes\.txt$`, recordTo("read.log")},
			"AfterFileEdit":      {"", recordTo("edit.log")},
			"PostToolUse":        {"", recordTo("post.log")},
			"PostToolUseFailure": {"", recordTo("postfail.log")},
		}),
	})
	c := startAgent(t, env)
	c.on("fs/read_text_file", func(p json.RawMessage) (any, error) {
		var req acp.ReadTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(req.Path)
		return acp.ReadTextFileResponse{Content: string(b)}, err
	})
	c.initialize(acp.ClientCapabilities{FS: acp.FSCapabilities{ReadTextFile: true}})
	sess := c.newSession(work)
	if resp := c.prompt(sess.SessionID, "read, write, edit"); resp.StopReason != "end_turn" {
		t.Fatalf("stop %q\n%s", resp.StopReason, c.stderr.String())
	}
	if st := c.finalStatus(sess.SessionID, "call_edit"); st != "failed" {
		t.Fatalf("the edit that matches nothing ended %q\n%s", st, c.dump(sess.SessionID))
	}
	id := sess.SessionID
	input := func(kv ...string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		b, _ := json.Marshal(m)
		return string(b)
	}
	fileEvent := func(ev, tool, path, in string) string {
		return `{"event":"` + ev + `","session_id":"` + id + `","matcher_context":"` + path + `","tool_name":"` + tool + `","tool_input":` + in + `,"working_dir":"` + work + `"}`
	}
	toolEvent := func(ev, call, tool, in string) string {
		return `{"event":"` + ev + `","session_id":"` + id + `","matcher_context":"` + tool + `","tool_call_id":"` + call + `","tool_name":"` + tool + `","tool_input":` + in + `,"working_dir":"` + work + `"}`
	}
	check := func(log string, want ...string) {
		t.Helper()
		if got := payloads(filepath.Join(root, log)); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s\n got %s\nwant %s", log, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	writeIn := input("path", out, "content", "hello\n")
	editIn := input("path", out, "before", "not in the file", "after", "x")
	check("read.log", fileEvent("BeforeReadFile", devTool("read"), notes, input("path", notes)))
	check("edit.log", fileEvent("AfterFileEdit", devTool("write"), out, writeIn))
	check("post.log",
		toolEvent("PostToolUse", "call_read", devTool("read"), input("path", notes)),
		toolEvent("PostToolUse", "call_other", devTool("read"), input("path", other)),
		toolEvent("PostToolUse", "call_write", devTool("write"), writeIn))
	check("postfail.log", toolEvent("PostToolUseFailure", "call_edit", devTool("edit"), editIn))
}
