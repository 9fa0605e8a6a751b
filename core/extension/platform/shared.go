package platform

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
)

// binding is one session's side of a shared platform server: the agent's
// Deps for that session and the Env its manager handed the factory.
type binding struct {
	d   Deps
	env extension.Env
	// wd is the working dir when the extension connected (skills falls
	// back to it).
	wd string
}

// sharedServer is a platform server built once per process. Its tool
// definitions do not depend on the session; every session's manager
// connects a server session of its own to it, and the handlers find that
// session's binding by their request's server session. Building a server
// (AddTool re-serialises every schema) is then no longer a cost of each
// session.
type sharedServer struct {
	name   string
	server func() *mcp.Server

	mu    sync.RWMutex
	bound map[*mcp.ServerSession]*binding
}

// newSharedServer returns the shared server of the named extension,
// built on first use by build, whose handlers come from sh.handle.
func newSharedServer(name string, build func(sh *sharedServer) *mcp.Server) *sharedServer {
	sh := &sharedServer{name: name, bound: map[*mcp.ServerSession]*binding{}}
	sh.server = sync.OnceValue(func() *mcp.Server { return build(sh) })
	return sh
}

// platform is the extension for one session: the shared server, and a Bind
// tying the server session its manager connects to b.
func (sh *sharedServer) platform(b *binding) extension.Platform {
	return extension.Platform{Server: sh.server(), Bind: func(ss *mcp.ServerSession) func() {
		sh.mu.Lock()
		sh.bound[ss] = b
		sh.mu.Unlock()
		return func() {
			sh.mu.Lock()
			delete(sh.bound, ss)
			sh.mu.Unlock()
		}
	}}
}

func (sh *sharedServer) lookup(ss *mcp.ServerSession) *binding {
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return sh.bound[ss]
}

// handle is a tool handler running h with the calling session's binding.
// A server session nobody bound (a client that connected to the server
// itself, not through a manager) gets an error result.
func (sh *sharedServer) handle(h func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error)) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b := sh.lookup(req.Session)
		if b == nil {
			return errorResult("this session is not connected to the %s extension", sh.name), nil
		}
		return h(ctx, b, req)
	}
}

// boundCount reports how many server sessions are bound (for tests).
func (sh *sharedServer) boundCount() int {
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return len(sh.bound)
}
