package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// pipeConn serves router on an in-memory stdio pair and returns the client's
// writer and a line reader of what the agent wrote.
func pipeConn(t *testing.T, router *Router, maxLen int) (io.Writer, *bufio.Scanner) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := NewStream(inR, outW, nil)
	if maxLen > 0 {
		s.maxLen = maxLen
	}
	ctx, cancel := context.WithCancel(context.Background())
	conn := jsonrpc2.NewConn(ctx, s, router)
	t.Cleanup(func() {
		cancel()
		inW.Close()
		<-conn.DisconnectNotify()
		router.Wait()
		outW.Close()
		outR.Close()
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return inW, sc
}

func readLine(t *testing.T, sc *bufio.Scanner) string {
	t.Helper()
	done := make(chan bool, 1)
	go func() { done <- sc.Scan() }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatalf("agent output ended: %v", sc.Err())
		}
		return sc.Text()
	case <-time.After(5 * time.Second):
		t.Fatal("timed out waiting for a line from the agent")
	}
	return ""
}

func echoRouter() *Router {
	return &Router{Requests: map[string]RequestHandler{
		"echo": func(_ context.Context, p json.RawMessage) (any, error) { return p, nil },
	}}
}

func TestStreamAnswersBadLinesAndKeepsServing(t *testing.T) {
	cases := []struct {
		name, line, want string
	}{
		{"not json", `{"jsonrpc":"2.0",`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"parse error"}}`},
		{"garbage", `hello`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"parse error"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"batch requests are not supported"}}`},
		{"broken response", `{"jsonrpc":"1.0","id":7,"result":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"\"jsonrpc\" must be \"2.0\""}}`},
		{"no method", `{"jsonrpc":"2.0","id":7}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request","data":"message is neither a request nor a response"}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"echo"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request","data":"\"jsonrpc\" must be \"2.0\""}}`},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"echo","params":"` + strings.Repeat("x", 300) + `"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"message exceeds 256 bytes"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, sc := pipeConn(t, echoRouter(), 256)
			io.WriteString(w, tc.line+"\n")
			if got := readLine(t, sc); !jsonEqual(got, tc.want) {
				t.Fatalf("reply to bad line:\n got %s\nwant %s", got, tc.want)
			}
			io.WriteString(w, "\n"+`{"jsonrpc":"2.0","id":2,"method":"echo","params":{"a":1}}`+"\n")
			if got, want := readLine(t, sc), `{"jsonrpc":"2.0","id":2,"result":{"a":1}}`; !jsonEqual(got, want) {
				t.Fatalf("connection did not keep serving:\n got %s\nwant %s", got, want)
			}
		})
	}
}

func TestRouterUnknownMethodAndCancelRequest(t *testing.T) {
	started := make(chan struct{})
	r := &Router{Requests: map[string]RequestHandler{
		"slow": func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	w, sc := pipeConn(t, r, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"method":"_goose/unknown"}`+"\n")
	if got, want := readLine(t, sc), `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found","data":"_goose/unknown"}}`; !jsonEqual(got, want) {
		t.Fatalf("unknown method:\n got %s\nwant %s", got, want)
	}
	io.WriteString(w, `{"jsonrpc":"2.0","id":"s","method":"slow"}`+"\n")
	<-started
	io.WriteString(w, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"s"}}`+"\n")
	if got, want := readLine(t, sc), `{"jsonrpc":"2.0","id":"s","error":{"code":-32800,"message":"Request cancelled","data":"context canceled"}}`; !jsonEqual(got, want) {
		t.Fatalf("cancelled request:\n got %s\nwant %s", got, want)
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// A client answering an agent call with "result": null (a valid empty
// result, what many SDKs send for fs/write_text_file) must reach the
// caller, not be rejected as "neither a request nor a response".
func TestStreamAcceptsNullResult(t *testing.T) {
	var out strings.Builder
	s := NewStream(strings.NewReader(`{"jsonrpc":"2.0","id":3,"result":null}`+"\n"), &out, nil)
	var msg map[string]any
	if err := s.ReadObject(&msg); err != nil {
		t.Fatalf("ReadObject: %v", err)
	}
	if _, ok := msg["result"]; !ok || msg["id"] != float64(3) {
		t.Fatalf("read %v", msg)
	}
	if out.Len() != 0 {
		t.Fatalf("the stream answered a valid response: %s", out.String())
	}
}

// TestRouterDuplicateIDsEachKeepTheirCancel: two in-flight requests with the
// same id. Finishing the first must not cancel the second (it used to: the
// second's registration overwrote the first's cancel, and the first's
// untrack then cancelled the second), and both are answered.
func TestRouterDuplicateIDsEachKeepTheirCancel(t *testing.T) {
	release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	started := make(chan string, 2)
	r := &Router{Requests: map[string]RequestHandler{
		"wait": func(ctx context.Context, p json.RawMessage) (any, error) {
			var name string
			_ = json.Unmarshal(p, &name)
			started <- name
			select {
			case <-release[name]:
				return name, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	}}
	w, sc := pipeConn(t, r, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":5,"method":"wait","params":"a"}`+"\n")
	<-started
	io.WriteString(w, `{"jsonrpc":"2.0","id":5,"method":"wait","params":"b"}`+"\n")
	<-started
	close(release["a"])
	if got, want := readLine(t, sc), `{"jsonrpc":"2.0","id":5,"result":"a"}`; !jsonEqual(got, want) {
		t.Fatalf("first: got %s want %s", got, want)
	}
	close(release["b"])
	if got, want := readLine(t, sc), `{"jsonrpc":"2.0","id":5,"result":"b"}`; !jsonEqual(got, want) {
		t.Fatalf("second (must not be cancelled by the first's end): got %s want %s", got, want)
	}
}
