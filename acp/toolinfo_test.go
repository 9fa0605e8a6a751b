package acp

import (
	"context"
	"reflect"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/toolinfo"
	"github.com/goose-acp/goose-acp/developer"
)

// developerTools is what the agent learns from the real developer server
// of surface through the extension manager: each tool's Info, decoded from
// its _meta, under its "developer__" name.
func developerTools(t *testing.T, surface developer.Surface) func(string) toolinfo.Info {
	t.Helper()
	mgr := extension.New(extension.Options{Builtins: map[string]extension.BuiltinFactory{
		"developer": func(context.Context, extension.Env) (extension.Server, error) {
			return extension.Direct(developer.NewDirect(developer.Options{Surface: surface, ReadTool: true, WorkingDir: t.TempDir()})), nil
		},
	}})
	defer mgr.Close()
	ctx := context.Background()
	if err := mgr.Add(ctx, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: "developer"}); err != nil {
		t.Fatal(err)
	}
	tools := mgr.Tools(ctx)
	// As agent.ToolInfo: the tool a name refers to, older prefixed names
	// of stored sessions included.
	return func(name string) toolinfo.Info {
		if tool, ok := extension.Resolve(tools, name); ok {
			return tool.Info
		}
		return toolinfo.Guess(name)
	}
}

// TestDeveloperToolMetaMatchesToolinfo: developer (which does not import
// core/toolinfo) publishes the _meta entry core reads, with the same fields.
func TestDeveloperToolMetaMatchesToolinfo(t *testing.T) {
	if developer.MetaKeyTool != toolinfo.MetaKey {
		t.Fatalf("developer publishes %q, core reads %q", developer.MetaKeyTool, toolinfo.MetaKey)
	}
	tags := func(v any) map[string]bool {
		out := map[string]bool{}
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			tag := rt.Field(i).Tag.Get("json")
			for j := range len(tag) {
				if tag[j] == ',' {
					tag = tag[:j]
					break
				}
			}
			out[tag] = true
		}
		return out
	}
	if a, b := tags(developer.ToolMeta{}), tags(toolinfo.Info{}); !reflect.DeepEqual(a, b) {
		t.Fatalf("developer.ToolMeta fields %v, toolinfo.Info fields %v", a, b)
	}
}

// TestDeveloperToolKinds: the kinds and argument roles the editor shows
// for each developer tool, as both surfaces declare them.
func TestDeveloperToolKinds(t *testing.T) {
	editor, classic := developerTools(t, developer.Editor), developerTools(t, developer.Classic)
	for name, kind := range map[string]string{
		"read": "read", "write": "edit", "edit": "edit", "shell": "execute",
		"tree": "read", "analyze": "search", "read_image": "read",
	} {
		if got := editor(name).Kind; got != kind {
			t.Errorf("editor %s: kind %q, want %q", name, got, kind)
		}
	}
	for name, kind := range map[string]string{
		"shell": "execute", "text_editor": "edit", "analyze": "search",
		"image_processor": "edit", "list_windows": "other", "screen_capture": "other",
	} {
		if got := classic(name).Kind; got != kind {
			t.Errorf("classic %s: kind %q, want %q", name, got, kind)
		}
	}
	tr := &Translator{WorkingDir: func() string { return "/proj" }, Tools: classic}
	locs := tr.locations(classic("text_editor"), map[string]any{"command": "view", "path": "a.go", "view_range": []any{float64(4), float64(9)}})
	if len(locs) != 1 || locs[0].Path != "/proj/a.go" || locs[0].Line == nil || *locs[0].Line != 3 { // view_range 4 is row 3 (0-based)
		t.Fatalf("text_editor locations = %+v", locs)
	}
	if locs := tr.locations(classic("shell"), map[string]any{"command": "ls", "path": "x"}); locs != nil {
		t.Fatalf("shell declares no path, got %+v", locs)
	}
}
