package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// recordingHolder is a face's hold that records the titles and tool
// progress it is sent.
type recordingHolder struct {
	mu       sync.Mutex
	titles   []string
	progress []ToolProgressEvent
}

func (r *recordingHolder) SessionEvent(id string, ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case TitleEvent:
		r.titles = append(r.titles, id+":"+e.Title)
	case ToolProgressEvent:
		r.progress = append(r.progress, e)
	}
}

func (r *recordingHolder) progressEvents() []ToolProgressEvent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]ToolProgressEvent(nil), r.progress...)
}

func (r *recordingHolder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.titles...)
}

// A session two faces hold stays loaded until both let go.
func TestLeaseTwoHolders(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	acp, rest := &recordingHolder{}, &recordingHolder{}
	h.start(StartOptions{Holder: acp})
	if err := h.a.Sessions().Hold(ctx, h.id, rest); err != nil {
		t.Fatal(err)
	}
	if err := h.a.Sessions().Hold(ctx, h.id, rest); err != nil { // twice is once
		t.Fatal(err)
	}
	if closed, err := h.a.Sessions().Release(h.id, rest); err != nil || closed {
		t.Fatalf("first release: closed %v, err %v", closed, err)
	}
	if !h.a.Sessions().IsLoaded(h.id) || !h.a.Sessions().Held(h.id) {
		t.Fatal("the session was unloaded while the other face holds it")
	}
	if closed, err := h.a.Sessions().Release(h.id, acp); err != nil || !closed {
		t.Fatalf("last release: closed %v, err %v", closed, err)
	}
	if h.a.Sessions().IsLoaded(h.id) {
		t.Fatal("the session stayed loaded with no holder")
	}
	if _, err := h.a.Sessions().Release(h.id, acp); !errors.Is(err, ErrSessionNotLoaded) {
		t.Fatalf("release of an unloaded session: %v", err)
	}
}

// A loaded session nobody holds (a route loaded it on demand) is
// unloaded by any face's release; resuming a loaded session holds it.
func TestLeaseUnheldAndResume(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	h.start(StartOptions{})
	other := &recordingHolder{}
	if closed, err := h.a.Sessions().Release(h.id, other); err != nil || !closed {
		t.Fatalf("release of an unheld session: closed %v, err %v", closed, err)
	}
	if err := h.a.Sessions().EnsureLoaded(ctx, h.id); err != nil {
		t.Fatal(err)
	}
	first, second := &recordingHolder{}, &recordingHolder{}
	for _, holder := range []*recordingHolder{first, second} {
		if _, _, err := h.a.ResumeSession(ctx, h.id, StartOptions{Holder: holder}); err != nil {
			t.Fatal(err)
		}
	}
	if closed, _ := h.a.Sessions().Release(h.id, first); closed {
		t.Fatal("resuming a loaded session did not hold it")
	}
	// CloseSession unloads whatever holds it (delete, archive, reload).
	if err := h.a.CloseSession(h.id); err != nil {
		t.Fatal(err)
	}
	if h.a.Sessions().Held(h.id) || h.a.Sessions().IsLoaded(h.id) {
		t.Fatal("CloseSession left the session loaded")
	}
}

// Faces holding and releasing one session at once never leave it loaded
// without a holder nor unload it under one (run with -race).
func TestLeaseConcurrentHolders(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	keeper := &recordingHolder{}
	h.start(StartOptions{Holder: keeper})
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := &recordingHolder{}
			for j := 0; j < 8; j++ {
				if err := h.a.Sessions().Hold(ctx, h.id, mine); err != nil {
					errs <- err
					return
				}
				if closed, err := h.a.Sessions().Release(h.id, mine); err != nil || closed {
					errs <- fmt.Errorf("release while another face holds it: closed %v, err %v", closed, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if closed, err := h.a.Sessions().Release(h.id, keeper); err != nil || !closed {
		t.Fatalf("the keeper's release: closed %v, err %v", closed, err)
	}
}

// A title generated after the turn ended reaches the faces that hold the
// session, and only them.
func TestLateTitleGoesToHolders(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, mapConfig{"GOOSE_DISABLE_SESSION_NAMING": "false"}, say("hi"))
	turnOver := make(chan struct{})
	h.prov.complete = func(provider.Request) (conversation.Message, error) {
		<-turnOver
		return conversation.AssistantText(0, "Trip planning"), nil
	}
	holder, gone := &recordingHolder{}, &recordingHolder{}
	h.start(StartOptions{Holder: holder})
	if err := h.a.Sessions().Hold(ctx, h.id, gone); err != nil {
		t.Fatal(err)
	}
	if _, err := h.a.Sessions().Release(h.id, gone); err != nil {
		t.Fatal(err)
	}
	h.reply(ctx, "plan a trip", nil)
	close(turnOver)
	h.a.Wait()
	if got := holder.got(); len(got) != 1 || got[0] != h.id+":Trip planning" {
		t.Fatalf("holder got %v", got)
	}
	if got := gone.got(); len(got) != 0 {
		t.Fatalf("a face that let go got %v", got)
	}
}

// A reload (goosed's restart) keeps the faces that held the session.
func TestLeaseSurvivesReload(t *testing.T) {
	ctx := context.Background()
	h := newOpsHarness(t)
	holder := &recordingHolder{}
	h.start(StartOptions{Holder: holder})
	if _, err := h.a.Sessions().Reload(ctx, h.id); err != nil {
		t.Fatal(err)
	}
	if closed, err := h.a.Sessions().Release(h.id, &recordingHolder{}); err != nil || closed {
		t.Fatalf("after the reload nobody held the session: closed %v, err %v", closed, err)
	}
	if closed, err := h.a.Sessions().Release(h.id, holder); err != nil || !closed {
		t.Fatalf("the holder's release: closed %v, err %v", closed, err)
	}
}
