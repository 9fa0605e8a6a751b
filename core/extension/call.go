package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// Call runs the prefixed tool name with args. callID is the tool request
// id: it tags notifications, the progress token and _meta. The returned
// error is a failure to run the tool at all; a tool that ran and failed
// returns a result with IsError.
func (m *Manager) Call(ctx context.Context, callID, name string, args map[string]any) (conversation.CallToolResult, error) {
	key, tool, err := splitToolName(name, m.keys())
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	e, err := m.get(key)
	if err != nil {
		return conversation.CallToolResult{}, err
	}
	if e.session == nil {
		return conversation.CallToolResult{}, ErrFrontendTool
	}
	if !e.allowed(tool) {
		return conversation.CallToolResult{}, fmt.Errorf("%w: Tool '%s' is not available for extension '%s'", ErrToolNotAvailable, tool, key)
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
