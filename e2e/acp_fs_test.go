package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp"
)

// editor is a fake editor's file system: open buffers (unsaved text that
// differs from disk) and a record of every write, which it keeps in the
// buffer instead of saving, so a file on disk proves a local write.
type editor struct {
	mu      sync.Mutex
	buffers map[string]string
	writes  []acp.WriteTextFileRequest
}

func (e *editor) install(c *acpClient) {
	c.on("fs/read_text_file", func(p json.RawMessage) (any, error) {
		var req acp.ReadTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if text, ok := e.buffers[req.Path]; ok {
			return acp.ReadTextFileResponse{Content: text}, nil
		}
		b, err := os.ReadFile(req.Path)
		if err != nil {
			return nil, &jsonrpc2.Error{Code: acp.CodeResourceNotFound, Message: "Resource not found"}
		}
		return acp.ReadTextFileResponse{Content: string(b)}, nil
	})
	c.on("fs/write_text_file", func(p json.RawMessage) (any, error) {
		var req acp.WriteTextFileRequest
		if err := json.Unmarshal(p, &req); err != nil {
			return nil, err
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.buffers == nil {
			e.buffers = map[string]string{}
		}
		e.buffers[req.Path] = req.Content
		e.writes = append(e.writes, req)
		return nil, nil
	})
}

func (e *editor) writeLog() []acp.WriteTextFileRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]acp.WriteTextFileRequest(nil), e.writes...)
}

var fsCaps = acp.ClientCapabilities{FS: acp.FSCapabilities{ReadTextFile: true, WriteTextFile: true}}

// Read delegation: the edit tool reads through
// fs/read_text_file (seeing the unsaved buffer), with no permission
// request for the read.
func TestSeed002ReadDelegation(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "main.py")
	os.WriteFile(path, []byte("print('disk')\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_read", "read", map[string]string{"path": "main.py"}),
		textTurn("read"),
	)
	c := startAgent(t, env)
	ed := &editor{buffers: map[string]string{path: "print('unsaved buffer')\n"}}
	ed.install(c)
	c.answerPermissions("allow_once")
	c.initialize(fsCaps)
	sess := c.newSession(work)
	c.setMode(sess.SessionID, "approve")
	if r := c.prompt(sess.SessionID, "read main.py"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	reads := c.callsTo("fs/read_text_file")
	if len(reads) != 1 {
		t.Fatalf("fs/read_text_file calls = %d, want 1", len(reads))
	}
	var req acp.ReadTextFileRequest
	json.Unmarshal(reads[0], &req)
	if req.Path != path || req.SessionID != sess.SessionID {
		t.Errorf("read request = %+v, want path %s (relative path resolved against cwd)", req, path)
	}
	if n := len(c.callsTo("session/request_permission")); n != 0 {
		t.Errorf("a read asked for permission %d times", n)
	}
	if !llmSaw(env, "print('unsaved buffer')") {
		t.Error("the model did not see the editor's unsaved buffer")
	}
	u := c.toolUpdates(sess.SessionID, "call_read")
	if u[0].Kind != "read" || len(u[0].Locations) != 1 || u[0].Locations[0].Path != path {
		t.Errorf("tool_call = %+v", u[0])
	}
	if got := c.finalStatus(sess.SessionID, "call_read"); got != "completed" {
		t.Errorf("status %q", got)
	}
}

// Write delegation: write with permission approved or rejected, with
// and without the editor's fs.
func TestSeed002Writes(t *testing.T) {
	cases := []struct {
		name        string
		fs          bool
		optionID    string
		status      string
		editorWrite bool
		onDisk      bool
	}{
		{"delegated approved", true, "allow_once", "completed", true, false},
		{"delegated rejected", true, "reject_once", "failed", false, false},
		{"local approved", false, "allow_once", "completed", false, true},
		{"local rejected", false, "reject_once", "failed", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			work := t.TempDir()
			path := filepath.Join(work, "hello.txt")
			env := newAgentEnv(t,
				toolCallTurn("call_w", "write", map[string]string{"path": path, "content": "hello from goose\n"}),
				textTurn("written"),
			)
			c := startAgent(t, env)
			ed := &editor{}
			ed.install(c)
			c.answerPermissions(tc.optionID)
			caps := acp.ClientCapabilities{}
			if tc.fs {
				caps = fsCaps
			}
			c.initialize(caps)
			sess := c.newSession(work)
			c.setMode(sess.SessionID, "approve")
			if r := c.prompt(sess.SessionID, "write hello.txt"); r.StopReason != "end_turn" {
				t.Fatalf("stopReason %q", r.StopReason)
			}
			if n := len(c.callsTo("session/request_permission")); n != 1 {
				t.Errorf("permission requests = %d, want 1", n)
			}
			writes := ed.writeLog()
			if tc.editorWrite {
				if len(writes) != 1 || writes[0].Path != path || writes[0].Content != "hello from goose\n" || writes[0].SessionID != sess.SessionID {
					t.Errorf("fs/write_text_file = %+v, want one full-content write of %s", writes, path)
				}
			} else if len(writes) != 0 {
				t.Errorf("fs/write_text_file was called: %+v", writes)
			}
			b, err := os.ReadFile(path)
			if onDisk := err == nil; onDisk != tc.onDisk {
				t.Errorf("file on disk = %v, want %v", onDisk, tc.onDisk)
			} else if tc.onDisk && string(b) != "hello from goose\n" {
				t.Errorf("disk content %q", b)
			}
			if got := c.finalStatus(sess.SessionID, "call_w"); got != tc.status {
				t.Errorf("status = %q, want %q\n%s", got, tc.status, c.dump(sess.SessionID))
			}
			if tc.status == "completed" {
				d := findDiff(c.toolUpdates(sess.SessionID, "call_w"))
				if d == nil || d.Path != path || d.NewText == nil || *d.NewText != "hello from goose\n" {
					t.Errorf("no diff content for the write: %+v", d)
				}
			}
		})
	}
}

// TestDelegatedEdit: edit reads the buffer and writes the whole new text
// through the editor; the update carries a diff with oldText and newText
// and the edited line.
func TestDelegatedEdit(t *testing.T) {
	work := t.TempDir()
	path := filepath.Join(work, "app.go")
	os.WriteFile(path, []byte("package app // on disk\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_e", "edit", map[string]string{"path": path, "before": "world", "after": "goose"}),
		textTurn("edited"),
	)
	c := startAgent(t, env)
	ed := &editor{buffers: map[string]string{path: "package app\n\nvar hello = \"world\"\n"}}
	ed.install(c)
	c.initialize(fsCaps)
	sess := c.newSession(work)
	if r := c.prompt(sess.SessionID, "edit"); r.StopReason != "end_turn" {
		t.Fatalf("stopReason %q", r.StopReason)
	}
	writes := ed.writeLog()
	if len(writes) != 1 || writes[0].Content != "package app\n\nvar hello = \"goose\"\n" {
		t.Fatalf("writes = %+v", writes)
	}
	if b, _ := os.ReadFile(path); string(b) != "package app // on disk\n" {
		t.Errorf("disk changed: %q", b)
	}
	ups := c.toolUpdates(sess.SessionID, "call_e")
	d := findDiff(ups)
	if d == nil || d.OldText == nil || !strings.Contains(*d.OldText, "world") || d.NewText == nil || !strings.Contains(*d.NewText, "goose") {
		t.Fatalf("diff = %+v\n%s", d, c.dump(sess.SessionID))
	}
	var line int
	for _, u := range ups {
		for _, l := range u.Locations {
			if l.Path == path && l.Line != nil {
				line = *l.Line
			}
		}
	}
	// Line 3 is row 2: locations[].line is 0-based, as Zed reads it.
	if line != 2 {
		t.Errorf("edit location line = %d, want 2\n%s", line, c.dump(sess.SessionID))
	}
	if got := c.finalStatus(sess.SessionID, "call_e"); got != "completed" {
		t.Errorf("status %q", got)
	}
}

// TestLocalFallbackReadsDisk: without fs caps no fs/* call is made and the
// developer tools use the local disk (edit reads the file from it).
func TestLocalFallbackReadsDisk(t *testing.T) {
	work := t.TempDir()
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("disk-only-content-777\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_r", "edit", map[string]string{"path": "notes.txt", "before": "disk-only", "after": "edited"}),
		textTurn("ok"),
	)
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initialize(acp.ClientCapabilities{})
	sess := c.newSession(work)
	c.prompt(sess.SessionID, "read")
	if n := len(c.callsTo("fs/read_text_file")) + len(c.callsTo("fs/write_text_file")); n != 0 {
		t.Errorf("fs/* called %d times without the capability", n)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "notes.txt")); string(b) != "edited-content-777\n" {
		t.Errorf("notes.txt on disk = %q", b)
	}
}

func findDiff(ups []acp.SessionUpdate) *acp.ToolCallContent {
	var d *acp.ToolCallContent
	for _, u := range ups {
		for i := range u.ToolContent {
			if u.ToolContent[i].Type == "diff" {
				d = &u.ToolContent[i]
			}
		}
	}
	return d
}

// llmSaw reports whether any request to the mock LLM contained s.
func llmSaw(env *agentEnv, s string) bool {
	needle, _ := json.Marshal(s)
	needle = needle[1 : len(needle)-1]
	for _, r := range env.LLM.Requests() {
		if strings.Contains(string(r.Body), string(needle)) {
			return true
		}
	}
	return false
}

// TestAdditionalDirectories: with additionalDirectories the effective
// roots are cwd plus those directories; absolute paths elsewhere are
// refused, and a relative directory is invalid params.
func TestAdditionalDirectories(t *testing.T) {
	work, extra, outside := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(extra, "in.txt"), []byte("inside-root-31\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "out.txt"), []byte("outside-root-32\n"), 0o644)
	env := newAgentEnv(t,
		toolCallTurn("call_in", "read", map[string]string{"path": filepath.Join(extra, "in.txt")}),
		textTurn("ok"),
		toolCallTurn("call_out", "read", map[string]string{"path": filepath.Join(outside, "out.txt")}),
		textTurn("refused"),
	)
	c := startAgent(t, env)
	(&editor{}).install(c)
	c.initialize(fsCaps) // read is offered to clients that read files
	var sess acp.NewSessionResponse
	c.call("session/new", acp.NewSessionRequest{CWD: work, MCPServers: []acp.MCPServer{}, AdditionalDirectories: []string{extra}}, &sess)
	c.prompt(sess.SessionID, "read in")
	c.prompt(sess.SessionID, "read out")
	if got := c.finalStatus(sess.SessionID, "call_in"); got != "completed" || !llmSaw(env, "inside-root-31") {
		t.Errorf("read inside an additional directory: %s", got)
	}
	if got := c.finalStatus(sess.SessionID, "call_out"); got != "failed" || llmSaw(env, "outside-root-32") {
		t.Errorf("read outside the roots: status %s\n%s", got, c.dump(sess.SessionID))
	}
	err := c.tryCall("session/new", acp.NewSessionRequest{CWD: work, MCPServers: []acp.MCPServer{}, AdditionalDirectories: []string{"rel/dir"}}, nil)
	assertRPCError(t, err, -32602)
}
