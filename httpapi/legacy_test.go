package httpapi

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestLegacyReplyFrames(t *testing.T) {
	e := newTestEnv(t, "auto", say("Hel", "lo"))
	id := e.startSession()
	resp := e.do("POST", "/reply", map[string]any{"user_message": userMessage("hi"), "session_id": id})
	defer resp.Body.Close()
	for k, v := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "Connection": "keep-alive"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	frames := strings.Split(strings.TrimSuffix(string(body), "\n\n"), "\n\n")
	if frames[0] != `data: {"type":"Ping"}` {
		t.Fatalf("first frame %q", frames[0])
	}
	var types []string
	for _, f := range frames {
		if !strings.HasPrefix(f, "data: {\"type\":") || strings.Contains(f, "\nid:") {
			t.Fatalf("frame %q", f)
		}
		var ev map[string]any
		if err := json.Unmarshal([]byte(f[6:]), &ev); err != nil {
			t.Fatal(err)
		}
		if ev["type"] != "Ping" {
			types = append(types, ev["type"].(string))
		}
	}
	if strings.Join(types, ",") != "Message,Message,Finish" {
		t.Fatalf("types %v", types)
	}
	last := frames[len(frames)-1]
	want := `data: {"type":"Finish","reason":"stop","token_state":{"inputTokens":0,"outputTokens":0,"totalTokens":0,"accumulatedInputTokens":0,"accumulatedOutputTokens":0,"accumulatedTotalTokens":0}}`
	if last != want {
		t.Fatalf("finish frame\n%s\nwant\n%s", last, want)
	}
}

func TestLegacyReplyDisconnectCancels(t *testing.T) {
	e := newTestEnv(t, "approve", callTool("call1", "tt__echo"), say("after"))
	id := e.startSession()
	resp := e.do("POST", "/reply", map[string]any{"user_message": userMessage("hi"), "session_id": id})
	r := newSSEReader(resp)
	for {
		_, ev := r.nextEvent(t)
		if ev["type"] == "Message" && strings.Contains(contentTypes(ev), "actionRequired") {
			break
		}
	}
	r.close()
	// Once the hang-up is noticed (≤ one ping), the turn ends cancelled and
	// the session takes a new turn.
	// A turn that cannot start (still busy) ends in Error without Finish.
	deadline := time.Now().Add(5 * time.Second)
	events := e.openEvents(id, "")
	for {
		rid := uuid.NewString()
		code, _ := e.call("POST", "/sessions/"+id+"/reply", map[string]any{"request_id": rid, "user_message": userMessage("next")})
		if code != 200 {
			t.Fatalf("reply status %d", code)
		}
		var last map[string]any
		for last == nil || (last["type"] != "Finish" && last["type"] != "Error") || last["chat_request_id"] != rid {
			_, last = events.nextEvent(t)
		}
		if last["type"] == "Finish" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("turn still running: %v", last)
		}
		time.Sleep(50 * time.Millisecond)
	}
	var sess struct {
		Conversation []conversation.Message `json:"conversation"`
	}
	e.callJSON("GET", "/sessions/"+id, nil, 200, &sess)
	// The cancelled tool call was answered as cancelled.
	found := false
	for _, m := range sess.Conversation {
		for _, c := range m.Content {
			if tr := c.ToolResponse; tr != nil && tr.ID == "call1" && strings.Contains(string(mustJSON(tr)), agentCancelledText) {
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("no cancelled tool response stored: %s", mustJSON(sess.Conversation))
	}
}

const agentCancelledText = "Tool call cancelled by the user."

func TestConcurrentSessions(t *testing.T) {
	const n = 8
	e := newTestEnv(t, "auto")
	ids := make([]string, n)
	for i := range ids {
		ids[i] = e.startSession()
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			events := e.openEvents(id, "")
			rid := e.submit(id, "hi "+id)
			evs := events.until(t, "Finish")
			for _, ev := range evs {
				if ev["chat_request_id"] != rid {
					errs <- fmt.Errorf("session %s got %v", id, ev)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

var _ = http.StatusOK

// TestElicitationOverEvents: an MCP elicitation reaches the stream as
// actionRequired/elicitation; the answer posted to /sessions/{id}/reply
// (no new request registered) completes the tool call.
func TestElicitationOverEvents(t *testing.T) {
	e := newTestEnv(t, "auto", callTool("call_ask", "tt__ask"), say("thanks"))
	id := e.startSession()
	events := e.openEvents(id, "")
	rid := e.submit(id, "ask me")
	var elicitID string
	for elicitID == "" {
		_, ev := events.nextEvent(t)
		if ev["type"] != "Message" {
			continue
		}
		for _, c := range ev["message"].(map[string]any)["content"].([]any) {
			c := c.(map[string]any)
			if c["type"] == "actionRequired" {
				data := c["data"].(map[string]any)
				if data["actionType"] != "elicitation" || data["message"] != "Your name?" || data["requested_schema"] == nil {
					t.Fatalf("elicitation %v", data)
				}
				elicitID = data["id"].(string)
			}
		}
	}
	answer := conversation.NewMessage(conversation.RoleUser, 1747040000).With(conversation.Content{
		Type: conversation.TypeActionRequired,
		ActionRequired: &conversation.ActionRequired{Data: conversation.ActionData{
			ActionType: conversation.ActionElicitationResponse, ID: elicitID, UserData: json.RawMessage(`{"name":"Ada"}`)}},
	})
	answerID := uuid.NewString()
	var out map[string]string
	e.callJSON("POST", "/sessions/"+id+"/reply", map[string]any{"request_id": answerID, "user_message": answer}, 200, &out)
	if out["request_id"] != answerID {
		t.Fatalf("answer %v", out)
	}
	evs := events.until(t, "Finish")
	var result string
	for _, ev := range evs {
		if ev["chat_request_id"] != rid {
			t.Fatalf("event of another request %v", ev)
		}
		if ev["type"] == "Message" && contentTypes(ev) == "user:toolResponse" {
			result = string(mustJSON(ev["message"]))
		}
	}
	if !strings.Contains(result, "accept:Ada") {
		t.Fatalf("tool result %s", result)
	}
}
