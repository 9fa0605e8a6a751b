package jsonrpc

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"unsafe"
)

// Ordered methods run one at a time in arrival order; others beside them.
func TestOrderedMethodsRunInArrivalOrder(t *testing.T) {
	var mu sync.Mutex
	var log []string
	release := make(chan struct{})
	firstStarted := make(chan struct{})
	opts := Options{Ordered: func(m string) bool { return m == "set" }, Requests: map[string]RequestHandler{
		"set": func(_ context.Context, p json.RawMessage) (any, error) {
			if string(p) == `"first"` {
				close(firstStarted)
				<-release
			}
			mu.Lock()
			log = append(log, string(p))
			mu.Unlock()
			return nil, nil
		},
		"free": func(context.Context, json.RawMessage) (any, error) { return "free", nil },
	}}
	w, sc, _ := serveLines(t, opts, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"set","params":"first"}`+"\n")
	<-firstStarted
	io.WriteString(w, `{"jsonrpc":"2.0","id":2,"method":"set","params":"second"}`+"\n")
	io.WriteString(w, `{"jsonrpc":"2.0","id":3,"method":"free"}`+"\n")
	if got := readLine(t, sc); got != `{"id":3,"result":"free","jsonrpc":"2.0"}` {
		t.Fatalf("an unordered request waited behind an ordered one: %s", got)
	}
	close(release)
	if a, b := readLine(t, sc), readLine(t, sc); !strings.HasPrefix(a, `{"id":1,`) || !strings.HasPrefix(b, `{"id":2,`) {
		t.Fatalf("answers %s, %s", a, b)
	}
	if strings.Join(log, ",") != `"first","second"` {
		t.Fatalf("ran in order %v", log)
	}
}

// An ordered handler that calls Proceed lets the next ordered request run
// while it still works (an ACP v2 prompt queued behind a running turn must
// not hold up the set_config_option sent after it).
func TestProceedLetsTheNextOrderedRequestStart(t *testing.T) {
	release := make(chan struct{})
	opts := Options{Ordered: func(m string) bool { return m == "set" }, Requests: map[string]RequestHandler{
		"set": func(ctx context.Context, p json.RawMessage) (any, error) {
			if string(p) == `"first"` {
				Proceed(ctx)
				Proceed(ctx) // a second call changes nothing
				<-release
			}
			var v string
			return v, json.Unmarshal(p, &v)
		},
	}}
	w, sc, _ := serveLines(t, opts, 0)
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) })
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"set","params":"first"}`+"\n")
	io.WriteString(w, `{"jsonrpc":"2.0","id":2,"method":"set","params":"second"}`+"\n")
	if got := readLine(t, sc); got != `{"id":2,"result":"second","jsonrpc":"2.0"}` {
		t.Fatalf("the second ordered request waited for the first's handler: %s", got)
	}
	once.Do(func() { close(release) })
	if got := readLine(t, sc); got != `{"id":1,"result":"first","jsonrpc":"2.0"}` {
		t.Fatalf("first: %s", got)
	}
}

// Frames a handler writes itself (session/update, held back with flush
// false) go out before its response, in the order written, through the
// same writer.
func TestHandlerFramesPrecedeItsResponse(t *testing.T) {
	var conn *Conn
	opts := Options{Requests: map[string]RequestHandler{
		"load": func(context.Context, json.RawMessage) (any, error) {
			for i := range 3 {
				if err := conn.WriteFrame(fmt.Appendf(nil, `{"jsonrpc":"2.0","method":"session/update","params":{"n":%d}}`, i), false); err != nil {
					return nil, err
				}
			}
			return "loaded", nil
		},
	}}
	w, sc, c := serveLines(t, opts, 0)
	conn = c
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"load"}`+"\n")
	for i := range 3 {
		if got, want := readLine(t, sc), fmt.Sprintf(`{"jsonrpc":"2.0","method":"session/update","params":{"n":%d}}`, i); got != want {
			t.Fatalf("frame %d: %s", i, got)
		}
	}
	if got := readLine(t, sc); got != `{"id":1,"result":"loaded","jsonrpc":"2.0"}` {
		t.Fatalf("response %s", got)
	}
}

// Notifications are handled inline, in arrival order, before the next
// message is read.
func TestNotificationsInArrivalOrder(t *testing.T) {
	var got []string
	opts := echo()
	opts.Notifications = map[string]NotificationHandler{
		"note": func(_ context.Context, p json.RawMessage) { got = append(got, string(p)) },
	}
	w, sc, _ := serveLines(t, opts, 0)
	for i := range 5 {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","method":"note","params":%d}`+"\n", i)
	}
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"echo","params":1}`+"\n")
	readLine(t, sc)
	if strings.Join(got, ",") != "0,1,2,3,4" {
		t.Fatalf("notifications handled as %v", got)
	}
}

// oneFrame is an ObjectStream holding one frame.
type oneFrame struct {
	frame []byte
	read  bool
	out   strings.Builder
	mu    sync.Mutex
}

func (s *oneFrame) ReadObject(v any) error {
	if s.read {
		return io.EOF
	}
	s.read = true
	return json.Unmarshal(s.frame, v)
}

func (s *oneFrame) WriteObject(obj any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.out.Write(obj.(json.RawMessage))
	return nil
}

func (s *oneFrame) Close() error { return nil }

// TestParamsAreTheFramesBytes: the handler gets the params as a slice of
// the frame itself, not a copy (a 31 MB prompt used to be decoded three
// times over by jsonrpc2).
func TestParamsAreTheFramesBytes(t *testing.T) {
	frame := []byte(`{"jsonrpc":"2.0","id":1,"method":"big","params":{"text":"` + strings.Repeat("x", 1<<16) + `"}}`)
	shared := false
	opts := Options{Requests: map[string]RequestHandler{
		"big": func(_ context.Context, p json.RawMessage) (any, error) {
			start := uintptr(unsafe.Pointer(unsafe.SliceData(frame)))
			at := uintptr(unsafe.Pointer(unsafe.SliceData(p)))
			shared = at >= start && at < start+uintptr(len(frame))
			return nil, nil
		},
	}}
	s := &oneFrame{frame: frame}
	if err := NewConn(s, opts).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !shared {
		t.Fatal("the params were copied out of the frame")
	}
	if got := s.out.String(); got != `{"id":1,"result":{},"jsonrpc":"2.0"}` {
		t.Fatalf("answer %s", got)
	}
}
