package httpapi

import (
	"context"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/session/memory"
)

// The session routes work on a session the agent has not loaded (after
// /agent/stop, or one only in the store): core decides, not the route.
func TestSessionRoutesOnAnUnloadedSession(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	if code, body := e.call("POST", "/agent/stop", map[string]any{"session_id": id}); code != 200 {
		t.Fatalf("stop: %d %s", code, body)
	}
	if e.agent.Sessions().IsLoaded(id) {
		t.Fatal("still loaded after stop")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		method, path string
		body         any
		code         int
		want         string
	}{
		{"POST", "/agent/update_session", map[string]any{"session_id": id, "goose_mode": "chat"}, 200, ""},
		{"POST", "/agent/update_working_dir", map[string]any{"session_id": id, "working_dir": dir}, 200, ""},
		{"PUT", "/sessions/" + id + "/name", map[string]any{"name": "Kept"}, 200, ""},
		{"POST", "/agent/update_working_dir", map[string]any{"session_id": id, "working_dir": filepath.Join(dir, "gone")}, 400,
			`{"message":"Directory does not exist: ` + filepath.Join(dir, "gone") + `"}`},
		{"PUT", "/sessions/" + id + "/name", map[string]any{"name": ""}, 400, `{"message":"Session name cannot be empty"}`},
		{"POST", "/agent/update_session", map[string]any{"session_id": "20990101_1", "goose_mode": "chat"}, 400, "Session not found: 20990101_1"},
	} {
		code, body := e.call(c.method, c.path, c.body)
		if code != c.code || (c.want != "" && body != c.want) {
			t.Errorf("%s %s: %d %s, want %d %s", c.method, c.path, code, body, c.code, c.want)
		}
	}
	if e.agent.Sessions().IsLoaded(id) {
		t.Fatal("a session route loaded the session")
	}
	sess, err := e.store.Get(context.Background(), id, false)
	if err != nil {
		t.Fatal(err)
	}
	if sess.GooseMode != "chat" || sess.WorkingDir != dir || sess.Name != "Kept" || !sess.UserSetName {
		t.Fatalf("stored %+v", sess)
	}
	// Delete works unloaded too, and the session is gone.
	if code, _ := e.call("DELETE", "/sessions/"+id, nil); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	if code, _ := e.call("GET", "/sessions/"+id, nil); code != 404 {
		t.Fatalf("after delete: %d", code)
	}
}

// importFails is a store whose imports fail in storage.
type importFails struct{ *memory.Store }

func (importFails) Import(context.Context, []byte) (session.Session, error) {
	return session.Session{}, errors.New("disk I/O error")
}

// An import that fails in storage is 500, not the client's bad request;
// input that is not an exported session is 400 with core's words.
func TestImportStorageFailureIs500(t *testing.T) {
	store := importFails{memory.New(time.Now)}
	a := agent.New(agent.Options{Store: store, TempDir: t.TempDir()})
	t.Cleanup(func() { _ = a.Close() })
	s := New(Options{Agent: a, Store: store, SecretKey: testSecret})
	t.Cleanup(func() { _ = s.Close() })
	post := func(body string) (int, string) {
		req := httptest.NewRequest("POST", "/sessions/import", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Secret-Key", testSecret)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		return w.Code, w.Body.String()
	}
	if code, body := post(`{"json":"{\"id\":\"x\",\"working_dir\":\"/tmp\",\"conversation\":[]}"}`); code != 500 || body != `{"message":"disk I/O error"}` {
		t.Errorf("storage failure: %d %s", code, body)
	}
	e := newTestEnv(t, "auto")
	if code, body := e.call("POST", "/sessions/import", map[string]any{"json": "{not json"}); code != 400 || !strings.HasPrefix(body, `{"message":"import session: session: invalid import: `) {
		t.Errorf("bad input: %d %s", code, body)
	}
}

// A session's extensions are the ones saved with it, else config.yaml's
// enabled ones in key order (core decides: agent.Sessions.SavedExtensions,
// config.EnabledExtensions).
func TestSessionExtensionsSavedElseConfigured(t *testing.T) {
	e := newTestEnv(t, "auto")
	for _, x := range []struct {
		name    string
		enabled bool
	}{{"zeta", true}, {"alpha", true}, {"off", false}} {
		if err := e.cfg.SetExtension(config.ExtensionEntry{Enabled: x.enabled, Config: config.ExtensionConfig{Type: config.ExtensionStdio, Name: x.name, Cmd: "x"}}); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := e.store.Create(context.Background(), session.NewSession{WorkingDir: t.TempDir(), Name: "stored", SessionType: session.TypeUser})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Extensions []config.ExtensionConfig `json:"extensions"`
	}
	names := func(path string) string {
		e.callJSON("GET", path, nil, 200, &got)
		var out []string
		for _, x := range got.Extensions {
			out = append(out, x.Name)
		}
		return strings.Join(out, ",")
	}
	if got := names("/sessions/" + stored.ID + "/extensions"); got != "alpha,tt,zeta" {
		t.Fatalf("never-loaded session: %s", got)
	}
	// A started session keeps the list it was saved with after config.yaml
	// changes; the stored one follows config.yaml.
	id := e.startSession()
	if err := e.cfg.SetExtensionEnabled("tt", false); err != nil {
		t.Fatal(err)
	}
	if got := names("/sessions/" + id + "/extensions"); !strings.Contains(","+got+",", ",tt,") {
		t.Fatalf("started session: %s, want its saved list (with tt)", got)
	}
	if got := names("/sessions/" + stored.ID + "/extensions"); got != "alpha,zeta" {
		t.Fatalf("never-loaded session after tt was disabled: %s", got)
	}
	if code, _ := e.call("GET", "/sessions/20990101_9/extensions", nil); code != 404 {
		t.Fatalf("unknown session: %d", code)
	}
}
