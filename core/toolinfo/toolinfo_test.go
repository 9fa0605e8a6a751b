package toolinfo

import (
	"reflect"
	"testing"
)

func TestFromMeta(t *testing.T) {
	meta := map[string]any{MetaKey: map[string]any{"kind": "edit", "path": "path", "textFile": true, "before": "old_str", "after": "new_str", "content": "file_text", "range": "view_range"}}
	got, ok := FromMeta(meta)
	want := Info{Kind: Edit, Path: "path", TextFile: true, Range: "view_range", Before: "old_str", After: "new_str", Content: "file_text"}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("FromMeta = %+v %v, want %+v", got, ok, want)
	}
	if _, ok := FromMeta(map[string]any{"other": 1}); ok {
		t.Fatal("a _meta without the key declares nothing")
	}
	if _, ok := FromMeta(map[string]any{MetaKey: "read"}); ok {
		t.Fatal("a non-object entry declares nothing")
	}
	if got, ok := FromMeta(map[string]any{MetaKey: map[string]any{"path": "p"}}); !ok || got.Kind != Other {
		t.Fatalf("no kind = %+v, want kind other", got)
	}
}

// TestGuess keeps the kinds goose-acp gave undeclared tools by name.
func TestGuess(t *testing.T) {
	for name, kind := range map[string]string{
		"developer__read": Read, "x__tree": Read,
		"developer__text_editor": Edit, "y__write": Edit, "image_processor": Edit,
		"remote__shell": Execute, "x__grep": Search,
		"web__fetch": Fetch, "platform__manage_extensions": Other, "echo": Other,
	} {
		if got := Guess(name); !reflect.DeepEqual(got, Info{Kind: kind}) {
			t.Errorf("Guess(%s) = %+v, want kind %s only", name, got, kind)
		}
	}
}

func TestArguments(t *testing.T) {
	read := Info{Kind: Read, Path: "path", Line: "line"}
	if p, ok := read.PathOf(map[string]any{"path": "a.go"}); !ok || p != "a.go" {
		t.Fatalf("PathOf = %q %v", p, ok)
	}
	for _, args := range []map[string]any{{"path": ""}, {"path": 3}, {"file": "a.go"}} {
		if _, ok := read.PathOf(args); ok {
			t.Errorf("PathOf(%v) found a path", args)
		}
	}
	if _, ok := (Info{}).PathOf(map[string]any{"": "x", "path": "a"}); ok {
		t.Fatal("a tool without a declared path has none")
	}
	te := Info{Kind: Edit, Path: "path", Range: "view_range"}
	for _, c := range []struct {
		info Info
		args map[string]any
		want int
	}{
		{read, map[string]any{"line": float64(7)}, 7},
		{read, map[string]any{"line": float64(0)}, 0},
		{te, map[string]any{"view_range": []any{float64(3), float64(-1)}}, 3},
		{te, map[string]any{"view_range": []any{}}, 0},
		{te, map[string]any{"line": float64(4)}, 0},
	} {
		n, ok := c.info.LineOf(c.args)
		if n != c.want || ok != (c.want > 0) {
			t.Errorf("LineOf(%v) = %d %v, want %d", c.args, n, ok, c.want)
		}
	}
}

func TestChangeOf(t *testing.T) {
	editor := Info{Kind: Edit, Path: "path", Before: "old_str", After: "new_str", Content: "file_text"}
	s := func(v string) *string { return &v }
	for _, c := range []struct {
		info Info
		args map[string]any
		want *Change
	}{
		{editor, map[string]any{"old_str": "a", "new_str": "b"}, &Change{Before: s("a"), After: "b"}},
		{editor, map[string]any{"new_str": "x"}, &Change{Before: s(""), After: "x"}}, // insert
		{editor, map[string]any{"new_str": ""}, &Change{Before: s(""), After: ""}},   // delete
		{editor, map[string]any{"file_text": "all"}, &Change{After: "all"}},
		{editor, map[string]any{"command": "view"}, nil},
		{Info{Kind: Read, After: "new_str"}, map[string]any{"new_str": "x"}, nil}, // only edits propose changes
	} {
		got, ok := c.info.ChangeOf(c.args)
		if ok != (c.want != nil) || (ok && !reflect.DeepEqual(got, *c.want)) {
			t.Errorf("ChangeOf(%v) = %+v %v, want %+v", c.args, got, ok, c.want)
		}
	}
}
