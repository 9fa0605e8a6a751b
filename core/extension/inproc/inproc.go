package inproc

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Peer is the client side of a call, for what a handler sends back while it
// runs. go-sdk's *mcp.ServerSession satisfies it.
type Peer interface {
	Log(ctx context.Context, p *mcp.LoggingMessageParams) error
	NotifyProgress(ctx context.Context, p *mcp.ProgressNotificationParams) error
}

type peerKey struct{}

// WithPeer returns ctx carrying p for the handlers of a direct call.
func WithPeer(ctx context.Context, p Peer) context.Context {
	return context.WithValue(ctx, peerKey{}, p)
}

// PeerOf is the peer of a tool call: the request's server session when it
// came over MCP, else the one a direct caller put in ctx; nil if neither.
func PeerOf(ctx context.Context, req *mcp.CallToolRequest) Peer {
	if req != nil && req.Session != nil {
		return req.Session
	}
	p, _ := ctx.Value(peerKey{}).(Peer)
	return p
}

// ToolMiddleware wraps a tool handler (of every tool of a Server).
type ToolMiddleware func(next mcp.ToolHandler) mcp.ToolHandler

// Server is the tools, prompts and instructions of one in-process server.
// Register everything before the first call; after that it is safe for
// concurrent use.
type Server struct {
	impl         *mcp.Implementation
	instructions string
	// bind, when set, decorates every call's context (a session's binding
	// of a server whose definitions are shared; see With).
	bind func(context.Context) context.Context

	tools    []*mcp.Tool
	handlers map[string]mcp.ToolHandler
	prompts  []*mcp.Prompt
	prompted map[string]mcp.PromptHandler

	mu         sync.RWMutex
	middleware []ToolMiddleware
	closers    []func()
	closed     bool
}

// NewServer returns an empty server; impl and instructions are what its
// MCP twin answers initialize with.
func NewServer(impl *mcp.Implementation, instructions string) *Server {
	return &Server{impl: impl, instructions: instructions, handlers: map[string]mcp.ToolHandler{}, prompted: map[string]mcp.PromptHandler{}}
}

// With returns a server with s's tools, prompts and instructions (shared,
// not copied: register nothing more on s) whose calls run with their
// context decorated by bind, and with middleware and closers of its own.
// A server built once per process is bound to each session this way.
func (s *Server) With(bind func(context.Context) context.Context) *Server {
	return &Server{impl: s.impl, instructions: s.instructions, bind: bind,
		tools: s.tools, handlers: s.handlers, prompts: s.prompts, prompted: s.prompted}
}

// WithInstructions returns s with other instructions (sharing everything
// else, as With does).
func (s *Server) WithInstructions(instructions string) *Server {
	c := s.With(s.bind)
	c.instructions = instructions
	return c
}

// Instructions are the server's instructions.
func (s *Server) Instructions() string { return s.instructions }

// AddTool registers a tool (replacing one of the same name), as
// (*mcp.Server).AddTool does for a raw handler: the handler decodes and
// checks its own arguments.
func (s *Server) AddTool(t *mcp.Tool, h mcp.ToolHandler) {
	if _, ok := s.handlers[t.Name]; ok {
		s.tools = slices.DeleteFunc(s.tools, func(x *mcp.Tool) bool { return x.Name == t.Name })
	}
	i, _ := slices.BinarySearchFunc(s.tools, t.Name, func(x *mcp.Tool, name string) int { return strings.Compare(x.Name, name) })
	s.tools = slices.Insert(s.tools, i, t)
	s.handlers[t.Name] = h
}

// AddPrompt registers a prompt.
func (s *Server) AddPrompt(p *mcp.Prompt, h mcp.PromptHandler) {
	if _, ok := s.prompted[p.Name]; ok {
		s.prompts = slices.DeleteFunc(s.prompts, func(x *mcp.Prompt) bool { return x.Name == p.Name })
	}
	i, _ := slices.BinarySearchFunc(s.prompts, p.Name, func(x *mcp.Prompt, name string) int { return strings.Compare(x.Name, name) })
	s.prompts = slices.Insert(s.prompts, i, p)
	s.prompted[p.Name] = h
}

// Use adds a middleware around every tool call.
func (s *Server) Use(m ToolMiddleware) {
	s.mu.Lock()
	s.middleware = append(s.middleware, m)
	s.mu.Unlock()
}

// OnClose registers f to run when the server is closed.
func (s *Server) OnClose(f func()) {
	s.mu.Lock()
	s.closers = append(s.closers, f)
	s.mu.Unlock()
}

// Tools are the registered tools sorted by name, as go-sdk's tools/list
// returns them. The caller must not modify them.
func (s *Server) Tools() []*mcp.Tool { return s.tools }

// Prompts are the registered prompts sorted by name (prompts/list's order).
func (s *Server) Prompts() []*mcp.Prompt { return s.prompts }

// HasPrompts reports whether any prompt is registered (initialize's
// prompts capability).
func (s *Server) HasPrompts() bool { return len(s.prompts) > 0 }

// CallTool runs a tool's handler on the calling goroutine, with peer (nil
// for none) receiving its notifications. Like go-sdk's server it answers an
// unknown tool with an invalid-params error and a result without content
// with empty content.
func (s *Server) CallTool(ctx context.Context, peer Peer, p *mcp.CallToolParamsRaw) (*mcp.CallToolResult, error) {
	h, ok := s.handlers[p.Name]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown tool %q", p.Name)}
	}
	s.mu.RLock()
	mw := s.middleware
	s.mu.RUnlock()
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	if peer != nil {
		ctx = WithPeer(ctx, peer)
	}
	if s.bind != nil {
		ctx = s.bind(ctx)
	}
	res, err := h(ctx, &mcp.CallToolRequest{Params: p})
	if err == nil && res != nil && res.Content == nil {
		r := *res
		r.Content = []mcp.Content{}
		res = &r
	}
	return res, err
}

// GetPrompt renders a prompt, answering an unknown one as go-sdk does.
func (s *Server) GetPrompt(ctx context.Context, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	h, ok := s.prompted[p.Name]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("unknown prompt %q", p.Name)}
	}
	if s.bind != nil {
		ctx = s.bind(ctx)
	}
	return h(ctx, &mcp.GetPromptRequest{Params: p})
}

// MCP returns a new go-sdk server with s's implementation, instructions,
// tools and prompts, for a client that speaks MCP to it: its tool calls run
// through s's middleware and binding, with the request's server session as
// their peer.
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(s.impl, &mcp.ServerOptions{Instructions: s.instructions})
	for _, t := range s.tools {
		srv.AddTool(t, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s.mu.RLock()
			mw := s.middleware
			s.mu.RUnlock()
			h := s.handlers[t.Name]
			for i := len(mw) - 1; i >= 0; i-- {
				h = mw[i](h)
			}
			if s.bind != nil {
				ctx = s.bind(ctx)
			}
			return h(ctx, req)
		})
	}
	for _, p := range s.prompts {
		srv.AddPrompt(p, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if s.bind != nil {
				ctx = s.bind(ctx)
			}
			return s.prompted[p.Name](ctx, req)
		})
	}
	return srv
}

// Close runs the OnClose functions once, last registered first.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	cl := s.closers
	s.mu.Unlock()
	for i := len(cl) - 1; i >= 0; i-- {
		cl[i]()
	}
}
