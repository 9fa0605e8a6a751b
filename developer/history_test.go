package developer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

func TestEditHistoryDepthLimit(t *testing.T) {
	h := newEditHistory()
	for i := range maxUndoDepth + 8 {
		h.push("a", fmt.Sprint(i))
	}
	for i := maxUndoDepth + 7; i >= 8; i-- {
		if got, ok := h.pop("a"); !ok || got != fmt.Sprint(i) {
			t.Fatalf("pop = %q %v, want %d", got, ok, i)
		}
	}
	if got, ok := h.pop("a"); ok {
		t.Fatalf("pop past the depth limit = %q", got)
	}
	if h.bytes != 0 || len(h.byKey) != 0 {
		t.Fatalf("accounting after emptying: %d bytes, %d keys", h.bytes, len(h.byKey))
	}
}

func TestEditHistoryByteBudgetDropsOldestAcrossFiles(t *testing.T) {
	h := newEditHistory()
	big := strings.Repeat("x", maxUndoBytes/4)
	h.push("a", "a0"+big)
	h.push("b", "b0"+big)
	h.push("a", "a1"+big)
	h.push("b", "b1"+big)
	h.push("c", "c0"+big) // over budget: a0 (the oldest) goes
	if h.bytes > maxUndoBytes {
		t.Fatalf("%d bytes kept, budget %d", h.bytes, maxUndoBytes)
	}
	if got, _ := h.pop("a"); got[:2] != "a1" {
		t.Fatalf("a's newest = %.2s", got)
	}
	if _, ok := h.pop("a"); ok {
		t.Fatal("a0 survived the byte budget")
	}
	if got, _ := h.pop("b"); got[:2] != "b1" {
		t.Fatalf("b's newest = %.2s", got)
	}
	// One entry larger than the budget is still kept: the edit just made
	// must stay undoable.
	h2 := newEditHistory()
	h2.push("huge", strings.Repeat("y", maxUndoBytes+1))
	if _, ok := h2.pop("huge"); !ok {
		t.Fatal("the only entry was dropped")
	}
}

func TestUndoEditThroughTextEditorStopsAtDepthLimit(t *testing.T) {
	h := newHarness(t, Options{})
	f := filepath.Join(h.dir, "n.txt")
	h.mustCall(t, "text_editor", map[string]any{"command": "write", "path": f, "file_text": "v0"})
	for i := range maxUndoDepth + 2 {
		h.mustCall(t, "text_editor", map[string]any{"command": "str_replace", "path": f, "old_str": fmt.Sprintf("v%d", i), "new_str": fmt.Sprintf("v%d", i+1)})
	}
	for range maxUndoDepth {
		if res := h.mustCall(t, "text_editor", map[string]any{"command": "undo_edit", "path": f}); texts(res)[0] != "Undid the last edit" {
			t.Fatalf("undo: %q", texts(res))
		}
	}
	if b, _ := os.ReadFile(f); strings.TrimSpace(string(b)) != "v2" {
		t.Fatalf("after %d undos of %d edits the file holds %q", maxUndoDepth, maxUndoDepth+2, b)
	}
	_, err := h.call(t, "text_editor", map[string]any{"command": "undo_edit", "path": f})
	rpcError(t, err, jsonrpc.CodeInvalidParams, "No edit history available to undo")
}
