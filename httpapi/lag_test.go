package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
)

// gatedWriter is a ResponseWriter whose writes block until open is closed,
// standing in for a client that stops reading.
type gatedWriter struct {
	header http.Header
	open   chan struct{}
	mu     sync.Mutex
	buf    bytes.Buffer
}

func (g *gatedWriter) Header() http.Header { return g.header }
func (g *gatedWriter) WriteHeader(int)     {}
func (g *gatedWriter) Flush()              {}
func (g *gatedWriter) Write(p []byte) (int, error) {
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.Write(p)
}

func (g *gatedWriter) String() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.buf.String()
}

var frameID = regexp.MustCompile(`(?m)^id: (\d+)$`)

// TestEventsLaggingStreamCatchesUp: a stream that stops reading while more
// than SubscriberCapacity events arrive still delivers every event, in
// order, once it reads again (caught up from the replay ring).
func TestEventsLaggingStreamCatchesUp(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	w := &gatedWriter{header: http.Header{}, open: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest("GET", "/sessions/"+id+"/events", nil).WithContext(ctx)
	req.SetPathValue("id", id)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.srv.mux.ServeHTTP(w, req)
	}()
	b := e.srv.buses.get(id)
	for deadline := time.Now().Add(5 * time.Second); ; {
		b.mu.Lock()
		n := len(b.subs)
		b.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("stream never subscribed")
		}
		time.Sleep(time.Millisecond)
	}
	const total = SubscriberCapacity + 100
	msg := conversation.AssistantText(1, "chunk").WithID("m")
	for i := 0; i < total; i++ {
		b.publish("r", messageEvent(msg, TokenState{}))
	}
	b.mu.Lock()
	lagged := false
	for sub := range b.subs {
		lagged = sub.lagged
	}
	b.mu.Unlock()
	if !lagged {
		t.Fatal("the blocked stream did not lag")
	}
	close(w.open)
	want := "id: " + strconv.Itoa(total) + "\n"
	for deadline := time.Now().Add(5 * time.Second); !bytes.Contains([]byte(w.String()), []byte(want)); {
		if time.Now().After(deadline) {
			t.Fatalf("stream never reached event %d", total)
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	<-done
	ids := frameID.FindAllStringSubmatch(w.String(), -1)
	if len(ids) != total {
		t.Fatalf("%d events delivered, want %d", len(ids), total)
	}
	for i, m := range ids {
		if m[1] != strconv.Itoa(i+1) {
			t.Fatalf("event %d has id %s", i+1, m[1])
		}
	}
}

// TestEventsStreamTooFarBehindCloses: past the replay ring a lagging
// stream delivers what it had, in order, then closes so the client
// reconnects (and is told to reload).
func TestEventsStreamTooFarBehindCloses(t *testing.T) {
	e := newTestEnv(t, "auto")
	id := e.startSession()
	w := &gatedWriter{header: http.Header{}, open: make(chan struct{})}
	req := httptest.NewRequest("GET", "/sessions/"+id+"/events", nil)
	req.SetPathValue("id", id)
	done := make(chan struct{})
	go func() {
		defer close(done)
		e.srv.mux.ServeHTTP(w, req)
	}()
	b := e.srv.buses.get(id)
	for deadline := time.Now().Add(5 * time.Second); ; {
		b.mu.Lock()
		n := len(b.subs)
		b.mu.Unlock()
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("stream never subscribed")
		}
		time.Sleep(time.Millisecond)
	}
	for i := 0; i < ReplayCapacity+SubscriberCapacity+50; i++ {
		b.publish("r", pingEvent())
	}
	close(w.open)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("stream still open past the replay ring")
	}
	ids := frameID.FindAllStringSubmatch(w.String(), -1)
	if len(ids) != SubscriberCapacity {
		t.Fatalf("%d events delivered before closing, want %d", len(ids), SubscriberCapacity)
	}
	for i, m := range ids {
		if m[1] != strconv.Itoa(i+1) {
			t.Fatalf("event %d has id %s", i+1, m[1])
		}
	}
}
