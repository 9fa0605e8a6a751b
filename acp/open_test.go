package acp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/session/memory"
)

// lineClient drives Serve over pipes with raw NDJSON.
type lineClient struct {
	in   *io.PipeWriter
	out  *bufio.Scanner
	done chan error
	// skipped keeps the lines callRaw read past while waiting for its
	// answer (notifications that arrived in between), for tests that
	// look for a frame whose timing they do not control.
	skipped []string
}

func serveLines(t *testing.T, opts Options) *lineClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &lineClient{in: inW, out: bufio.NewScanner(outR), done: make(chan error, 1)}
	go func() {
		c.done <- Serve(context.Background(), inR, outW, opts)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		go io.Copy(io.Discard, outR)
		if err := <-c.done; err != nil {
			t.Error(err)
		}
	})
	return c
}

func (c *lineClient) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

func (c *lineClient) read(t *testing.T) string {
	t.Helper()
	if !c.out.Scan() {
		t.Fatalf("agent output ended: %v", c.out.Err())
	}
	return c.out.Text()
}

// initialize is answered while the runtime is still opening; session
// methods wait for it and then work.
func TestInitializeDoesNotWaitForOpen(t *testing.T) {
	release := make(chan struct{})
	c := serveLines(t, Options{Version: "9.9.9", Open: func(ctx context.Context) (Options, error) {
		<-release
		return Options{Store: memory.New(time.Now)}, nil
	}})
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	var init struct {
		ID     int `json:"id"`
		Result struct {
			AgentInfo struct{ Version string } `json:"agentInfo"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(c.read(t)), &init); err != nil || init.ID != 1 || init.Result.AgentInfo.Version != "9.9.9" {
		t.Fatalf("initialize answer %+v, %v", init, err)
	}
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	close(release)
	if got := c.read(t); !jsonEqual(got, `{"jsonrpc":"2.0","id":2,"result":{"sessions":[]}}`) {
		t.Fatalf("session/list after open = %s", got)
	}
}

// A runtime that cannot open (a locked or unreadable sessions.db) leaves
// the handshake working and answers session methods with the reason.
func TestOpenFailureIsEachRequestsError(t *testing.T) {
	c := serveLines(t, Options{Open: func(ctx context.Context) (Options, error) {
		return Options{}, errors.New("open sessions.db: permission denied")
	}})
	c.send(t, `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/tmp","mcpServers":[]}}`)
	want := `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error","data":"goose-acp could not start: open sessions.db: permission denied"}}`
	if got := c.read(t); !jsonEqual(got, want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}`)
	if got := c.read(t); !json.Valid([]byte(got)) || jsonEqual(got, want) {
		t.Fatalf("initialize after a failed open = %s", got)
	}
}

// An initialize the caller answered already (cmd/goose-acp answers an
// editor's first frame while the binary starts) is taken as this
// connection's: Open starts at once, before any request, and the
// editor's next request is served without a second initialize.
func TestInitializedByTheCallerStartsOpen(t *testing.T) {
	opened := make(chan struct{})
	req := InitializeRequest{ProtocolVersion: 1, ClientInfo: &Implementation{Name: "zed", Version: "0.230.0"}}
	c := serveLines(t, Options{Initialized: &req, Open: func(ctx context.Context) (Options, error) {
		close(opened)
		return Options{Store: memory.New(time.Now)}, nil
	}})
	select {
	case <-opened:
	case <-time.After(10 * time.Second):
		t.Fatal("Open did not start for an initialize answered by the caller")
	}
	c.send(t, `{"jsonrpc":"2.0","id":2,"method":"session/list","params":{}}`)
	if got := c.read(t); !jsonEqual(got, `{"jsonrpc":"2.0","id":2,"result":{"sessions":[]}}`) {
		t.Fatalf("session/list = %s", got)
	}
}
