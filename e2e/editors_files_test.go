package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
)

// missingFileEditor answers fs/read_text_file for a file that is neither
// open nor on disk the way a real editor does: Zed with "" for a path
// inside its project, VS Code's ACP Client with -32603 (the SDK's answer
// to vscode.workspace.fs.readFile's EntryNotFound). Writes are kept as
// buffers, and every call is recorded.
type missingFileEditor struct {
	empty bool // Zed's "": otherwise VS Code's -32603
	ed    editor
}

func (m *missingFileEditor) install(c *acpClient) {
	m.ed.install(c)
	c.on("fs/read_text_file", func(p json.RawMessage) (any, error) {
		var req acp.ReadTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		m.ed.mu.Lock()
		text, open := m.ed.buffers[req.Path]
		m.ed.mu.Unlock()
		if open {
			return acp.ReadTextFileResponse{Content: text}, nil
		}
		b, err := os.ReadFile(req.Path)
		switch {
		case err == nil:
			return acp.ReadTextFileResponse{Content: string(b)}, nil
		case m.empty:
			return acp.ReadTextFileResponse{Content: ""}, nil
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "Internal error",
			Data: rawJSON(`{"details":"EntryNotFound (FileSystemError): Unable to read file '` + req.Path + `' (Error: Unable to resolve nonexistent file '` + req.Path + `')"}`)}
	})
}

// TestEditorsMissingFileThroughEditor: a file
// that does not exist is "does not exist" to the model, whatever the
// editor answers for it ("" from Zed, -32603 from VS Code's ACP Client),
// and the editor is asked about it once; writing a new file asks the
// editor nothing before the write, previews it as a new file (no oldText)
// and reports it "Created".
func TestEditorsMissingFileThroughEditor(t *testing.T) {
	for _, tc := range []struct {
		name, initialize string
		empty            bool
	}{
		{"zed answers empty", zedInitialize, true},
		{"vscode answers -32603", `{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true},"clientInfo":{"name":"vscode-acp","version":"0.2.0"}}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			path := filepath.Join(work, "plan.md")
			env := newAgentEnv(t,
				toolCallTurn("call_r", devTool("read"), map[string]string{"path": "plan.md"}),
				toolCallTurn("call_w", devTool("write"), map[string]string{"path": "plan.md", "content": "# Plan\n"}),
				textTurn("created it"),
			)
			env.Vars["GOOSE_LOG_LEVEL"] = "debug"
			c := startAgent(t, env)
			m := &missingFileEditor{empty: tc.empty}
			m.install(c)
			c.answerPermissions("allow_once")
			c.initializeAs(tc.initialize)
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			if r := c.prompt(sess.SessionID, "plan it"); r.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			if !llmSaw(env, "Failed to read plan.md: file does not exist") {
				t.Error("the model was not told plan.md does not exist")
			}
			if llmSaw(env, "Internal error") || llmSaw(env, "EntryNotFound") {
				t.Error("the editor's error reached the model")
			}
			if got := c.finalStatus(sess.SessionID, "call_r"); got != "failed" {
				t.Errorf("read of a missing file ends %q, want failed", got)
			}
			var reads []string
			for _, raw := range c.callsTo("fs/read_text_file") {
				var req acp.ReadTextFileRequest
				json.Unmarshal(raw, &req)
				reads = append(reads, req.Path)
			}
			if len(reads) != 1 || reads[0] != path {
				t.Errorf("fs/read_text_file asked for %q, want once for %s (the read; the new file's write asks nothing)", reads, path)
			}
			reqs := c.permissionRequests()
			if len(reqs) != 1 {
				t.Fatalf("%d permission requests", len(reqs))
			}
			if d := onlyDiff(t, reqs[0].ToolCall.Content); d.OldText != nil || d.NewText == nil || *d.NewText != "# Plan\n" {
				t.Errorf("the new file's preview = %s, want a diff without oldText", jsonOf(d))
			}
			w := finalToolUpdate(t, c, sess.SessionID, "call_w")
			if d := onlyDiff(t, w.ToolContent); w.Status != "completed" || d.OldText != nil || w.RawOutput != "Created plan.md (1 lines)" {
				t.Errorf("the new file's final update = %s, want completed, no oldText, \"Created plan.md (1 lines)\"", jsonOf(w))
			}
			if writes := m.ed.writeLog(); len(writes) != 1 || writes[0].Path != path {
				t.Errorf("fs/write_text_file = %+v", writes)
			}
			if strings.Contains(c.stderr.String(), "editor could not read") {
				t.Errorf("an editor read error was logged:\n%s", c.stderr.String())
			}
		})
	}
}

// TestEditorsLinkOutsideWorktreeReadFromDisk: Zed answers
// -32002 for a file outside its worktrees; a resource_link to such a file
// (the user attached it, so it is allowed) is read from disk, under both
// spellings of the same file.
func TestEditorsLinkOutsideWorktreeReadFromDisk(t *testing.T) {
	work, outside := t.TempDir(), t.TempDir()
	x := filepath.Join(outside, "notes.txt")
	os.WriteFile(x, []byte("outside-worktree-61\n"), 0o644)
	env := newAgentEnv(t, textTurn("ok"))
	c := startAgent(t, env)
	c.on("fs/read_text_file", func(json.RawMessage) (any, error) {
		return nil, &jsonrpc2.Error{Code: acp.CodeResourceNotFound, Message: "Resource not found"}
	})
	c.initializeAs(zedInitialize)
	sess := c.newSession(work)
	climb := work + "/../" + filepath.Base(outside) + "/notes.txt"
	c.promptBlocks(sess.SessionID, acp.ContentBlock{Type: "text", Text: "see"},
		acp.ContentBlock{Type: "resource_link", Name: "notes.txt", URI: "file://" + x},
		acp.ContentBlock{Type: "resource_link", Name: "climb", URI: "file://" + climb})
	reqs := env.LLM.Requests()
	if len(reqs) != 1 || strings.Count(string(reqs[0].Body), "outside-worktree-61") != 2 || strings.Contains(string(reqs[0].Body), "was not attached") {
		t.Errorf("both spellings must be attached from disk: %s", reqs[0].Body)
	}
	if n := len(c.callsTo("fs/read_text_file")); n != 2 {
		t.Errorf("the editor was asked %d times, want 2 (each link once)", n)
	}
}

// TestEditorsUnreadableFileIsNotNew: an editor that fails to read a file
// that is on disk (VS Code's ACP Client answers -32603 for what
// workspace.fs cannot read) does not make it a new file: the permission
// preview shows what the write replaces, read from the disk, and the
// write is "Wrote", not "Created".
func TestEditorsUnreadableFileIsNotNew(t *testing.T) {
	work := t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	os.WriteFile(notes, []byte("old notes\n"), 0o644)
	env := newAgentEnv(t, toolCallTurn("call_w", devTool("write"), map[string]string{"path": notes, "content": "new notes\n"}), textTurn("ok"))
	c := startAgent(t, env)
	(&editor{}).install(c)
	var reads int
	c.on("fs/read_text_file", func(json.RawMessage) (any, error) {
		reads++
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "Internal error"}
	})
	c.answerPermissions("allow_once")
	c.initializeAs(`{"protocolVersion":1,"clientCapabilities":{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":true},"clientInfo":{"name":"vscode-acp","version":"0.2.0"}}`)
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	c.prompt(sess.SessionID, "rewrite notes")
	reqs := c.permissionRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d permission requests", len(reqs))
	}
	old := "old notes\n"
	want := []acp.ToolCallContent{{Type: "diff", Path: notes, OldText: &old, NewText: strp("new notes\n")}}
	if !reflect.DeepEqual(reqs[0].ToolCall.Content, want) {
		t.Errorf("permission preview = %s, want the disk's text as oldText", jsonOf(reqs[0].ToolCall.Content))
	}
	if !llmSaw(env, "Wrote "+notes+" (1 lines)") || llmSaw(env, "Created ") {
		t.Errorf("the model was not told the file was overwritten (reads %d)\n%s", reads, c.dump(sess.SessionID))
	}
}
