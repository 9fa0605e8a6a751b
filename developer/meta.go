package developer

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension/inproc"
)

// Request _meta keys read from tools/call.
const (
	// MetaWorkingDir is goose's per-call working directory.
	MetaWorkingDir = "agent-working-dir"
	// MetaSessionID is goose's session id, exported to shells as AGENT_SESSION_ID.
	MetaSessionID = "agent-session-id"
	// MetaToolCallID is our addition: the agent's tool request id, copied to
	// every Event.ToolCallID (the progress token is the fallback).
	MetaToolCallID = "goose-tool-call-id"
)

// Result _meta keys written on CallToolResult.Meta.
const (
	// MetaKeyEdit carries an EditMeta for every tool call that changed a file.
	MetaKeyEdit = "goose-acp/edit"
	// MetaKeyTerminal carries a TerminalMeta when shell ran in a delegated Terminal.
	MetaKeyTerminal = "goose-acp/terminal"
	// MetaKeyShell carries a ShellMeta for every local or delegated shell run.
	MetaKeyShell = "goose-acp/shell"
)

// Location is a file position an edit touched (1-based line).
type Location struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// EditMeta describes one file change so an editor can show a diff.
// OldText is nil when the file was created.
type EditMeta struct {
	Path      string     `json:"path"`
	OldText   *string    `json:"oldText,omitempty"`
	NewText   string     `json:"newText"`
	Locations []Location `json:"locations"`
}

// TerminalMeta names the delegated terminal a shell call ran in.
type TerminalMeta struct {
	TerminalID string `json:"terminalId"`
}

// ShellMeta is how a shell command ended. ExitCode is nil when the process
// was killed (cancel or timeout).
type ShellMeta struct {
	ExitCode  *int `json:"exitCode"`
	TimedOut  bool `json:"timedOut,omitempty"`
	Cancelled bool `json:"cancelled,omitempty"`
}

// callContext is what a tool call learns from its request _meta.
type callContext struct {
	workingDir string
	sessionID  string
	toolCallID string
	// peer receives the call's logging notifications: the MCP session, or
	// the agent's sink for a direct call (nil in unit tests).
	peer inproc.Peer
	// conn is what the call's kernels live with (python_session): the MCP
	// server session, or the direct server; nil in unit tests.
	conn any
}

// metaString returns a _meta string value goose would accept: non-empty and
// free of NUL bytes; anything else is ignored.
func metaString(m mcp.Meta, key string) string {
	v, ok := m[key].(string)
	if !ok || v == "" || strings.ContainsRune(v, 0) {
		return ""
	}
	return v
}

func newCallContext(ctx context.Context, req *mcp.CallToolRequest, defaultDir string) callContext {
	cc := callContext{workingDir: defaultDir, peer: inproc.PeerOf(ctx, req)}
	if req != nil && req.Session != nil {
		cc.conn = req.Session
	}
	if req == nil || req.Params == nil {
		return cc
	}
	m := req.Params.Meta
	if wd := metaString(m, MetaWorkingDir); wd != "" {
		cc.workingDir = wd
	}
	cc.sessionID = metaString(m, MetaSessionID)
	cc.toolCallID = metaString(m, MetaToolCallID)
	if cc.toolCallID == "" {
		if tok := req.Params.GetProgressToken(); tok != nil {
			cc.toolCallID = fmt.Sprint(tok)
		}
	}
	return cc
}

// reportStart tells the emitter when a call starts running (after any
// approval), so a client sees it go from pending to in progress.
func reportStart(s *service) inproc.ToolMiddleware {
	return func(next mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params != nil {
				if id := metaString(req.Params.Meta, MetaToolCallID); id != "" {
					s.emit(ctx, callContext{toolCallID: id}, Event{Kind: "started"})
				}
			}
			return next(ctx, req)
		}
	}
}

// emit sends ev with the call's id; emitter failures never reach the tool.
func (s *service) emit(ctx context.Context, cc callContext, ev Event) {
	if s.opts.Emitter == nil {
		return
	}
	ev.ToolCallID = cc.toolCallID
	// A failing notification must never break the tool call (nor, from a
	// shell reader goroutine, the whole process).
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("developer emitter failed", "kind", ev.Kind, "panic", r)
		}
	}()
	s.opts.Emitter.Emit(ctx, ev)
}

// emitEdit reports a file change as "locations" and "diff" events.
func (s *service) emitEdit(ctx context.Context, cc callContext, em EditMeta) {
	lines := make([]int, 0, len(em.Locations))
	for _, l := range em.Locations {
		lines = append(lines, l.Line)
	}
	s.emit(ctx, cc, Event{Kind: "locations", Path: em.Path, Lines: lines})
	s.emit(ctx, cc, Event{Kind: "diff", Path: em.Path, OldText: em.OldText, NewText: em.NewText})
}

func withMeta(res *mcp.CallToolResult, key string, v any) *mcp.CallToolResult {
	if res.Meta == nil {
		res.Meta = mcp.Meta{}
	}
	res.Meta[key] = v
	return res
}
