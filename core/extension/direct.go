package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// Server is what a builtin factory returns: an in-process server the
// manager calls directly (Direct), or a go-sdk server it connects to over
// the channel transport (MCP), for a server that needs a real MCP session
// (one that elicits or samples from its handlers).
type Server struct {
	direct *inproc.Server
	mcp    *mcp.Server
}

// Direct is an in-process server called directly.
func Direct(s *inproc.Server) Server { return Server{direct: s} }

// MCP is a go-sdk server reached over an in-memory MCP session.
func MCP(s *mcp.Server) Server { return Server{mcp: s} }

// connectDirect makes e an extension served by s: its instructions and
// prompts are read from s, its tools listed and called without MCP.
func (e *extension) connectDirect(s *inproc.Server) {
	e.direct = s
	if e.instructions == "" {
		e.instructions = s.Instructions()
	}
	e.hasPrompts = s.HasPrompts()
	e.closers = append(e.closers, s.Close)
}

// directTools are s's tools as the agent sees them under key: the same
// definitions a tools/list over MCP gives (input schemas re-encoded the
// way the wire decodes them, so keys come out sorted), converted once per
// process per distinct tool.
func directTools(cfg config.ExtensionConfig, key string, s *inproc.Server) []Tool {
	defs := s.Tools()
	out := make([]Tool, 0, len(defs))
	for _, t := range defs {
		c := convertedTool(t)
		c.Name = publicName(cfg, key, t.Name)
		c.Extension = key
		c.Local = t.Name
		if !c.declared {
			c.Info = toolInfo(c.Name, nil)
		}
		out = append(out, c.Tool)
	}
	return out
}

// converted is a tool definition converted for the agent, without its
// extension key; declared says whether Info came from the tool's _meta.
type converted struct {
	Tool
	declared bool
}

// conversions caches convertedTool by what a definition says, so the
// sessions' copies of the same tool (a developer server per session)
// share one conversion per process.
var conversions sync.Map // convKey → converted

type convKey struct {
	name, description, schema, meta, annotations string
}

func convertedTool(t *mcp.Tool) converted {
	k := convKey{t.Name, t.Description, string(wireJSON(t.InputSchema)), string(wireJSON(t.Meta)), string(wireJSON(t.Annotations))}
	if c, ok := conversions.Load(k); ok {
		return c.(converted)
	}
	// What a client makes of tools/list: the schema decoded as a plain
	// JSON value (re-encoded with sorted keys), the _meta declaration.
	var schema any
	if err := json.Unmarshal([]byte(k.schema), &schema); err != nil {
		schema = nil
	}
	tool := convertTool(config.ExtensionConfig{}, "", &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: schema, Annotations: t.Annotations, Meta: t.Meta})
	_, declared := toolinfo.FromMeta(t.Meta)
	c := converted{Tool: tool, declared: declared}
	conversions.Store(k, c)
	return c
}

// wireJSON is v as JSON (nil for nil or what does not encode).
func wireJSON(v any) []byte {
	if v == nil {
		return nil
	}
	if raw, ok := v.(json.RawMessage); ok {
		return raw
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	return b
}

// callDirect runs a tool of a directly called extension as an MCP call
// would: the same _meta, progress token and timeout; the call's log and
// progress notifications reach Hooks.Notify; a handler error comes back
// as go-sdk's client reports a JSON-RPC error; a cancelled or timed-out
// call returns at once while the handler winds down on its own.
func (m *Manager) callDirect(ctx context.Context, e *extension, callID, tool string, args map[string]any) (conversation.CallToolResult, error) {
	raw, err := json.Marshal(argsOrEmpty(args))
	if err != nil {
		return conversation.CallToolResult{}, fmt.Errorf("encoding arguments: %w", err)
	}
	timeout := time.Duration(e.cfg.TimeoutSeconds()) * time.Second
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()
	params := &mcp.CallToolParamsRaw{Name: tool, Arguments: raw, Meta: mcp.Meta{
		MetaWorkingDir: m.WorkingDir(), MetaSessionID: m.opts.SessionID, MetaToolCallID: callID,
		"progressToken": callID,
	}}
	e.begin(callID)
	defer e.end(callID)
	type outcome struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := e.direct.CallTool(cctx, directPeer{m: m, e: e}, params)
		done <- outcome{res, err}
	}()
	var out outcome
	select {
	case out = <-done:
	case <-cctx.Done():
	}
	if cctx.Err() != nil {
		if ctx.Err() == nil && errors.Is(context.Cause(cctx), ErrTimeout) {
			return conversation.CallToolResult{}, fmt.Errorf("%w after %s", ErrTimeout, timeout)
		}
		return conversation.CallToolResult{}, cctx.Err()
	}
	if out.err != nil {
		return conversation.CallToolResult{}, fmt.Errorf("calling %q: %w", "tools/call", wireError(out.err))
	}
	if out.res == nil {
		out.res = &mcp.CallToolResult{Content: []mcp.Content{}}
	}
	return ConvertResult(out.res)
}

// directPeer takes a direct call's notifications to the manager's hooks,
// as the MCP client's handlers do for a connected server.
type directPeer struct {
	m *Manager
	e *extension
}

// Log forwards log messages at LogLevel or above (an MCP server sends no
// others once we set that level).
func (p directPeer) Log(_ context.Context, params *mcp.LoggingMessageParams) error {
	if logSeverity(params.Level) < logSeverity(LogLevel) {
		return nil
	}
	p.m.forward(p.e, "", "notifications/message", params)
	return nil
}

// NotifyProgress forwards progress to the call named by its token.
func (p directPeer) NotifyProgress(_ context.Context, params *mcp.ProgressNotificationParams) error {
	id, _ := params.ProgressToken.(string)
	p.m.forward(p.e, id, "notifications/progress", params)
	return nil
}

// logSeverity orders MCP logging levels (RFC 5424's, least severe first).
func logSeverity(l mcp.LoggingLevel) int {
	switch l {
	case "debug":
		return 0
	case "info":
		return 1
	case "notice":
		return 2
	case "warning":
		return 3
	case "error":
		return 4
	case "critical":
		return 5
	case "alert":
		return 6
	case "emergency":
		return 7
	}
	return -1
}
