package agent

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/session"
)

// writeCounter counts a store's session writes.
type writeCounter struct {
	session.Store
	mu      sync.Mutex
	creates []session.NewSession
	updates []session.Update
}

func (w *writeCounter) Create(ctx context.Context, ns session.NewSession) (session.Session, error) {
	w.mu.Lock()
	w.creates = append(w.creates, ns)
	w.mu.Unlock()
	return w.Store.Create(ctx, ns)
}

func (w *writeCounter) Update(ctx context.Context, id string, u session.Update) error {
	w.mu.Lock()
	w.updates = append(w.updates, u)
	w.mu.Unlock()
	return w.Store.Update(ctx, id, u)
}

// A session started for an editor (extensions connecting in the
// background) is written once before StartSession returns: its row holds
// its mode, provider and model from the insert, and what StartSession
// returns is what the store reads.
func TestNewSessionIsWrittenOnce(t *testing.T) {
	var w *writeCounter
	h := newHarnessWith(t, mapConfig{"GOOSE_MODE": "approve", "GOOSE_PROVIDER": "fake", "GOOSE_MODEL": "m1"}, func(o *Options) {
		w = &writeCounter{Store: o.Store}
		o.Store = w
	})
	sess, _, err := h.a.StartSession(context.Background(), StartOptions{WorkingDir: t.TempDir(), ConnectInBackground: true,
		Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "tt"}}})
	if err != nil {
		t.Fatal(err)
	}
	w.mu.Lock()
	creates, updates := len(w.creates), len(w.updates)
	var ns session.NewSession
	if creates == 1 {
		ns = w.creates[0]
	}
	w.mu.Unlock()
	if creates != 1 || updates != 0 {
		t.Fatalf("StartSession wrote the session with %d creates and %d updates, want 1 and 0", creates, updates)
	}
	wantModel, _ := json.Marshal(h.prov.ModelConfig())
	if ns.GooseMode != "approve" || ns.ProviderName == nil || *ns.ProviderName != h.prov.Metadata().Name || ns.ModelConfig == nil {
		t.Fatalf("created with mode %q provider %v model %v", ns.GooseMode, ns.ProviderName, ns.ModelConfig)
	}
	if got, _ := json.Marshal(ns.ModelConfig); string(got) != string(wantModel) {
		t.Errorf("created with model %s, want %s", got, wantModel)
	}
	stored, err := h.store.Get(context.Background(), sess.ID, false)
	if err != nil {
		t.Fatal(err)
	}
	stored.Conversation, sess.Conversation = nil, nil
	stored.MessageCount, sess.MessageCount = 0, 0
	a, _ := json.Marshal(sess)
	b, _ := json.Marshal(stored)
	if string(a) != string(b) {
		t.Errorf("StartSession returned\n%s\nthe store holds\n%s", a, b)
	}
	if mode, err := h.a.Sessions().Mode(sess.ID); err != nil || mode != "approve" {
		t.Errorf("session mode %q, %v", mode, err)
	}
}

// A session whose extensions connect in the background starts connecting
// at the first wait for them (the ACP face's, right after it has written
// the session's answer; a turn's; the session's close), not while the
// caller is still answering: the connect does not compete with that
// answer. A session closed before anything waited closes at once.
func TestBackgroundConnectStartsAtTheFirstWait(t *testing.T) {
	var mu sync.Mutex
	built := 0
	h := newHarnessWith(t, nil, func(o *Options) {
		o.Builtins = map[string]extension.BuiltinFactory{"lazy": func(ctx context.Context, env extension.Env) (extension.Server, error) {
			mu.Lock()
			built++
			mu.Unlock()
			return h0.ts.factory(ctx, env)
		}}
	})
	h0 = h
	start := func() string {
		sess, _, err := h.a.StartSession(context.Background(), StartOptions{WorkingDir: t.TempDir(), ConnectInBackground: true,
			Extensions: []config.ExtensionConfig{{Type: config.ExtensionBuiltin, Name: "lazy"}}})
		if err != nil {
			t.Fatal(err)
		}
		return sess.ID
	}
	builtNow := func() int {
		mu.Lock()
		defer mu.Unlock()
		return built
	}
	id := start()
	time.Sleep(100 * time.Millisecond) // the old code had connected by now
	if n := builtNow(); n != 0 {
		t.Fatalf("the extensions connected before anything waited for them (%d built)", n)
	}
	res, err := h.a.Extensions().Results(context.Background(), id)
	if err != nil || len(res) != 1 || !res[0].Success || builtNow() != 1 {
		t.Fatalf("after the first wait: %+v, %v, %d built", res, err, builtNow())
	}
	// Closed before anything waited: nothing connects, the close returns.
	id2 := start()
	done := make(chan error, 1)
	go func() { done <- h.a.CloseSession(id2) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("closing a session whose connect never started hung")
	}
	if n := builtNow(); n != 1 {
		t.Errorf("the closed session's extensions connected (%d built)", n)
	}
}

// h0 lets a harness's builtin factory reach the harness's test server.
var h0 *harness
