package jsonrpc

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// serveLines runs a Conn with opts on an in-memory stdio pair and returns
// the client's writer and a line reader of what the connection wrote.
func serveLines(t *testing.T, opts Options, maxLen int) (io.Writer, *bufio.Scanner, *Conn) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := NewStream(inR, outW, nil)
	if maxLen > 0 {
		s.SetMaxMessageBytes(maxLen)
	}
	conn := NewConn(s, opts)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = conn.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		<-done
		outW.Close()
		outR.Close()
	})
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	return inW, sc, conn
}

func readLine(t *testing.T, sc *bufio.Scanner) string {
	t.Helper()
	done := make(chan bool, 1)
	go func() { done <- sc.Scan() }()
	select {
	case ok := <-done:
		if !ok {
			t.Fatalf("output ended: %v", sc.Err())
		}
		return sc.Text()
	case <-time.After(5 * time.Second):
		t.Fatal("timed out waiting for a line")
	}
	return ""
}

func echo() Options {
	return Options{Requests: map[string]RequestHandler{
		"echo": func(_ context.Context, p json.RawMessage) (any, error) { return p, nil },
	}}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b string) bool {
	var va, vb any
	if json.Unmarshal([]byte(a), &va) != nil || json.Unmarshal([]byte(b), &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

func TestBadLinesAreAnsweredAndServingGoesOn(t *testing.T) {
	cases := []struct {
		name, line, want string
	}{
		{"not json", `{"jsonrpc":"2.0",`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"parse error"}}`},
		{"garbage", `hello`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"parse error"}}`},
		{"a number", `5`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error","data":"parse error"}}`},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"echo"}]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"batch requests are not supported"}}`},
		{"broken response", `{"jsonrpc":"1.0","id":7,"result":{}}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"\"jsonrpc\" must be \"2.0\""}}`},
		{"no method", `{"jsonrpc":"2.0","id":7}`, `{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request","data":"message is neither a request nor a response"}}`},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"echo"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Invalid Request","data":"\"jsonrpc\" must be \"2.0\""}}`},
		{"empty method", `{"jsonrpc":"2.0","id":3,"method":""}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Invalid Request","data":"method must not be empty"}}`},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"echo"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"invalid JSON-RPC message: id must be a string, a number or null"}}`},
		{"oversized", `{"jsonrpc":"2.0","id":1,"method":"echo","params":"` + strings.Repeat("x", 300) + `"}`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"message exceeds 256 bytes"}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w, sc, _ := serveLines(t, echo(), 256)
			io.WriteString(w, tc.line+"\n")
			if got := readLine(t, sc); got != tc.want {
				t.Fatalf("reply to bad line:\n got %s\nwant %s", got, tc.want)
			}
			io.WriteString(w, "\n"+`{"jsonrpc":"2.0","id":2,"method":"echo","params":{"a":1}}`+"\n")
			if got, want := readLine(t, sc), `{"id":2,"result":{"a":1},"jsonrpc":"2.0"}`; got != want {
				t.Fatalf("connection did not keep serving:\n got %s\nwant %s", got, want)
			}
		})
	}
}

// TestFramesKeepTheirBytes pins the frames' layout (jsonrpc2's, what
// clients have always been sent) and that ids come back as sent: a
// number, a string, a negative number (jsonrpc2 turned it into 2^64-1).
func TestFramesKeepTheirBytes(t *testing.T) {
	opts := echo()
	opts.Requests["fail"] = func(context.Context, json.RawMessage) (any, error) { return nil, io.ErrUnexpectedEOF }
	opts.Requests["nothing"] = func(context.Context, json.RawMessage) (any, error) { return nil, nil }
	w, sc, _ := serveLines(t, opts, 0)
	for _, c := range []struct{ in, want string }{
		{`{"jsonrpc":"2.0","id":1,"method":"echo","params":{"b":"<x>"}}`, `{"id":1,"result":{"b":"\u003cx\u003e"},"jsonrpc":"2.0"}`},
		{`{"jsonrpc":"2.0","id":"req-7","method":"nothing"}`, `{"id":"req-7","result":{},"jsonrpc":"2.0"}`},
		{`{"jsonrpc":"2.0","id":-4,"method":"nothing"}`, `{"id":-4,"result":{},"jsonrpc":"2.0"}`},
		{`{"jsonrpc":"2.0","id":9,"method":"fail"}`, `{"id":9,"error":{"code":-32603,"message":"Internal error","data":"unexpected EOF"},"jsonrpc":"2.0"}`},
		{`{"jsonrpc":"2.0","id":"u","method":"_goose/unknown"}`, `{"id":"u","error":{"code":-32601,"message":"Method not found","data":"_goose/unknown"},"jsonrpc":"2.0"}`},
	} {
		io.WriteString(w, c.in+"\n")
		if got := readLine(t, sc); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestCancelRequest(t *testing.T) {
	started := make(chan struct{})
	opts := Options{Requests: map[string]RequestHandler{
		"slow": func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, ctx.Err()
		},
	}}
	w, sc, _ := serveLines(t, opts, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":"s","method":"slow"}`+"\n")
	<-started
	io.WriteString(w, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"s"}}`+"\n")
	if got, want := readLine(t, sc), `{"id":"s","error":{"code":-32603,"message":"Internal error","data":"context canceled"},"jsonrpc":"2.0"}`; got != want {
		t.Fatalf("cancelled request:\n got %s\nwant %s", got, want)
	}
}

// A handler that returns nothing after its request was cancelled answers
// with the cancellation, not an empty success.
func TestCancelledEmptyResultIsAnError(t *testing.T) {
	started := make(chan struct{})
	opts := Options{Requests: map[string]RequestHandler{
		"quiet": func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			return nil, nil
		},
	}}
	w, sc, _ := serveLines(t, opts, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":4,"method":"quiet"}`+"\n")
	<-started
	io.WriteString(w, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":4}}`+"\n")
	if got := readLine(t, sc); !strings.Contains(got, `"data":"context canceled"`) || !strings.HasPrefix(got, `{"id":4,"error"`) {
		t.Fatalf("got %s", got)
	}
}

// A client answering an agent call with "result": null (a valid empty
// result, what many SDKs send for fs/write_text_file) reaches the caller.
func TestCallGetsNullResult(t *testing.T) {
	w, sc, conn := serveLines(t, Options{}, 0)
	errc := make(chan error, 1)
	go func() {
		var got any = "unset"
		err := conn.Call(context.Background(), "fs/write_text_file", map[string]string{"path": "/a"}, &got)
		if err == nil && got != nil {
			t.Errorf("result %v, want nil", got)
		}
		errc <- err
	}()
	if got, want := readLine(t, sc), `{"id":1,"jsonrpc":"2.0","method":"fs/write_text_file","params":{"path":"/a"}}`; got != want {
		t.Fatalf("call frame:\n got %s\nwant %s", got, want)
	}
	io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":null}`+"\n")
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}

// A call whose context ends is withdrawn from the client with
// $/cancel_request naming its id.
func TestAbandonedCallIsCancelledOnTheClient(t *testing.T) {
	_, sc, conn := serveLines(t, Options{}, 0)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- conn.Call(ctx, "session/request_permission", map[string]any{}, nil) }()
	if got := readLine(t, sc); !strings.HasPrefix(got, `{"id":1,"jsonrpc":"2.0","method":"session/request_permission"`) {
		t.Fatalf("call frame %s", got)
	}
	cancel()
	if got, want := readLine(t, sc), `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":1}}`; got != want {
		t.Fatalf("cancel frame:\n got %s\nwant %s", got, want)
	}
	if err := <-errc; err != context.Canceled {
		t.Fatalf("Call returned %v", err)
	}
}

// TestDuplicateIDsEachKeepTheirCancel: two in-flight requests with the
// same id. Finishing the first must not cancel the second, and both are
// answered.
func TestDuplicateIDsEachKeepTheirCancel(t *testing.T) {
	release := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	started := make(chan string, 2)
	opts := Options{Requests: map[string]RequestHandler{
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
	w, sc, _ := serveLines(t, opts, 0)
	io.WriteString(w, `{"jsonrpc":"2.0","id":5,"method":"wait","params":"a"}`+"\n")
	<-started
	io.WriteString(w, `{"jsonrpc":"2.0","id":5,"method":"wait","params":"b"}`+"\n")
	<-started
	close(release["a"])
	if got, want := readLine(t, sc), `{"id":5,"result":"a","jsonrpc":"2.0"}`; got != want {
		t.Fatalf("first: got %s want %s", got, want)
	}
	close(release["b"])
	if got, want := readLine(t, sc), `{"id":5,"result":"b","jsonrpc":"2.0"}`; got != want {
		t.Fatalf("second (must not be cancelled by the first's end): got %s want %s", got, want)
	}
}

// A client that writes its requests and closes its input at once (a
// script piping into goose-acp) still gets every answer.
func TestRequestsReadBeforeEOFAreAnswered(t *testing.T) {
	opts := Options{Requests: map[string]RequestHandler{
		"slow": func(ctx context.Context, p json.RawMessage) (any, error) {
			select {
			case <-time.After(100 * time.Millisecond):
				return p, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	}}
	eof := make(chan struct{})
	opts.OnEOF = func() { close(eof) }
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"slow","params":"a"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"slow","params":"b"}` + "\n")
	var out strings.Builder
	if err := NewConn(NewStream(in, &out, nil), opts).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	<-eof
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !jsonEqualAny(lines, `{"jsonrpc":"2.0","id":1,"result":"a"}`) || !jsonEqualAny(lines, `{"jsonrpc":"2.0","id":2,"result":"b"}`) {
		t.Fatalf("answers after EOF = %q", lines)
	}
}

func jsonEqualAny(lines []string, want string) bool {
	for _, l := range lines {
		if jsonEqual(l, want) {
			return true
		}
	}
	return false
}
