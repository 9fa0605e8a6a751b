package developer

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got (with the temp dir replaced by $DIR) to testdata/name.
func golden(t *testing.T, name, dir, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, dir, "$DIR")
	p := filepath.Join("testdata", name)
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Fatalf("%s mismatch:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

// wire renders a result as the JSON the client received.
func wire(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

func TestTextEditorGoldenFlow(t *testing.T) {
	em := &recordingEmitter{}
	h := newHarness(t, Options{Emitter: em})
	f := filepath.Join(h.dir, "app.py")
	steps := []struct {
		golden string
		args   map[string]any
		disk   string
	}{
		{"te_write.json", map[string]any{"command": "write", "path": f, "file_text": "def a():\n    return 1\n\ndef b():\n    return 2"}, "def a():\n    return 1\n\ndef b():\n    return 2\n"},
		{"te_view.json", map[string]any{"command": "view", "path": f}, ""},
		{"te_view_range.json", map[string]any{"command": "view", "path": f, "view_range": []int{2, 4}}, ""},
		{"te_str_replace.json", map[string]any{"command": "str_replace", "path": f, "old_str": "return 2", "new_str": "return 20"}, "def a():\n    return 1\n\ndef b():\n    return 20\n"},
		{"te_insert.json", map[string]any{"command": "insert", "path": f, "insert_line": 2, "new_str": "# end of a"}, "def a():\n    return 1\n# end of a\n\ndef b():\n    return 20\n"},
		{"te_undo.json", map[string]any{"command": "undo_edit", "path": f}, "def a():\n    return 1\n\ndef b():\n    return 20\n"},
		{"te_view_dir.json", map[string]any{"command": "view", "path": h.dir}, ""},
	}
	for _, st := range steps {
		res := h.mustCall(t, "text_editor", st.args)
		golden(t, st.golden, h.dir, wire(t, res))
		if st.disk != "" {
			if b, _ := os.ReadFile(f); string(b) != st.disk {
				t.Fatalf("%s: disk = %q, want %q", st.golden, b, st.disk)
			}
		}
	}
	if got := strings.Join(em.kinds(), ","); got != "locations,diff,locations,diff,locations,diff,locations,diff" {
		t.Fatalf("events = %s", got)
	}
}

func TestTextEditorErrors(t *testing.T) {
	h := newHarness(t, Options{})
	f := filepath.Join(h.dir, "f.txt")
	os.WriteFile(f, []byte("x x\nline 2\nline 3\n"), 0o644)
	big := filepath.Join(h.dir, "big.txt")
	os.WriteFile(big, []byte(strings.Repeat("a", 500_000)), 0o644)
	long := filepath.Join(h.dir, "long.txt")
	var b strings.Builder
	for i := 1; i <= 2001; i++ {
		fmt.Fprintf(&b, "Line %d\n", i)
	}
	os.WriteFile(long, []byte(b.String()), 0o644)
	os.WriteFile(filepath.Join(h.dir, ".env"), []byte("K=V"), 0o600)
	cases := []struct {
		name string
		args map[string]any
		code int64
		msg  string
	}{
		{"unknown", map[string]any{"command": "frob", "path": f}, jsonrpc.CodeInvalidParams, "Unknown command 'frob'"},
		{"missing file_text", map[string]any{"command": "write", "path": f}, jsonrpc.CodeInvalidParams, "Missing 'file_text' parameter for write command"},
		{"missing old_str", map[string]any{"command": "str_replace", "path": f, "new_str": "y"}, jsonrpc.CodeInvalidParams, "Missing 'old_str' parameter for str_replace command"},
		{"missing new_str", map[string]any{"command": "str_replace", "path": f, "old_str": "y"}, jsonrpc.CodeInvalidParams, "Missing 'new_str' parameter for str_replace command"},
		{"missing insert_line", map[string]any{"command": "insert", "path": f, "new_str": "y"}, jsonrpc.CodeInvalidParams, "Missing 'insert_line' parameter for insert command"},
		{"multiple", map[string]any{"command": "str_replace", "path": f, "old_str": "x", "new_str": "y"}, jsonrpc.CodeInvalidParams, "'old_str' must appear exactly once in the file, but it appears multiple times"},
		{"missing target", map[string]any{"command": "str_replace", "path": filepath.Join(h.dir, "nope"), "old_str": "x", "new_str": "y"}, jsonrpc.CodeInvalidParams,
			"File '" + filepath.Join(h.dir, "nope") + "' does not exist, you can write a new file with the `write` command"},
		{"view missing", map[string]any{"command": "view", "path": filepath.Join(h.dir, "nope")}, jsonrpc.CodeInternalError, "The path '" + filepath.Join(h.dir, "nope") + "' does not exist or is not accessible."},
		{"too large", map[string]any{"command": "view", "path": big}, jsonrpc.CodeInternalError, "File '" + big + "' is too large (488.28KB). Maximum size is 400KB to prevent memory issues."},
		{"too many lines", map[string]any{"command": "view", "path": long}, jsonrpc.CodeInternalError, "File '" + long + "' is 2001 lines long, recommended to read in with view_range (or searching) to get bite size content. If you do wish to read all the file, please pass in view_range with [1, 2001] to read it all at once"},
		{"range beyond", map[string]any{"command": "view", "path": f, "view_range": []int{10, 15}}, jsonrpc.CodeInvalidParams, "Start line 10 is beyond the end of the file (total lines: 3)"},
		{"range inverted", map[string]any{"command": "view", "path": f, "view_range": []int{3, 2}}, jsonrpc.CodeInvalidParams, "Start line 3 must be less than end line 2"},
		{"insert beyond", map[string]any{"command": "insert", "path": f, "insert_line": 9, "new_str": "y"}, jsonrpc.CodeInvalidParams, "Insert line 9 is beyond the end of the file (total lines: 3). Use 0 to insert at the beginning or 3 to insert at the end."},
		{"undo empty", map[string]any{"command": "undo_edit", "path": f}, jsonrpc.CodeInvalidParams, "No edit history available to undo"},
		{"ignored", map[string]any{"command": "view", "path": filepath.Join(h.dir, ".env")}, jsonrpc.CodeInternalError, "Access to '" + filepath.Join(h.dir, ".env") + "' is restricted by .gooseignore"},
		{"traversal", map[string]any{"command": "view", "path": "../x"}, jsonrpc.CodeInvalidParams, "Path '../x' resolves outside the working directory '" + h.dir + "'"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := h.call(t, "text_editor", tc.args)
			rpcError(t, err, tc.code, tc.msg)
		})
	}
	res := h.mustCall(t, "text_editor", map[string]any{"command": "view", "path": long, "view_range": []int{1, 2001}})
	if !strings.Contains(texts(res)[0], "2001: Line 2001\n```") {
		t.Fatal("explicit full range must be allowed")
	}
}

func TestTextEditorKeepsCRLFAndBOM(t *testing.T) {
	h := newHarness(t, Options{})
	f := filepath.Join(h.dir, "win.txt")
	os.WriteFile(f, []byte("\uFEFFone\r\ntwo\r\nthree"), 0o644)
	h.mustCall(t, "text_editor", map[string]any{"command": "str_replace", "path": f, "old_str": "two\nthree", "new_str": "2\n3"})
	if b, _ := os.ReadFile(f); string(b) != "\uFEFFone\r\n2\r\n3\r\n" {
		t.Fatalf("disk = %q", b)
	}
	h.mustCall(t, "text_editor", map[string]any{"command": "write", "path": f, "file_text": "a\nb"})
	if b, _ := os.ReadFile(f); string(b) != "\uFEFFa\r\nb\r\n" {
		t.Fatalf("write kept style: %q", b)
	}
}

func TestEditorFileTools(t *testing.T) {
	em := &recordingEmitter{}
	h := newHarness(t, Options{Surface: Editor, ReadTool: true, Emitter: em})
	res, _ := h.callMeta(t, "write", map[string]any{"path": "notes.txt", "content": "first line\nsecond\n"}, mcp.Meta{MetaToolCallID: "call-1"})
	if texts(res)[0] != "Created notes.txt (2 lines)" || res.IsError {
		t.Fatalf("write: %q", texts(res))
	}
	var em1 EditMeta
	b, _ := json.Marshal(res.Meta[MetaKeyEdit])
	json.Unmarshal(b, &em1)
	if em1.Path != filepath.Join(h.dir, "notes.txt") || em1.OldText != nil || em1.NewText != "first line\nsecond\n" || em1.Locations[0].Line != 1 {
		t.Fatalf("edit meta = %+v", em1)
	}
	if em.events[0].ToolCallID != "call-1" {
		t.Fatalf("event tool call id = %q", em.events[0].ToolCallID)
	}
	res = h.mustCall(t, "edit", map[string]any{"path": "notes.txt", "before": "second", "after": "updated line"})
	if texts(res)[0] != "Edited notes.txt (1 lines -> 1 lines)" {
		t.Fatalf("edit: %q", texts(res))
	}
	if got, _ := os.ReadFile(filepath.Join(h.dir, "notes.txt")); string(got) != "first line\nupdated line\n" {
		t.Fatalf("disk = %q", got)
	}
	res = h.mustCall(t, "read", map[string]any{"path": "notes.txt", "line": 2, "limit": 1})
	if texts(res)[0] != "updated line\n" {
		t.Fatalf("read: %q", texts(res))
	}
	res = h.mustCall(t, "edit", map[string]any{"path": "notes.txt", "before": "absent", "after": "x"})
	golden(t, "edit_no_match.txt", h.dir, texts(res)[0])
	h.mustCall(t, "write", map[string]any{"path": "dup.txt", "content": "a\nx\nb\nx\nc\nx\n"})
	res = h.mustCall(t, "edit", map[string]any{"path": "dup.txt", "before": "x", "after": "y"})
	golden(t, "edit_multiple.txt", h.dir, texts(res)[0])
	res = h.mustCall(t, "write", map[string]any{"path": "skill://x", "content": ""})
	if !res.IsError || !strings.HasPrefix(texts(res)[0], "'skill://x' is an MCP resource URI") {
		t.Fatalf("uri: %q", texts(res))
	}
}

func TestTreeTool(t *testing.T) {
	h := newHarness(t, Options{Surface: Editor, ReadTool: true})
	mk := func(p, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(h.dir, p)), 0o755)
		os.WriteFile(filepath.Join(h.dir, p), []byte(content), 0o644)
	}
	mk("a/x.go", "package a\n\nfunc X() {}\n")
	mk("a/deep/deep.rs", strings.Repeat("fn x() {}\n", 1200))
	mk("b/y.txt", "y\n")
	mk("root.md", "# t\n")
	mk(".hidden/z", "z\n")
	mk(".gitignore", "build/\n")
	mk("build/out.bin", "bin\n")
	res := h.mustCall(t, "tree", map[string]any{"path": ".", "depth": 1})
	golden(t, "tree_depth1.txt", h.dir, texts(res)[0])
	res = h.mustCall(t, "tree", map[string]any{"path": "."})
	golden(t, "tree_depth2.txt", h.dir, texts(res)[0])
	res = h.mustCall(t, "tree", map[string]any{"path": "root.md"})
	if !res.IsError || texts(res)[0] != "Path is not a directory: root.md" {
		t.Fatalf("file: %q", texts(res))
	}
}

// delegatedIO records calls to prove every read and write goes through FileIO.
type delegatedIO struct {
	files map[string]string
	log   []string
}

func (d *delegatedIO) ReadTextFile(_ context.Context, p string, line, limit int) (string, error) {
	d.log = append(d.log, fmt.Sprintf("read %s %d %d", filepath.Base(p), line, limit))
	c, ok := d.files[p]
	if !ok {
		return "", os.ErrNotExist
	}
	return sliceLines(c, line, limit), nil
}

func (d *delegatedIO) WriteTextFile(_ context.Context, p, content string) error {
	d.log = append(d.log, "write "+filepath.Base(p))
	d.files[p] = content
	return nil
}

func TestFileToolsUseInjectedFileIO(t *testing.T) {
	io := &delegatedIO{files: map[string]string{}}
	h := newHarness(t, Options{Surface: Editor, ReadTool: true, FileIO: io})
	unsaved := filepath.Join(h.dir, "buffer.go")
	io.files[unsaved] = "package main // unsaved\n"
	res := h.mustCall(t, "read", map[string]any{"path": "buffer.go"})
	if texts(res)[0] != "package main // unsaved\n" {
		t.Fatalf("read: %q", texts(res))
	}
	h.mustCall(t, "edit", map[string]any{"path": "buffer.go", "before": "unsaved", "after": "edited"})
	if _, err := os.Stat(unsaved); err == nil {
		t.Fatal("delegated edit touched the disk")
	}
	if strings.Join(io.log, "|") != "read buffer.go 0 0|read buffer.go 0 0|write buffer.go" {
		t.Fatalf("io log = %q", io.log)
	}
}
