package developer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file tool of both surfaces refuses a path .gooseignore restricts,
// with goose's text, and leaves the file as it was.
func TestGooseIgnoreOnEveryFileTool(t *testing.T) {
	type call struct {
		tool string
		args func(secret, dir string) map[string]any
	}
	classic := []call{
		{"text_editor", func(p, _ string) map[string]any { return map[string]any{"command": "view", "path": p} }},
		{"text_editor", func(p, _ string) map[string]any {
			return map[string]any{"command": "write", "path": p, "file_text": "x"}
		}},
		{"text_editor", func(p, _ string) map[string]any {
			return map[string]any{"command": "str_replace", "path": p, "old_str": "TOKEN", "new_str": "x"}
		}},
		{"text_editor", func(p, _ string) map[string]any {
			return map[string]any{"command": "insert", "path": p, "insert_line": 0, "new_str": "x"}
		}},
		{"text_editor", func(p, _ string) map[string]any { return map[string]any{"command": "undo_edit", "path": p} }},
		{"analyze", func(p, _ string) map[string]any { return map[string]any{"path": p} }},
		{"image_processor", func(p, _ string) map[string]any { return map[string]any{"path": p} }},
	}
	editor := []call{
		{"read", func(p, _ string) map[string]any { return map[string]any{"path": p} }},
		{"write", func(p, _ string) map[string]any { return map[string]any{"path": p, "content": "x"} }},
		{"edit", func(p, _ string) map[string]any { return map[string]any{"path": p, "before": "TOKEN", "after": "x"} }},
		{"tree", func(_, d string) map[string]any { return map[string]any{"path": d} }},
		{"read_image", func(p, _ string) map[string]any { return map[string]any{"source": p} }},
	}
	analyzeCalls := []call{{"analyze", func(p, _ string) map[string]any { return map[string]any{"path": p} }}}
	for _, surface := range []struct {
		s     Surface
		calls []call
	}{{Classic, classic}, {Editor, editor}, {Analyze, analyzeCalls}} {
		for _, c := range surface.calls {
			h := newHarness(t, Options{Surface: surface.s, ReadTool: true})
			os.WriteFile(filepath.Join(h.dir, ".gooseignore"), []byte("secret.txt\nprivate/\n"), 0o644)
			secret := filepath.Join(h.dir, "secret.txt")
			os.WriteFile(secret, []byte("TOKEN=1\n"), 0o600)
			private := filepath.Join(h.dir, "private")
			os.Mkdir(private, 0o755)
			args := c.args(secret, private)
			target := secret
			if c.tool == "tree" {
				target = private
			}
			res, err := h.call(t, c.tool, args)
			msg := ""
			switch {
			case err != nil:
				msg = err.Error()
			case res.IsError:
				msg = strings.Join(texts(res), "\n")
			}
			want := "Access to '" + target + "' is restricted by .gooseignore"
			if !strings.Contains(msg, want) {
				t.Errorf("surface %d %s %v: got %q (err %v), want %q", surface.s, c.tool, args, msg, err, want)
			}
			if b, _ := os.ReadFile(secret); string(b) != "TOKEN=1\n" {
				t.Errorf("surface %d %s changed the ignored file: %q", surface.s, c.tool, b)
			}
		}
	}
}
