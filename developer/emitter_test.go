package developer

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// panickingEmitter stands for an adapter whose notification channel broke.
type panickingEmitter struct{ calls atomic.Int64 }

func (p *panickingEmitter) Emit(context.Context, Event) {
	p.calls.Add(1)
	panic("notification channel closed")
}

// A failing notification never breaks the command or the edit.
func TestFailingEmitterNeverBreaksTools(t *testing.T) {
	em := &panickingEmitter{}
	h := newHarness(t, Options{Surface: Editor, Emitter: em})
	res := h.mustCall(t, "shell", map[string]any{"command": "echo one; echo two"})
	if res.IsError || texts(res)[0] != "one\ntwo" {
		t.Fatalf("shell: %v %q", res.IsError, texts(res))
	}
	f := filepath.Join(h.dir, "n.txt")
	res = h.mustCall(t, "write", map[string]any{"path": f, "content": "x\n"})
	if res.IsError || !strings.Contains(texts(res)[0], "n.txt") {
		t.Fatalf("write: %v %q", res.IsError, texts(res))
	}
	if em.calls.Load() < 3 {
		t.Fatalf("emitter called %d times; the test did not exercise it", em.calls.Load())
	}
}
