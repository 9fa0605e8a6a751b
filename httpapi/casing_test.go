package httpapi

import (
	"encoding/json"
	"regexp"
	"testing"
)

var (
	camelKey  = regexp.MustCompile(`^_?[a-z][a-zA-Z0-9]*$`)
	snakeKey  = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	pascalTyp = regexp.MustCompile(`^[A-Z][a-zA-Z]+$`)
)

// walkKeys calls f with every object key under v, except below the keys
// in skip (user data such as tool arguments).
func walkKeys(v any, skip map[string]bool, f func(key string)) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			f(k)
			if !skip[k] {
				walkKeys(val, skip, f)
			}
		}
	case []any:
		for _, val := range x {
			walkKeys(val, skip, f)
		}
	}
}

// TestWireCasing: camelCase inside messages and token state, snake_case
// in Session, ExtensionConfig and the event wrapper, PascalCase event types.
func TestWireCasing(t *testing.T) {
	e := newTestEnv(t, "approve", callTool("call1", "tt__echo"), say("ok"))
	id := e.startSession()
	events := e.openEvents(id, "")
	e.submit(id, "go")
	userData := map[string]bool{"arguments": true, "data": false, "structuredContent": true}
	for {
		f := events.next(t)
		var ev map[string]any
		if err := json.Unmarshal([]byte(f.Data), &ev); err != nil {
			t.Fatal(err)
		}
		if typ, _ := ev["type"].(string); !pascalTyp.MatchString(typ) {
			t.Fatalf("event type %q", typ)
		}
		for k, v := range ev {
			if !snakeKey.MatchString(k) {
				t.Errorf("event key %q", k)
			}
			if k == "message" || k == "token_state" {
				walkKeys(v, userData, func(key string) {
					if !camelKey.MatchString(key) {
						t.Errorf("%s key %q is not camelCase", k, key)
					}
				})
			}
		}
		if msg, ok := ev["message"].(map[string]any); ok && len(msg["content"].([]any)) > 0 {
			c := msg["content"].([]any)[0].(map[string]any)
			if c["type"] == "actionRequired" {
				e.callJSON("POST", "/action-required/tool-confirmation", map[string]any{"id": "call1", "action": "allow_once", "sessionId": id}, 200, nil)
			}
		}
		if ev["type"] == "Finish" {
			break
		}
	}
	var sess map[string]any
	e.callJSON("GET", "/sessions/"+id, nil, 200, &sess)
	for k, v := range sess {
		if !snakeKey.MatchString(k) {
			t.Errorf("Session key %q is not snake_case", k)
		}
		if k == "extension_data" {
			walkKeys(v, map[string]bool{"input_schema": true, "envs": true, "headers": true}, func(key string) {
				if key != "enabled_extensions.v0" && !snakeKey.MatchString(key) {
					t.Errorf("extension_data key %q is not snake_case", key)
				}
			})
		}
		if k == "conversation" {
			walkKeys(v, userData, func(key string) {
				if !camelKey.MatchString(key) {
					t.Errorf("conversation key %q is not camelCase", key)
				}
			})
		}
	}
}
