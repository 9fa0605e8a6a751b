package acp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// turnFrames initializes with caps, runs one prompt and returns every
// _goose/unstable/session/update the turn sent.
func turnFrames(t *testing.T, caps string) []json.RawMessage {
	t.Helper()
	r := newDesktopRig(t, nil)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":`+caps+`}}`)
	for {
		var rep rpcReply
		mustUnmarshal(t, []byte(r.read(t)), &rep)
		if string(rep.ID) == "1" {
			break
		}
	}
	id := r.newSession(t)
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":50,"method":"session/prompt","params":{"sessionId":%q,"prompt":[{"type":"text","text":"hi"}]}}`, id))
	var out []json.RawMessage
	for {
		line := r.read(t)
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		mustUnmarshal(t, []byte(line), &m)
		if string(m.ID) == "50" {
			return out
		}
		if m.Method == GooseSessionUpdateMethod {
			validateUnstableType(t, "GooseSessionNotification_unstable", m.Params)
			out = append(out, m.Params)
		}
	}
}

func TestGooseUsageNotificationsOnlyWhenAsked(t *testing.T) {
	if got := turnFrames(t, `{}`); len(got) != 0 {
		t.Fatalf("sent without customNotifications: %s", got)
	}
	got := turnFrames(t, `{"_meta":{"goose":{"customNotifications":true}}}`)
	if len(got) != 2 {
		t.Fatalf("want usage_update and message_usage, got %s", got)
	}
	var usage struct {
		Update map[string]any `json:"update"`
	}
	mustUnmarshal(t, got[0], &usage)
	u := usage.Update
	if u["sessionUpdate"] != "usage_update" || u["used"] != float64(2) || u["accumulatedInputTokens"] != float64(1) ||
		u["accumulatedOutputTokens"] != float64(1) || u["contextLimit"] == float64(0) {
		t.Fatalf("usage_update: %s", got[0])
	}
	mustUnmarshal(t, got[1], &usage)
	if usage.Update["sessionUpdate"] != "message_usage" || usage.Update["messageId"] == nil {
		t.Fatalf("message_usage: %s", got[1])
	}
	if mu := usage.Update["usage"].(map[string]any); mu["inputTokens"] != float64(1) || mu["totalTokens"] != float64(2) {
		t.Fatalf("message_usage usage: %s", got[1])
	}
}

func TestGooseStatusMessageForAFailedExtension(t *testing.T) {
	r := newDesktopRig(t, nil)
	r.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{"_meta":{"goose":{"customNotifications":true}}}}}`)
	for {
		var rep rpcReply
		mustUnmarshal(t, []byte(r.read(t)), &rep)
		if string(rep.ID) == "1" {
			break
		}
	}
	r.send(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":%q,"mcpServers":[{"name":"broken","command":"/nonexistent/mcp-server","args":[],"env":[]}]}}`, r.dir))
	// afterSetup sends the notices, then the session's usage_update.
	var status []json.RawMessage
	for {
		var m struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		mustUnmarshal(t, []byte(r.read(t)), &m)
		if m.Method == "session/update" && strings.Contains(string(m.Params), `"sessionUpdate":"usage_update"`) {
			break
		}
		if m.Method == GooseSessionUpdateMethod && strings.Contains(string(m.Params), "status_message") {
			validateUnstableType(t, "GooseSessionNotification_unstable", m.Params)
			status = append(status, m.Params)
		}
	}
	if len(status) == 0 || !strings.Contains(string(status[0]), `"type":"notice","message":"Extension broken failed to start"`) {
		t.Fatalf("status_message: %s", status)
	}
}
