package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
)

// _meta keys set on every tools/call (the developer server reads them).
const (
	MetaWorkingDir = "agent-working-dir"
	MetaSessionID  = "agent-session-id"
	MetaToolCallID = "goose-tool-call-id"
)

// ErrTimeout is returned when a call exceeds its extension's timeout.
var ErrTimeout = errkind.New(errkind.Timeout, "tool call timed out")

// Call runs the tool a name refers to (see Resolve) with args. callID is
// the tool request id: it tags notifications, the progress token and
// _meta. The returned error is a failure to run the tool at all; a tool
// that ran and failed returns a result with IsError.
func (m *Manager) Call(ctx context.Context, callID, name string, args map[string]any) (conversation.CallToolResult, error) {
	if m.isClosed() {
		return conversation.CallToolResult{}, ErrClosed
	}
	tools := m.Tools(ctx)
	t, ok := Resolve(tools, name)
	if !ok {
		return conversation.CallToolResult{}, notFound(name, tools)
	}
	e, err := m.get(t.Extension)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	if e.session == nil && e.direct == nil {
		return conversation.CallToolResult{}, ErrFrontendTool
	}
	tool := t.Local
	if e.direct != nil {
		return m.callDirect(ctx, e, callID, tool, args)
	}
	timeout := time.Duration(e.cfg.TimeoutSeconds()) * time.Second
	cctx, cancel := context.WithTimeoutCause(ctx, timeout, ErrTimeout)
	defer cancel()
	params := &mcp.CallToolParams{Name: tool, Arguments: argsOrEmpty(args), Meta: mcp.Meta{
		MetaWorkingDir: m.WorkingDir(), MetaSessionID: m.opts.SessionID, MetaToolCallID: callID,
	}}
	e.begin(callID)
	defer e.end(callID)
	token := callID
	if e.conn != nil {
		token = e.conn.begin(e, callID)
		defer e.conn.end(token)
	}
	params.SetProgressToken(token)
	res, err := e.session.CallTool(cctx, params)
	if err != nil {
		if e.conn != nil && (errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, io.EOF)) {
			e.conn.dead.Store(true) // the next Add reconnects
		}
		if ctx.Err() == nil && errors.Is(context.Cause(cctx), ErrTimeout) {
			return conversation.CallToolResult{}, fmt.Errorf("%w after %s", ErrTimeout, timeout)
		}
		return conversation.CallToolResult{}, err
	}
	return ConvertResult(res)
}

// notFound is goose 1.54's answer to a name no tool answers to, with the
// names that would have worked.
func notFound(name string, tools []Tool) error {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return fmt.Errorf("%w: Tool '%s' not found. Available tools: [%s]", ErrToolNotFound, name, strings.Join(names, ", "))
}

func argsOrEmpty(args map[string]any) map[string]any {
	if args == nil {
		return map[string]any{}
	}
	return args
}

// ConvertResult turns an MCP result into goose's stored form.
func ConvertResult(res *mcp.CallToolResult) (conversation.CallToolResult, error) {
	b, err := json.Marshal(res)
	if err != nil {
		return conversation.CallToolResult{}, fmt.Errorf("encoding tool result: %w", err)
	}
	var out conversation.CallToolResult
	if err := json.Unmarshal(b, &out); err != nil {
		return conversation.CallToolResult{}, fmt.Errorf("decoding tool result: %w", err)
	}
	return out, nil
}
