package httpapi

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

func TestConfigRoutes(t *testing.T) {
	e := newTestEnv(t, "auto")
	cases := []struct {
		method, path string
		body         any
		want         int
		wantBody     string
	}{
		{"POST", "/config/read", map[string]any{"key": "GOOSE_MODEL", "is_secret": false}, 200, `"fake-model"`},
		{"POST", "/config/read", map[string]any{"key": "NOPE", "is_secret": false}, 200, `null`},
		{"POST", "/config/read", map[string]any{"key": "ANTHROPIC_API_KEY", "is_secret": true}, 200, `null`},
		{"POST", "/config/upsert", map[string]any{"key": "FOO", "value": 3, "is_secret": false}, 200, `"Upserted key FOO"`},
		{"POST", "/config/read", map[string]any{"key": "FOO", "is_secret": false}, 200, `3`},
		{"POST", "/config/upsert", map[string]any{"key": "ANTHROPIC_API_KEY", "value": "sk-abcdefghijkl", "is_secret": true}, 200, `"Upserted key ANTHROPIC_API_KEY"`},
		{"POST", "/config/read", map[string]any{"key": "ANTHROPIC_API_KEY", "is_secret": true}, 200, `{"maskedValue":"sk-abcd********"}`},
		{"POST", "/config/remove", map[string]any{"key": "FOO", "is_secret": false}, 200, `"Removed key FOO"`},
		{"POST", "/config/remove", map[string]any{"key": "FOO", "is_secret": false}, 404, `{"message":"Configuration value not found: FOO"}`},
		{"POST", "/config/extensions", map[string]any{"name": "My Ext", "enabled": false, "config": map[string]any{"type": "stdio", "name": "My Ext", "description": "d", "cmd": "x", "args": []string{}}}, 200, `"Added extension My Ext"`},
		{"POST", "/config/extensions", map[string]any{"name": "My Ext", "enabled": true, "config": map[string]any{"type": "stdio", "name": "My Ext", "description": "d", "cmd": "x", "args": []string{}}}, 200, `"Updated extension My Ext"`},
		{"DELETE", "/config/extensions/My%20Ext", nil, 200, `"Removed extension My Ext"`},
		{"POST", "/config/permissions", map[string]any{"tool_permissions": []any{map[string]any{"tool_name": "tt__echo", "permission": "never_allow"}}}, 200, `"Permissions updated successfully"`},
		{"POST", "/config/permissions", map[string]any{"tool_permissions": []any{map[string]any{"tool_name": "x", "permission": "sometimes"}}}, 422, ""},
	}
	for _, c := range cases {
		code, body := e.call(c.method, c.path, c.body)
		if code != c.want || (c.wantBody != "" && body != c.wantBody) {
			t.Errorf("%s %s %v = %d %s, want %d %s", c.method, c.path, c.body, code, body, c.want, c.wantBody)
		}
	}
	// Files on disk: the secret went to secrets.yaml, not config.yaml.
	cfgText, _ := os.ReadFile(filepath.Join(e.root, "config", "config.yaml"))
	secrets, _ := os.ReadFile(filepath.Join(e.root, "config", "secrets.yaml"))
	if strings.Contains(string(cfgText), "sk-abc") || !strings.Contains(string(secrets), "sk-abcdefghijkl") {
		t.Fatalf("config.yaml:\n%s\nsecrets.yaml:\n%s", cfgText, secrets)
	}
	perms, _ := os.ReadFile(filepath.Join(e.root, "config", "permission.yaml"))
	if string(perms) != "user:\n  always_allow: []\n  ask_before: []\n  never_allow:\n    - tt__echo\n" {
		t.Fatalf("permission.yaml:\n%s", perms)
	}
	// The registry's provider is configured now that its key is set (one
	// without its key is not), and the tool list shows the permission.
	var provs []providerDetails
	e.callJSON("GET", "/config/providers", nil, 200, &provs)
	configured := map[string]bool{}
	for i, p := range provs {
		configured[p.Name] = p.IsConfigured
		if p.ProviderType != "Builtin" || (i > 0 && provs[i-1].Name > p.Name) {
			t.Fatalf("providers out of name order or not built in: %+v", provs)
		}
	}
	if got, listed := configured["anthropic"]; !got || !listed || configured["openai"] {
		t.Fatalf("configured providers %v", configured)
	}
	id := e.startSession()
	var tools []toolInfo
	e.callJSON("GET", "/agent/tools?session_id="+id+"&extension_name=tt", nil, 200, &tools)
	// Sorted by name, with permission.yaml's level or null.
	if len(tools) != 3 || tools[0].Name != "tt__ask" || tools[1].Name != "tt__echo" || tools[2].Name != "tt__notify" ||
		tools[0].Permission != nil || tools[1].Permission == nil || *tools[1].Permission != "never_allow" ||
		strings.Join(tools[1].Parameters, ",") != "a,x" {
		t.Fatalf("tools %s", mustJSON(tools))
	}
}

func TestSessionRoutes(t *testing.T) {
	e := newTestEnv(t, "auto", say("first answer"), say("second answer"))
	id := e.startSession()
	events := e.openEvents(id, "")
	e.submit(id, "find the needle")
	events.until(t, "Finish")
	e.submit(id, "second question")
	events.until(t, "Finish")
	events.close()

	code, body := e.call("PUT", "/sessions/"+id+"/name", map[string]any{"name": strings.Repeat("x", 201)})
	if code != 400 || body != `{"message":"Session name too long (max 200 characters)"}` {
		t.Fatalf("long name: %d %s", code, body)
	}
	e.callJSON("PUT", "/sessions/"+id+"/name", map[string]any{"name": "Needle hunt"}, 200, nil)
	var got struct {
		Name         string                 `json:"name"`
		UserSetName  bool                   `json:"user_set_name"`
		Conversation []conversation.Message `json:"conversation"`
	}
	e.callJSON("GET", "/sessions/"+id, nil, 200, &got)
	if got.Name != "Needle hunt" || !got.UserSetName || len(withoutTurnContext(got.Conversation)) != 4 {
		t.Fatalf("session %+v", got)
	}

	var hits []struct {
		ID string `json:"id"`
	}
	e.callJSON("GET", "/sessions/search?query=NEEDLE", nil, 200, &hits)
	if len(hits) != 1 || hits[0].ID != id {
		t.Fatalf("search %+v", hits)
	}
	future := time.Now().Add(24 * time.Hour).UTC().Format(time.RFC3339)
	e.callJSON("GET", "/sessions/search?query=needle&after_date="+future, nil, 200, &hits)
	if len(hits) != 0 {
		t.Fatalf("after_date filter kept %+v", hits)
	}

	// Fork a copy truncated before the second question.
	second := got.Conversation[2].Created
	var fork struct {
		SessionID string `json:"sessionId"`
	}
	e.callJSON("POST", "/sessions/"+id+"/fork", map[string]any{"copy": true, "truncate": true, "timestamp": second}, 200, &fork)
	var forked struct {
		Conversation []conversation.Message `json:"conversation"`
	}
	e.callJSON("GET", "/sessions/"+fork.SessionID, nil, 200, &forked)
	if fork.SessionID == id || len(forked.Conversation) >= 4 {
		t.Fatalf("fork %s has %d messages", fork.SessionID, len(forked.Conversation))
	}

	// Export is a JSON string holding the session; import makes a copy.
	var exported string
	e.callJSON("GET", "/sessions/"+id+"/export", nil, 200, &exported)
	var roundTrip struct {
		Conversation []conversation.Message `json:"conversation"`
	}
	if err := json.Unmarshal([]byte(exported), &roundTrip); err != nil || len(withoutTurnContext(roundTrip.Conversation)) != 4 {
		t.Fatalf("export %v %d", err, len(roundTrip.Conversation))
	}
	var imported struct {
		ID           string `json:"id"`
		MessageCount int    `json:"message_count"`
	}
	e.callJSON("POST", "/sessions/import", map[string]any{"json": exported}, 200, &imported)
	if imported.ID == id || imported.MessageCount != 4 {
		t.Fatalf("import %+v", imported)
	}

	var list struct {
		Sessions []struct {
			ID           string          `json:"id"`
			Conversation json.RawMessage `json:"conversation"`
		} `json:"sessions"`
	}
	e.callJSON("GET", "/sessions", nil, 200, &list)
	if len(list.Sessions) != 3 || string(list.Sessions[0].Conversation) != "null" {
		t.Fatalf("list %s", mustJSON(list))
	}
}

func TestDeleteSessionCancelsAndDropsBus(t *testing.T) {
	e := newTestEnv(t, "auto", step{text: []string{"working"}, hang: true})
	id := e.startSession()
	events := e.openEvents(id, "")
	e.submit(id, "hang")
	events.nextEvent(t)
	e.callJSON("DELETE", "/sessions/"+id, nil, 200, nil)
	// The stream ends and the session is gone.
	deadline := time.After(5 * time.Second)
	for done := false; !done; {
		select {
		case _, ok := <-events.frames:
			done = !ok
		case <-deadline:
			t.Fatal("event stream still open after delete")
		}
	}
	if code, _ := e.call("GET", "/sessions/"+id+"/events", nil); code != 404 {
		t.Fatalf("events after delete: %d", code)
	}
	e.srv.turns.Wait() // the cancelled turn finished
}
