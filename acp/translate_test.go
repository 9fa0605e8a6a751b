package acp

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/toolinfo"
	"github.com/goose-acp/goose-acp/developer"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("read golden (run with -update to create): %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n got %s\nwant %s", name, got, want)
	}
}

func TestReplayUpdatesGolden(t *testing.T) {
	raw, err := os.ReadFile("testdata/replay_conversation.json")
	if err != nil {
		t.Fatal(err)
	}
	var msgs []conversation.Message
	if err := json.Unmarshal(raw, &msgs); err != nil {
		t.Fatal(err)
	}
	tr := &Translator{WorkingDir: "/proj", Tools: developerTools(t, developer.Editor)}
	var buf bytes.Buffer
	for _, m := range msgs {
		for _, u := range tr.MessageUpdates(m, true) {
			b, err := jsonMarshal(SessionNotification{SessionID: "20260512_1", Update: u})
			if err != nil {
				t.Fatal(err)
			}
			buf.Write(b)
			buf.WriteByte('\n')
		}
	}
	golden(t, "replay_updates.jsonl", buf.Bytes())
}

func TestToolTitle(t *testing.T) {
	long := "echo " + string(bytes.Repeat([]byte("a"), 70))
	shell := toolinfo.Info{Kind: toolinfo.Execute}
	edit := toolinfo.Info{Kind: toolinfo.Edit, Path: "path", Before: "before", After: "after"}
	write := toolinfo.Info{Kind: toolinfo.Edit, Path: "path", Content: "content"}
	read := toolinfo.Info{Kind: toolinfo.Read, Path: "path", Line: "line"}
	cases := []struct {
		name string
		info toolinfo.Info
		args map[string]any
		want string
	}{
		{"developer__shell", shell, map[string]any{"command": "npm test"}, "Run `npm test`"},
		{"developer__shell", shell, map[string]any{"command": long}, "Run `" + long + "`"},
		{"developer__shell", shell, map[string]any{"command": "git log\n--oneline"}, "Run `git log\n--oneline`"},
		{"developer__shell", shell, map[string]any{"command": "echo `date`"}, "Run `` echo `date` ``"},
		{"developer__edit", edit, map[string]any{"path": "/w/src/x.go"}, "Edit src/x.go"},
		{"developer__write", write, map[string]any{"path": "/elsewhere/y.go"}, "Write /elsewhere/y.go"},
		{"developer__read", read, map[string]any{"path": "README.md"}, "Read README.md"},
		{"developer__python", shell, map[string]any{"code": "1+1"}, "Python"},
		{"platform__manage_extensions", toolinfo.Info{Kind: toolinfo.Other}, nil, "Manage extensions"},
		{"simple_tool", toolinfo.Info{Kind: toolinfo.Other}, map[string]any{"query": "  \n"}, "Simple tool"},
		{"github__search_issues", toolinfo.Info{Kind: toolinfo.Search}, map[string]any{"query": "is:open"}, "Search is:open"},
	}
	for _, c := range cases {
		if got := ToolTitle(conversation.ToolCall{Name: c.name, Arguments: c.args}, c.info, "/w"); got != c.want {
			t.Errorf("ToolTitle(%s, %v) = %q, want %q", c.name, c.args, got, c.want)
		}
	}
}
