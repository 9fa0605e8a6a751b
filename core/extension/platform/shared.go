package platform

import (
	"context"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
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

type bindingKey struct{}

// bindingOf is the binding a session's server put in its call's context.
func bindingOf(ctx context.Context) *binding {
	b, _ := ctx.Value(bindingKey{}).(*binding)
	return b
}

// sharedServer is a platform server built once per process. Its tool
// definitions do not depend on the session; every session gets the same
// definitions and handlers bound to its own binding (inproc.Server.With),
// which the handlers find in their call's context. Building a server
// is then no longer a cost of each session.
type sharedServer struct {
	name   string
	server func() *inproc.Server
}

// newSharedServer returns the shared server of the named extension,
// built on first use by build, whose handlers come from sh.handle.
func newSharedServer(name string, build func(sh *sharedServer) *inproc.Server) *sharedServer {
	sh := &sharedServer{name: name}
	sh.server = sync.OnceValue(func() *inproc.Server { return build(sh) })
	return sh
}

// platform is the extension for one session: the shared server bound to b.
func (sh *sharedServer) platform(b *binding) extension.Platform {
	return extension.Platform{Server: sh.server().With(func(ctx context.Context) context.Context {
		return context.WithValue(ctx, bindingKey{}, b)
	})}
}

// handle is a tool handler running h with the calling session's binding.
// A call without one (a client of the unbound server) gets an error
// result.
func (sh *sharedServer) handle(h func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error)) handler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b := bindingOf(ctx)
		if b == nil {
			return errorResult("this session is not connected to the %s extension", sh.name), nil
		}
		return h(ctx, b, req)
	}
}
