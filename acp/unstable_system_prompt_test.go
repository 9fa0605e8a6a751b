package acp

import (
	"context"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/provider"
)

// systemRecorder is instantModel that keeps each request's system prompt.
type systemRecorder struct {
	instantModel
	mu      sync.Mutex
	systems []string
}

func (m *systemRecorder) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	m.mu.Lock()
	m.systems = append(m.systems, req.System)
	m.mu.Unlock()
	return m.instantModel.Stream(ctx, req)
}

func (m *systemRecorder) last() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.systems[len(m.systems)-1]
}

func (r *desktopRig) prompt(t *testing.T, id, text string) {
	t.Helper()
	r.nextID++
	rep := r.callRaw(t, r.nextID, "session/prompt", map[string]any{"sessionId": id,
		"prompt": []any{map[string]any{"type": "text", "text": text}}})
	if rep.Error != nil {
		t.Fatalf("prompt: %+v", rep.Error)
	}
}

func TestUnstableSystemPromptSetAndAppend(t *testing.T) {
	rec := &systemRecorder{}
	r := newDesktopRigWithModel(t, rec)
	id := r.newSession(t)
	r.call(t, unstable+"session/system-prompt/set", map[string]any{"sessionId": id, "mode": "append", "key": "style", "text": "Answer in haiku."})
	r.prompt(t, id, "one")
	if got := rec.last(); !strings.Contains(got, "# Additional Instructions:") || !strings.HasSuffix(got, "Answer in haiku.") {
		t.Fatalf("appended instruction missing:\n%s", got)
	}
	r.call(t, unstable+"session/system-prompt/set", map[string]any{"sessionId": id, "mode": "set", "text": "You are a test double."})
	r.call(t, unstable+"session/system-prompt/set", map[string]any{"sessionId": id, "key": "style", "text": " "})
	r.prompt(t, id, "two")
	if got := rec.last(); got != "You are a test double." {
		t.Fatalf("replaced prompt (extra cleared):\n%s", got)
	}
	r.call(t, unstable+"session/system-prompt/set", map[string]any{"sessionId": id, "mode": "set", "text": ""})
	r.prompt(t, id, "three")
	if got := rec.last(); got == "You are a test double." || !strings.Contains(got, "goose") {
		t.Fatalf("base prompt not restored:\n%s", got)
	}
	code, _, data := r.callErr(t, unstable+"session/system-prompt/set", map[string]any{"sessionId": id, "mode": "append", "text": "x"})
	if code != -32602 || data != `"key cannot be empty for append mode"` {
		t.Fatalf("append without key: %d %s", code, data)
	}
}
