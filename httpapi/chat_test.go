package httpapi

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func userMessage(text string) conversation.Message {
	return conversation.UserText(1747040000, text).WithID(uuid.NewString())
}

func (e *testEnv) openEvents(id string, lastID string) *sseReader {
	e.t.Helper()
	h := map[string]string{"X-Secret-Key": testSecret}
	if lastID != "" {
		h["Last-Event-ID"] = lastID
	}
	resp := e.doHeaders("GET", "/sessions/"+id+"/events", nil, h)
	if resp.StatusCode != 200 {
		e.t.Fatalf("events: status %d", resp.StatusCode)
	}
	r := newSSEReader(resp)
	e.t.Cleanup(r.close)
	return r
}

func (e *testEnv) submit(id, text string) string {
	e.t.Helper()
	rid := uuid.Must(uuid.NewV7()).String()
	var out map[string]string
	e.callJSON("POST", "/sessions/"+id+"/reply", map[string]any{"request_id": rid, "user_message": userMessage(text)}, 200, &out)
	if out["request_id"] != rid {
		e.e2eFail("reply answered %v", out)
	}
	return rid
}

func (e *testEnv) e2eFail(format string, args ...any) { e.t.Helper(); e.t.Fatalf(format, args...) }

func contentTypes(ev map[string]any) string {
	msg, _ := ev["message"].(map[string]any)
	var types []string
	for _, c := range msg["content"].([]any) {
		types = append(types, c.(map[string]any)["type"].(string))
	}
	return msg["role"].(string) + ":" + strings.Join(types, ",")
}

func TestEventsTurnWithApproval(t *testing.T) {
	e := newTestEnv(t, "approve", callTool("call1", "tt__echo"), say("all ", "done"))
	id := e.startSession()
	events := e.openEvents(id, "")
	rid := e.submit(id, "run echo")

	var seen []string
	lastSeq := 0
	for {
		f, ev := events.nextEvent(t)
		seq, err := strconv.Atoi(f.ID)
		if err != nil || seq != lastSeq+1 {
			t.Fatalf("frame id %q after %d", f.ID, lastSeq)
		}
		lastSeq = seq
		if ev["chat_request_id"] != rid || ev["request_id"] != rid {
			t.Fatalf("routing ids %v", ev)
		}
		if !strings.HasPrefix(f.Data, `{"chat_request_id":`) {
			t.Fatalf("keys not sorted: %s", f.Data)
		}
		typ := ev["type"].(string)
		if typ == "Finish" {
			if ev["reason"] != "stop" || ev["token_state"] == nil {
				t.Fatalf("finish %v", ev)
			}
			seen = append(seen, typ)
			break
		}
		seen = append(seen, typ+" "+contentTypes(ev))
		if strings.Contains(contentTypes(ev), "actionRequired") {
			data := ev["message"].(map[string]any)["content"].([]any)[0].(map[string]any)["data"].(map[string]any)
			if data["actionType"] != "toolConfirmation" || data["id"] != "call1" || data["toolName"] != "tt__echo" {
				t.Fatalf("action %v", data)
			}
			var ok map[string]any
			e.callJSON("POST", "/action-required/tool-confirmation", map[string]any{"id": "call1", "action": "allow_once", "sessionId": id, "principalType": "Tool"}, 200, &ok)
			if len(ok) != 0 {
				t.Fatalf("confirmation answered %v", ok)
			}
		}
	}
	want := []string{
		"Message assistant:toolRequest",
		"Message assistant:actionRequired",
		"Message user:toolResponse",
		"Message assistant:text",
		"Message assistant:text",
		"Finish",
	}
	if strings.Join(seen, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant:\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
	// The turn is stored.
	var sess struct {
		Conversation []conversation.Message `json:"conversation"`
	}
	e.callJSON("GET", "/sessions/"+id, nil, 200, &sess)
	if n := len(withoutTurnContext(sess.Conversation)); n != 4 {
		t.Fatalf("stored %d messages, want 4", n)
	}
}

// withoutTurnContext drops the agent's per-turn <turn-context> messages,
// which these tests do not count.
func withoutTurnContext(msgs []conversation.Message) []conversation.Message {
	return conversation.Conversation(msgs).WithoutTurnContext()
}

func TestEventsHeartbeat(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	resp := e.doHeaders("GET", "/sessions/"+id+"/events", nil, map[string]string{"X-Secret-Key": testSecret})
	r := newSSEReader(resp)
	defer r.close()
	for i := 0; i < 3; i++ {
		select {
		case f := <-r.frames:
			if want := fmt.Sprintf("ping %d", i); f.Comment != want || f.Data != "" || f.ID != "" {
				t.Fatalf("frame %d = %+v, want comment %q", i, f, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no heartbeat")
		}
	}
	for k, v := range map[string]string{"Content-Type": "text/event-stream", "Cache-Control": "no-cache"} {
		if got := resp.Header.Get(k); got != v {
			t.Errorf("%s = %q", k, got)
		}
	}
}

func TestEventsReplayAfterReconnect(t *testing.T) {
	e := newTestEnv(t, "auto", say("a", "b", "c"))
	id := e.startSession()
	events := e.openEvents(id, "")
	e.submit(id, "hi")
	all := events.until(t, "Finish")
	events.close()
	// Reconnect after the second event: events 3… are replayed.
	again := e.openEvents(id, "2")
	for i := 3; i <= len(all); i++ {
		f, ev := again.nextEvent(t)
		if ev["type"] == "ActiveRequests" { // the request may still be deregistering
			f, ev = again.nextEvent(t)
		}
		if f.ID != strconv.Itoa(i) || ev["type"] != all[i-1]["type"] {
			t.Fatalf("replayed %s %v, want id %d %v", f.ID, ev["type"], i, all[i-1]["type"])
		}
	}
	// Without Last-Event-ID everything buffered is replayed.
	fresh := e.openEvents(id, "")
	f, ev := fresh.nextEvent(t)
	if ev["type"] == "ActiveRequests" {
		f, _ = fresh.nextEvent(t)
	}
	if f.ID != "1" {
		t.Fatalf("fresh stream starts at %s", f.ID)
	}
}

func TestEventsTooFarBehind(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	b := e.srv.buses.get(id)
	for i := 0; i < ReplayCapacity+10; i++ {
		b.publish("r", pingEvent())
	}
	resp := e.doHeaders("GET", "/sessions/"+id+"/events", nil, map[string]string{"X-Secret-Key": testSecret, "Last-Event-ID": "3"})
	body, _ := io.ReadAll(resp.Body) // the server closes the stream
	resp.Body.Close()
	want := "id: 0\ndata: {\"error\":\"Client too far behind — reload conversation\",\"type\":\"Error\"}\n\n"
	if string(body) != want {
		t.Fatalf("body %q, want %q", body, want)
	}
	// The oldest kept event is 11: Last-Event-ID 10 is still fine.
	ok := e.openEvents(id, "10")
	if f, _ := ok.nextEvent(t); f.ID != "11" {
		t.Fatalf("replay starts at %s", f.ID)
	}
}

func TestBusLaggingSubscriberCatchesUp(t *testing.T) {
	b := newEventBus()
	sub := b.subscribe(0, false).sub
	for i := 0; i < SubscriberCapacity+44; i++ {
		b.publish("r", pingEvent())
	}
	select {
	case <-sub.wake:
	default:
		t.Fatal("a full subscriber was not woken")
	}
	var last uint64
	for len(sub.ch) > 0 {
		last = (<-sub.ch).seq
	}
	if last != SubscriberCapacity {
		t.Fatalf("buffered up to %d, want %d", last, SubscriberCapacity)
	}
	missed, ok := b.catchUp(sub, last)
	if !ok || len(missed) != 44 || missed[0].seq != SubscriberCapacity+1 {
		t.Fatalf("catch-up %v %d", ok, len(missed))
	}
	// Live delivery resumes after the catch-up.
	b.publish("r", pingEvent())
	if e := <-sub.ch; e.seq != SubscriberCapacity+45 {
		t.Fatalf("live event %d", e.seq)
	}
	// Falling behind the replay ring cannot be caught up.
	for i := 0; i < ReplayCapacity+SubscriberCapacity+10; i++ {
		b.publish("r", pingEvent())
	}
	for len(sub.ch) > 0 {
		last = (<-sub.ch).seq
	}
	if _, ok := b.catchUp(sub, last); ok {
		t.Fatal("caught up across evicted events")
	}
	b.unsubscribe(sub)
}

func TestEventsDisconnectDuringApprovalKeepsTurn(t *testing.T) {
	e := newTestEnv(t, "approve", callTool("call1", "tt__echo"), say("finished"))
	id := e.startSession()
	events := e.openEvents(id, "")
	rid := e.submit(id, "run echo")
	var last string
	for {
		f, ev := events.nextEvent(t)
		last = f.ID
		if strings.Contains(contentTypes(ev), "actionRequired") {
			break
		}
	}
	events.close()
	time.Sleep(100 * time.Millisecond) // the server notices the hang-up
	again := e.openEvents(id, last)
	f, ev := again.nextEvent(t)
	if f.ID != "" || ev["type"] != "ActiveRequests" || fmt.Sprint(ev["request_ids"]) != "["+rid+"]" {
		t.Fatalf("first frame after reconnect: id %q %v", f.ID, ev)
	}
	e.callJSON("POST", "/action-required/tool-confirmation", map[string]any{"id": "call1", "action": "allow_once", "sessionId": id}, 200, nil)
	evs := again.until(t, "Finish")
	if got := contentTypes(evs[0]); got != "user:toolResponse" {
		t.Fatalf("first event after approval %s", got)
	}
}

func TestSessionReplyErrors(t *testing.T) {
	e := newTestEnv(t, "auto", step{text: []string{"thinking"}, hang: true})
	id := e.startSession()
	msg := userMessage("hi")
	code, body := e.call("POST", "/sessions/"+id+"/reply", map[string]any{"request_id": "not-a-uuid", "user_message": msg})
	if code != 400 || body != `{"message":"request_id must be a valid UUID"}` {
		t.Fatalf("bad uuid: %d %s", code, body)
	}
	code, body = e.call("POST", "/sessions/20990101_9/reply", map[string]any{"request_id": uuid.NewString(), "user_message": msg})
	if code != 404 || body != `{"message":"Session 20990101_9 not found"}` {
		t.Fatalf("unknown session: %d %s", code, body)
	}
	code, _ = e.call("POST", "/sessions/"+id+"/cancel", map[string]any{"request_id": uuid.NewString()})
	if code != 404 {
		t.Fatalf("cancel without bus: %d", code)
	}
	events := e.openEvents(id, "")
	rid := e.submit(id, "hang")
	events.nextEvent(t) // the streaming text: the turn is running
	code, body = e.call("POST", "/sessions/"+id+"/reply", map[string]any{"request_id": uuid.NewString(), "user_message": msg})
	if code != 400 || body != `{"message":"Session already has an active request. Cancel it first."}` {
		t.Fatalf("busy: %d %s", code, body)
	}
	code, _ = e.call("POST", "/sessions/"+id+"/cancel", map[string]any{"request_id": "unknown"})
	if code != 200 {
		t.Fatalf("cancel unknown id: %d", code)
	}
	code, _ = e.call("POST", "/sessions/"+id+"/cancel", map[string]any{"request_id": rid})
	if code != 200 {
		t.Fatalf("cancel: %d", code)
	}
	evs := events.until(t, "Finish")
	if evs[len(evs)-1]["chat_request_id"] != rid {
		t.Fatalf("finish %v", evs[len(evs)-1])
	}
	// The session takes a new request right away.
	e.submit(id, "again")
	events.until(t, "Finish")
}
