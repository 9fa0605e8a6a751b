package inproc

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type key struct{}

type logPeer struct{ lines []string }

func (p *logPeer) Log(_ context.Context, m *mcp.LoggingMessageParams) error {
	p.lines = append(p.lines, m.Data.(string))
	return nil
}

func (p *logPeer) NotifyProgress(context.Context, *mcp.ProgressNotificationParams) error { return nil }

func testServer() *Server {
	s := NewServer(&mcp.Implementation{Name: "t", Version: "1"}, "do things")
	obj := json.RawMessage(`{"type":"object"}`)
	s.AddTool(&mcp.Tool{Name: "zeta", InputSchema: obj}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if p := PeerOf(ctx, req); p != nil {
			_ = p.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "line"})
		}
		who, _ := ctx.Value(key{}).(string)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "zeta " + who + " " + string(req.Params.Arguments)}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "alpha", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	return s
}

// Tools come sorted by name (go-sdk's tools/list order); a call runs the
// handler with the peer and the binding in its context, through the
// middleware (first added outermost); a result without content gets empty
// content; an unknown tool is go-sdk's invalid-params error.
func TestServerCallsDirectly(t *testing.T) {
	ctx := context.Background()
	shared := testServer()
	if got := shared.Tools(); len(got) != 2 || got[0].Name != "alpha" || got[1].Name != "zeta" {
		t.Fatalf("tools %v", got)
	}
	s := shared.With(func(ctx context.Context) context.Context { return context.WithValue(ctx, key{}, "s1") })
	var order []string
	for _, name := range []string{"outer", "inner"} {
		s.Use(func(next mcp.ToolHandler) mcp.ToolHandler {
			return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				order = append(order, name)
				return next(ctx, req)
			}
		})
	}
	peer := &logPeer{}
	res, err := s.CallTool(ctx, peer, &mcp.CallToolParamsRaw{Name: "zeta", Arguments: json.RawMessage(`{"a":1}`)})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != `zeta s1 {"a":1}` {
		t.Fatalf("zeta = %+v, %v", res, err)
	}
	if strings.Join(order, ",") != "outer,inner" || strings.Join(peer.lines, ",") != "line" {
		t.Errorf("middleware %v, peer %v", order, peer.lines)
	}
	if res, err := s.CallTool(ctx, nil, &mcp.CallToolParamsRaw{Name: "alpha"}); err != nil || res.Content == nil || len(res.Content) != 0 {
		t.Errorf("alpha = %+v, %v", res, err)
	}
	if _, err := s.CallTool(ctx, nil, &mcp.CallToolParamsRaw{Name: "nope"}); err == nil || err.Error() != `unknown tool "nope"` {
		t.Errorf("unknown tool: %v", err)
	}
	// The shared server has no binding and no middleware of s's.
	order = nil
	res, _ = shared.CallTool(ctx, nil, &mcp.CallToolParamsRaw{Name: "zeta"})
	if res.Content[0].(*mcp.TextContent).Text != "zeta  " || order != nil {
		t.Errorf("shared zeta = %+v, middleware %v", res, order)
	}
}

// Close runs the closers once, last registered first.
func TestServerCloseOnce(t *testing.T) {
	s := testServer()
	var got []string
	s.OnClose(func() { got = append(got, "first") })
	s.OnClose(func() { got = append(got, "second") })
	s.Close()
	s.Close()
	if strings.Join(got, ",") != "second,first" {
		t.Errorf("closers ran %v", got)
	}
}

// The MCP twin answers a go-sdk client with the same tools and runs its
// calls through the binding and middleware, the request's session as
// peer.
func TestServerMCPTwin(t *testing.T) {
	ctx := context.Background()
	s := testServer().With(func(ctx context.Context) context.Context { return context.WithValue(ctx, key{}, "twin") })
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().Instructions; got != "do things" {
		t.Errorf("instructions %q", got)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil || len(lt.Tools) != 2 || lt.Tools[0].Name != "alpha" {
		t.Fatalf("tools/list = %+v, %v", lt, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "zeta", Arguments: map[string]any{"b": 2}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != `zeta twin {"b":2}` {
		t.Fatalf("zeta over MCP = %+v, %v", res, err)
	}
}
