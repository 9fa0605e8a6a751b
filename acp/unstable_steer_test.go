package acp

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// heldModel holds its first reply until released and records the last
// message of every request.
type heldModel struct {
	instantModel
	release chan struct{}
	mu      sync.Mutex
	calls   int
	lasts   []string
}

func (m *heldModel) Stream(ctx context.Context, req provider.Request) iter.Seq2[provider.Chunk, error] {
	m.mu.Lock()
	m.calls++
	first := m.calls == 1
	m.lasts = append(m.lasts, req.Messages[len(req.Messages)-1].AsText())
	m.mu.Unlock()
	return func(yield func(provider.Chunk, error) bool) {
		if first {
			select {
			case <-m.release:
			case <-ctx.Done():
				yield(provider.Chunk{}, ctx.Err())
				return
			}
		}
		reply := conversation.AssistantText(0, "ok")
		yield(provider.Chunk{Message: &reply}, nil)
	}
}

func TestUnstableSteerReachesTheRunningTurn(t *testing.T) {
	model := &heldModel{release: make(chan struct{})}
	r := newDesktopRigWithModel(t, model)
	// The run id comes only to a client that asked for goose's own
	// notifications, as Desktop does.
	r.callRaw(t, 1, "initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{"_meta": map[string]any{"goose": map[string]any{"customNotifications": true}}}})
	id := r.newSession(t)
	if code, _, _ := r.callErr(t, unstable+"session/steer", map[string]any{"sessionId": id, "expectedRunId": "run_x",
		"prompt": []any{map[string]any{"type": "text", "text": "late"}}}); code != -32602 {
		t.Fatalf("steer with no turn running: %d", code)
	}
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":800,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"first"}]}}`, id))
	runID := ""
	for runID == "" {
		var f struct {
			Method string `json:"method"`
			Params struct {
				Update struct {
					SessionUpdate string `json:"sessionUpdate"`
					Meta          struct {
						Goose struct {
							ActiveRunID *string `json:"activeRunId"`
						} `json:"goose"`
					} `json:"_meta"`
				} `json:"update"`
			} `json:"params"`
		}
		mustUnmarshal(t, []byte(r.read(t)), &f)
		if f.Params.Update.SessionUpdate == "session_info_update" && f.Params.Update.Meta.Goose.ActiveRunID != nil {
			runID = *f.Params.Update.Meta.Goose.ActiveRunID
		}
	}
	var info struct {
		Session SessionInfo `json:"session"`
	}
	mustUnmarshal(t, r.call(t, unstable+"session/info", map[string]any{"sessionId": id}), &info)
	if g, _ := info.Session.Meta["goose"].(map[string]any); g["activeRunId"] != runID {
		t.Fatalf("session/info during the run: %v", info.Session.Meta)
	}
	var steer steerResponse
	mustUnmarshal(t, r.call(t, unstable+"session/steer", map[string]any{"sessionId": id, "expectedRunId": runID,
		"prompt": []any{map[string]any{"type": "text", "text": "also check the tests"}}}), &steer)
	if steer.RunID != runID || steer.MessageID == "" {
		t.Fatalf("steer: %+v", steer)
	}
	if code, _, _ := r.callErr(t, unstable+"session/steer", map[string]any{"sessionId": id, "expectedRunId": "run_other",
		"prompt": []any{map[string]any{"type": "text", "text": "x"}}}); code != -32602 {
		t.Fatalf("steer into another run: %d", code)
	}
	// The steered input may be taken (and its chunk sent) before the model
	// is released — while the calls above waited for their answers — or
	// after; look at both.
	sawChunk, sawEnd := false, false
	for _, line := range r.skipped {
		var f struct {
			Params struct {
				Update map[string]any `json:"update"`
			} `json:"params"`
		}
		mustUnmarshal(t, []byte(line), &f)
		u := f.Params.Update
		sawChunk = sawChunk || (u["sessionUpdate"] == "user_message_chunk" && u["messageId"] == steer.MessageID)
	}
	close(model.release)
	for {
		line := r.read(t)
		var f struct {
			ID     json.RawMessage `json:"id"`
			Params struct {
				Update map[string]any `json:"update"`
			} `json:"params"`
		}
		mustUnmarshal(t, []byte(line), &f)
		if string(f.ID) == "800" {
			break
		}
		u := f.Params.Update
		if u["sessionUpdate"] == "user_message_chunk" && u["messageId"] == steer.MessageID {
			sawChunk = true
		}
		if u["sessionUpdate"] == "session_info_update" {
			meta, _ := u["_meta"].(map[string]any)
			if g, ok := meta["goose"].(map[string]any); ok {
				if v, has := g["activeRunId"]; has && v == nil {
					sawEnd = true
				}
			}
		}
	}
	if !sawChunk || !sawEnd {
		t.Fatalf("steered chunk seen %v, run end seen %v", sawChunk, sawEnd)
	}
	model.mu.Lock()
	defer model.mu.Unlock()
	// The steer may land before the turn's first provider call (then that
	// call reads it) or while the model answers (then a second call does).
	last, _, _ := strings.Cut(model.lasts[len(model.lasts)-1], "\n<turn-context>") // the turn's context block follows
	if !strings.HasSuffix(last, "also check the tests") {
		t.Fatalf("the model did not read the steered input: %d calls, last messages %q", model.calls, model.lasts)
	}
	stored := false
	for _, m := range r.onDisk(t, id).Conversation {
		stored = stored || (m.Role == conversation.RoleUser && m.AsText() == "also check the tests" && m.IDOrEmpty() == steer.MessageID)
	}
	if !stored {
		t.Fatal("the steered input is not in sessions.db")
	}
}
