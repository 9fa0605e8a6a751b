package agent

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/config"
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
