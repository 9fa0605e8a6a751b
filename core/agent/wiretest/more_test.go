package wiretest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func todoCall(id, content string) providertest.ToolCall {
	return providertest.ToolCall{ID: id, Name: "todo__todo_write", Arguments: `{"content":"` + content + `"}`}
}

// TestWireLoopBranches runs the loop's main branches over each wire
// format, checking the requests the mock server received.
func TestWireLoopBranches(t *testing.T) {
	tests := []struct {
		name  string
		mode  string
		turns []providertest.Turn
		start agent.StartOptions
		stop  agent.StopReason
		check func(t *testing.T, reqs []providertest.Request, msgs []conversation.Message)
	}{
		{
			name: "parallel tools", mode: "auto",
			turns: []providertest.Turn{{ToolCalls: []providertest.ToolCall{todoCall("c1", "a"), todoCall("c2", "bb"), todoCall("c3", "ccc")}}, {Text: []string{"ok"}}},
			stop:  agent.EndTurn,
			check: func(t *testing.T, reqs []providertest.Request, _ []conversation.Message) {
				body := string(reqs[1].Body)
				for _, want := range []string{"Updated (1 chars)", "Updated (2 chars)", "Updated (3 chars)", "c1", "c2", "c3"} {
					if !strings.Contains(body, want) {
						t.Errorf("second request lacks %q", want)
					}
				}
			},
		},
		{
			name: "chat mode", mode: "chat",
			turns: []providertest.Turn{{ToolCalls: []providertest.ToolCall{todoCall("c1", "a")}}, {Text: []string{"plan"}}},
			stop:  agent.EndTurn,
			check: func(t *testing.T, reqs []providertest.Request, _ []conversation.Message) {
				if !strings.Contains(string(reqs[1].Body), "skipped in goose chat mode") {
					t.Error("second request lacks the chat-mode text")
				}
			},
		},
		{
			name: "max turns", mode: "auto",
			turns: []providertest.Turn{{ToolCalls: []providertest.ToolCall{todoCall("c1", "a")}}, {ToolCalls: []providertest.ToolCall{todoCall("c2", "b")}}},
			start: agent.StartOptions{MaxTurns: 1},
			stop:  agent.MaxTurns,
			check: func(t *testing.T, reqs []providertest.Request, msgs []conversation.Message) {
				if len(reqs) != 1 || msgs[len(msgs)-1].AsText() != agent.MaxTurnsText {
					t.Errorf("requests=%d last=%q", len(reqs), msgs[len(msgs)-1].AsText())
				}
			},
		},
		{
			name: "final output", mode: "auto",
			turns: []providertest.Turn{
				{Text: []string{"done?"}},
				{ToolCalls: []providertest.ToolCall{{ID: "f", Name: agent.FinalOutputToolName, Arguments: `{"final_output":"{\"message\": \"hi\"}"}`}}},
			},
			start: agent.StartOptions{Recipe: &agent.Recipe{ResponseSchema: []byte(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)}},
			stop:  agent.EndTurn,
			check: func(t *testing.T, reqs []providertest.Request, msgs []conversation.Message) {
				if !strings.Contains(string(reqs[1].Body), "You MUST call the `final_output` tool") {
					t.Error("continuation missing")
				}
				if got := msgs[len(msgs)-1].AsText(); got != `{"message":"hi"}` {
					t.Errorf("final = %q", got)
				}
			},
		},
	}
	for _, b := range backends {
		for _, tc := range tests {
			t.Run(b.format.String()+"/"+tc.name, func(t *testing.T) {
				f := setupWith(t, b, tc.mode, tc.start, tc.turns...)
				out, msgs := f.reply(t, "go", nil)
				if out.StopReason != tc.stop {
					t.Fatalf("stop = %v (%v)", out.StopReason, out.Err)
				}
				tc.check(t, f.srv.Requests(), msgs)
			})
		}
	}
}

func TestWireCancelMidStream(t *testing.T) {
	for _, b := range backends {
		t.Run(b.format.String(), func(t *testing.T) {
			f := setup(t, b, "auto", providertest.Turn{Text: []string{"partial", " never"}, Hang: true})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			// The server hangs after its first stream event; cancel once
			// the request is in.
			go func() {
				for len(f.srv.Requests()) == 0 && ctx.Err() == nil {
					time.Sleep(5 * time.Millisecond)
				}
				time.Sleep(50 * time.Millisecond)
				cancel()
			}()
			start := time.Now()
			out, err := f.a.Reply(ctx, f.id, conversation.UserText(1, "go"), nil)
			if err != nil || out.StopReason != agent.Cancelled {
				t.Fatalf("out=%v err=%v", out, err)
			}
			// The server hangs until the request ends: this bound only
			// turns a hang into a failure.
			if d := time.Since(start); d > 20*time.Second {
				t.Fatalf("cancel took %v", d)
			}
		})
	}
}
