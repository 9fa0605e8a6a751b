package acp

import (
	"context"
	"errors"
	"fmt"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/setup"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// ACP error codes beyond JSON-RPC's own.
const (
	CodeAuthRequired     int64 = -32000
	CodeResourceNotFound int64 = -32002
	CodeRequestCancelled int64 = -32800
)

// Sentinels handlers wrap to choose the error code.
var (
	ErrInvalidParams    = errors.New("invalid params")
	ErrMethodNotFound   = errors.New("method not found")
	ErrResourceNotFound = errors.New("resource not found")
	ErrAuthRequired     = errors.New("authentication required")
)

// invalidParams returns an error answered with -32602 and msg as data.
func invalidParams(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidParams, fmt.Sprintf(format, args...))
}

// notFound returns an error answered with -32002 and msg as data.
func notFound(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrResourceNotFound, fmt.Sprintf(format, args...))
}

// toRPCError is the one place errors become JSON-RPC errors. The human
// detail goes in data, as goose does; message is the code's standard text.
func toRPCError(err error) *jsonrpc2.Error {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return rpcErr
	}
	if f, ok := unavailable.FeatureOf(err); ok {
		return unavailableError(f, "")
	}
	code, message := codeFor(err)
	e := &jsonrpc2.Error{Code: code, Message: message}
	e.SetError(detail(err))
	return e
}

func codeFor(err error) (int64, string) {
	switch {
	case errors.Is(err, context.Canceled):
		return CodeRequestCancelled, "Request cancelled"
	case errors.Is(err, ErrInvalidParams), errors.Is(err, agent.ErrSessionBusy), errors.Is(err, agent.ErrThinkingEffort):
		return jsonrpc2.CodeInvalidParams, "Invalid params"
	case errors.Is(err, ErrMethodNotFound):
		return jsonrpc2.CodeMethodNotFound, "Method not found"
	case errors.Is(err, ErrResourceNotFound), errors.Is(err, session.ErrNotFound):
		return CodeResourceNotFound, "Resource not found"
	case errors.Is(err, ErrAuthRequired), setup.IsAuth(err):
		return CodeAuthRequired, "Authentication required"
	}
	return jsonrpc2.CodeInternalError, "Internal error"
}

// detail strips our sentinel prefix so data reads like goose's messages.
func detail(err error) string {
	msg := err.Error()
	for _, s := range []error{ErrInvalidParams, ErrMethodNotFound, ErrResourceNotFound, ErrAuthRequired} {
		p := s.Error() + ": "
		if len(msg) > len(p) && msg[:len(p)] == p {
			return msg[len(p):]
		}
	}
	return msg
}
