package toolinfo

import (
	"bytes"
	"testing"
)

func TestToolTitle(t *testing.T) {
	long := "echo " + string(bytes.Repeat([]byte("a"), 70))
	shell := Info{Kind: Execute}
	edit := Info{Kind: Edit, Path: "path", Before: "before", After: "after"}
	write := Info{Kind: Edit, Path: "path", Content: "content", Verb: "Write"} // as developer declares it
	read := Info{Kind: Read, Path: "path", Line: "line"}
	cases := []struct {
		name string
		info Info
		args map[string]any
		want string
	}{
		{"developer__shell", shell, map[string]any{"command": "npm test"}, "Run npm test"},
		{"developer__shell", shell, map[string]any{"command": long}, "Run " + long},
		{"developer__shell", shell, map[string]any{"command": "git log\n--oneline"}, "Run git log\n--oneline"},
		{"developer__shell", shell, map[string]any{"command": "echo `date`"}, "Run echo `date`"},
		{"developer__edit", edit, map[string]any{"path": "/w/src/x.go"}, "Edit src/x.go"},
		{"developer__write", write, map[string]any{"path": "/elsewhere/y.go"}, "Write /elsewhere/y.go"},
		{"developer__read", read, map[string]any{"path": "README.md"}, "Read README.md"},
		{"developer__python", shell, map[string]any{"code": "1+1"}, "Python"},
		{"platform__manage_extensions", Info{Kind: Other}, nil, "Manage extensions"},
		{"simple_tool", Info{Kind: Other}, map[string]any{"query": "  \n"}, "Simple tool"},
		{"github__search_issues", Info{Kind: Search}, map[string]any{"query": "is:open"}, "Search is:open"},
	}
	for _, c := range cases {
		if got := Title(c.name, c.args, c.info, "/w"); got != c.want {
			t.Errorf("ToolTitle(%s, %v) = %q, want %q", c.name, c.args, got, c.want)
		}
	}
}

// A tool's declared verb names its calls; one picked by an argument wins
// over the default; without a declaration the kind decides.
func TestDeclaredVerbs(t *testing.T) {
	editor := Info{Kind: Edit, Path: "path", Verb: "Edit", VerbArg: "command", Verbs: map[string]string{"view": "Read", "undo_edit": "Undo edit of"}}
	for _, tc := range []struct {
		name string
		args map[string]any
		info Info
		want string
	}{
		{"text_editor", map[string]any{"command": "view", "path": "/w/a.go"}, editor, "Read a.go"},
		{"text_editor", map[string]any{"command": "undo_edit", "path": "/w/a.go"}, editor, "Undo edit of a.go"},
		{"text_editor", map[string]any{"command": "str_replace", "path": "/w/a.go"}, editor, "Edit a.go"},
		{"mine__lister", map[string]any{"path": "/w/src"}, Info{Kind: Read, Path: "path", Verb: "List"}, "List src"},
		{"mine__lister", map[string]any{"path": "/w/src"}, Info{Kind: Read, Path: "path"}, "Read src"},
	} {
		if got := Title(tc.name, tc.args, tc.info, "/w"); got != tc.want {
			t.Errorf("%s %v = %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}
