package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

// subagentTrace renders the turn's SubagentEvents: start, the child's own
// message texts and tool calls, end.
func subagentTrace(evs []Event) []string {
	var out []string
	for _, e := range evs {
		s, ok := e.(SubagentEvent)
		if !ok {
			continue
		}
		switch {
		case s.Start != nil:
			out = append(out, "start "+s.CallID+" "+s.Start.Title+": "+s.Start.Task)
		case s.End != nil:
			out = append(out, "end "+string(s.End.StopReason))
		default:
			if m, ok := s.Event.(MessageEvent); ok {
				for _, r := range m.Message.ToolRequests() {
					out = append(out, "call "+r.ToolCall.Value.Name)
				}
				if t := m.Message.AsText(); t != "" {
					out = append(out, "text "+t)
				}
			}
		}
	}
	return out
}

// A delegate's child session is reported on the parent's turn: its start
// (task, title, working dir), each of its own events, and its end, all
// naming the child and the parent's delegate call.
func TestDelegateReportsItsChildSession(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_d", `{"instructions":"Count the Go files"}`),
		{Text: []string{"Looking."}, ToolCalls: []providertest.ToolCall{{ID: "c_load", Name: "load", Arguments: `{}`}}},
		finalOutput("c_final", "3 Go files"),
		{Text: []string{"There are 3."}},
	}})
	wd := t.TempDir()
	d.startWithSummon(wd)
	out, evs := d.reply(context.Background(), "how many go files?", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("stop = %v %v", out.StopReason, out.Err)
	}
	child := d.children()[0].ID
	var start *SubagentStart
	for _, e := range evs {
		if s, ok := e.(SubagentEvent); ok {
			if s.SessionID != child || s.CallID != "call_d" {
				t.Fatalf("event for %s/%s", s.SessionID, s.CallID)
			}
			if s.Start != nil {
				start = s.Start
			}
		}
	}
	if start == nil || start.WorkingDir != wd {
		t.Fatalf("start %+v", start)
	}
	got := strings.Join(subagentTrace(evs), "\n")
	want := strings.Join([]string{"start call_d Delegated Task: Count the Go files", "text Looking.", "call load", "call final_output", "end end_turn"}, "\n")
	if !strings.Contains(got, "text Looking.") || !strings.HasPrefix(got, "start call_d Delegated Task: Count the Go files") || !strings.HasSuffix(got, "end end_turn") {
		t.Fatalf("trace\n%s\nwant like\n%s", got, want)
	}
}

// One subagent can be stopped without its parent: cancelling the
// delegate call (CancelToolCall) ends the child cancelled, and the
// parent's turn goes on with the cancelled result.
func TestCancellingTheDelegateCallStopsOnlyTheSubagent(t *testing.T) {
	d := newDelegateEnv(t, nil, nil, map[string][]providertest.Turn{"openai": {
		delegateCall("call_c", `{"instructions":"wait forever"}`),
		{Hang: true, Text: []string{"thinking"}},
		{Text: []string{"It was stopped."}},
	}})
	d.startWithSummon(t.TempDir())
	go func() {
		for len(d.servers["openai"].Requests()) < 2 {
			time.Sleep(5 * time.Millisecond)
		}
		if err := d.a.CancelToolCall(d.id, "call_c"); err != nil {
			t.Errorf("cancel: %v", err)
		}
	}()
	out, evs := d.reply(context.Background(), "go", nil)
	if out.StopReason != EndTurn {
		t.Fatalf("the parent's turn: %v", out.StopReason)
	}
	trace := subagentTrace(evs)
	if len(trace) == 0 || trace[len(trace)-1] != "end cancelled" {
		t.Fatalf("trace %q", trace)
	}
	if r := d.toolResult("call_c"); !r.IsError || r.Content[0].Text != CancelledToolText {
		t.Fatalf("result = %+v", r)
	}
}
