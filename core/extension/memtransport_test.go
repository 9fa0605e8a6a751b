package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// memServer is a go-sdk server exercising both directions of the
// transport: a plain tool, one sending progress and log notifications,
// one eliciting from the client, one failing with a protocol error.
func memServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "mem", Version: "1"}, &mcp.ServerOptions{Instructions: "in process"})
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return text("echo:" + string(r.Params.Arguments)), nil
	})
	s.AddTool(&mcp.Tool{Name: "chatty", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := r.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: r.Params.GetProgressToken(), Progress: 1, Total: 2, Message: "half"}); err != nil {
			return nil, err
		}
		if err := r.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "mem", Data: "line 1"}); err != nil {
			return nil, err
		}
		return text("done"), nil
	})
	s.AddTool(&mcp.Tool{Name: "ask", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		res, err := r.Session.Elicit(ctx, &mcp.ElicitParams{Message: "name?", RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)})
		if err != nil {
			return nil, err
		}
		return text(res.Action + ":" + fmt.Sprint(res.Content["name"])), nil
	})
	s.AddTool(&mcp.Tool{Name: "fail", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, &jsonrpc.Error{Code: 4242, Message: "nope", Data: json.RawMessage(`{"why":"test"}`)}
	})
	s.AddTool(&mcp.Tool{Name: "block", InputSchema: obj}, func(ctx context.Context, r *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	return s
}

type memClientEvents struct {
	progress chan *mcp.ProgressNotificationParams
	logs     chan *mcp.LoggingMessageParams
}

func memConnect(t *testing.T) (*mcp.ClientSession, *mcp.ServerSession, *memClientEvents) {
	t.Helper()
	ctx := context.Background()
	ev := &memClientEvents{progress: make(chan *mcp.ProgressNotificationParams, 4), logs: make(chan *mcp.LoggingMessageParams, 4)}
	ct, st := newInProcessTransports()
	ss, err := memServer().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) { ev.progress <- r.Params },
		LoggingMessageHandler:       func(_ context.Context, r *mcp.LoggingMessageRequest) { ev.logs <- r.Params },
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada (" + r.Params.Message + ")"}}, nil
		},
	})
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: DefaultProtocolVersion})
	if err != nil {
		t.Fatal(err)
	}
	return cs, ss, ev
}

func resultText(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	if len(r.Content) != 1 {
		t.Fatalf("content = %#v", r.Content)
	}
	return r.Content[0].(*mcp.TextContent).Text
}

func TestInProcessTransportSession(t *testing.T) {
	cs, ss, ev := memConnect(t)
	defer func() { _ = ss.Wait() }()
	defer cs.Close()
	ctx := context.Background()

	init := cs.InitializeResult()
	if init == nil || init.Instructions != "in process" || init.ServerInfo.Name != "mem" {
		t.Fatalf("initialize result = %#v", init)
	}
	if cs.ID() != "" || ss.ID() != "" {
		t.Errorf("session ids = %q, %q; want empty as over stdio", cs.ID(), ss.ID())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools/list = %v, %v", tools, err)
	}

	r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"a": "<b>"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, r); got != `echo:{"a":"<b>"}` {
		t.Errorf("echo = %q", got)
	}

	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolParams{Name: "chatty"}
	p.SetProgressToken("tok")
	if r, err = cs.CallTool(ctx, p); err != nil || resultText(t, r) != "done" {
		t.Fatalf("chatty = %v, %v", r, err)
	}
	select {
	case pr := <-ev.progress:
		if pr.ProgressToken != "tok" || pr.Progress != 1 || pr.Total != 2 || pr.Message != "half" {
			t.Errorf("progress = %#v", pr)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress notification")
	}
	select {
	case l := <-ev.logs:
		if l.Level != "info" || l.Logger != "mem" || l.Data != "line 1" {
			t.Errorf("log = %#v", l)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no logging notification")
	}

	if r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "ask"}); err != nil {
		t.Fatal(err)
	}
	if got := resultText(t, r); got != "accept:Ada (name?)" {
		t.Errorf("ask = %q", got)
	}

	_, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "fail"})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != 4242 || we.Message != "nope" || string(we.Data) != `{"why":"test"}` {
		t.Errorf("fail error = %#v (%v)", we, err)
	}

	// A cancelled call is cancelled on the server too.
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "block"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("blocked call = %v, want deadline exceeded", err)
	}
	if r, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo"}); err != nil {
		t.Errorf("echo after a cancelled call: %v", err)
	}
}

func TestInProcessTransportClientClose(t *testing.T) {
	cs, ss, _ := memConnect(t)
	if err := cs.Close(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ss.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the server session did not end when the client closed")
	}
}

func TestInProcessTransportServerClose(t *testing.T) {
	cs, ss, _ := memConnect(t)
	if err := ss.Close(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cs.Wait() }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the client session did not end when the server closed")
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo"}); err == nil {
		t.Error("a call after the server closed succeeded")
	}
	_ = ss.Wait()
}

func memConns(t *testing.T) (a, b mcp.Connection) {
	t.Helper()
	ct, st := newInProcessTransports()
	a, err := ct.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if b, err = st.Connect(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := ct.Connect(context.Background()); err == nil {
		t.Error("a transport connected twice")
	}
	return a, b
}

func TestInProcessConnClose(t *testing.T) {
	ctx := context.Background()
	a, b := memConns(t)
	note := &jsonrpc.Request{Method: "notifications/x", Params: json.RawMessage(`{"n":1}`)}
	if err := a.Write(ctx, note); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()
	_ = a.Close() // Close may be called repeatedly
	// What a sent before closing still arrives, then EOF.
	m, err := b.Read(ctx)
	if err != nil || m.(*jsonrpc.Request).Method != "notifications/x" {
		t.Fatalf("read after peer close = %v, %v", m, err)
	}
	if _, err := b.Read(ctx); err != io.EOF {
		t.Errorf("second read = %v, want io.EOF", err)
	}
	if _, err := a.Read(ctx); err != io.EOF {
		t.Errorf("read on the closed end = %v, want io.EOF", err)
	}
	if err := b.Write(ctx, note); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("write to a closed peer = %v", err)
	}
	if err := a.Write(ctx, note); !errors.Is(err, io.ErrClosedPipe) {
		t.Errorf("write on the closed end = %v", err)
	}
}

func TestInProcessConnUnblocksOnClose(t *testing.T) {
	a, b := memConns(t)
	done := make(chan error, 2)
	go func() { _, err := a.Read(context.Background()); done <- err }()
	go func() { _, err := b.Read(context.Background()); done <- err }()
	time.Sleep(10 * time.Millisecond)
	_ = b.Close()
	for range 2 {
		select {
		case err := <-done:
			if err != io.EOF {
				t.Errorf("blocked read = %v, want io.EOF", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("Close did not unblock a Read")
		}
	}
}

func TestInProcessConnContext(t *testing.T) {
	a, b := memConns(t)
	defer a.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if _, err := b.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("read = %v, want context.Canceled", err)
	}
	if err := a.Write(ctx, &jsonrpc.Request{Method: "x"}); !errors.Is(err, context.Canceled) {
		t.Errorf("write with a done context = %v", err)
	}
	// A full buffer makes Write wait, until its context ends.
	wctx, wcancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer wcancel()
	var err error
	for i := 0; i <= memBuffer && err == nil; i++ {
		err = a.Write(wctx, &jsonrpc.Request{Method: "x"})
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("write to a full peer = %v, want deadline exceeded", err)
	}
}

// The peer gets what decoding the wire form would give it, in memory of
// its own.
func TestInProcessCopyMatchesWire(t *testing.T) {
	id, _ := jsonrpc.MakeID(float64(7))
	sid, _ := jsonrpc.MakeID("s-1")
	wrapped := fmt.Errorf("context: %w", &jsonrpc.Error{Code: -32602, Message: "bad"})
	var nilWire *jsonrpc.Error
	msgs := []jsonrpc.Message{
		&jsonrpc.Request{ID: id, Method: "tools/call", Params: json.RawMessage(`{"name":"x","arguments":{"a":[1,2]}}`), Extra: "dropped"},
		&jsonrpc.Request{Method: "notifications/initialized"},
		&jsonrpc.Request{Method: "notifications/initialized", Params: json.RawMessage(`{}`)},
		&jsonrpc.Request{ID: sid, Method: "ping", Params: json.RawMessage(`null`)},
		&jsonrpc.Response{ID: id, Result: json.RawMessage(`{"content":[]}`), Extra: 1},
		&jsonrpc.Response{ID: sid},
		&jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: 4242, Message: "nope", Data: json.RawMessage(`{"why":1}`)}},
		&jsonrpc.Response{ID: id, Error: errors.New("plain")},
		&jsonrpc.Response{ID: id, Error: wrapped},
		&jsonrpc.Response{ID: id, Error: nilWire, Result: json.RawMessage(`1`)},
	}
	for _, m := range msgs {
		data, err := jsonrpc.EncodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jsonrpc.DecodeMessage(data)
		if err != nil {
			t.Fatal(err)
		}
		got, err := copyMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n copy %#v\n wire %#v", data, got, want)
		}
		// No memory shared with the sender.
		switch g := got.(type) {
		case *jsonrpc.Request:
			if len(g.Params) > 0 && &g.Params[0] == &m.(*jsonrpc.Request).Params[0] {
				t.Errorf("%s: params shared", data)
			}
		case *jsonrpc.Response:
			if len(g.Result) > 0 && &g.Result[0] == &m.(*jsonrpc.Response).Result[0] {
				t.Errorf("%s: result shared", data)
			}
			if we, ok := g.Error.(*jsonrpc.Error); ok && we == m.(*jsonrpc.Response).Error {
				t.Errorf("%s: error shared", data)
			}
		}
	}
	if _, err := copyMessage(&jsonrpc.Response{}); err == nil {
		t.Error("a response without id was copied")
	}
}
