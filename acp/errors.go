package acp

import (
	"errors"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// ACP error codes beyond JSON-RPC's own.
const (
	CodeAuthRequired     int64 = -32000
	CodeResourceNotFound int64 = -32002
	CodeRequestCancelled int64 = -32800
)

// rpcCode is a JSON-RPC error code with its standard message.
type rpcCode struct {
	code    int64
	message string
}

var (
	codeInvalidParams = rpcCode{jsonrpc2.CodeInvalidParams, "Invalid params"}
	codeNotFound      = rpcCode{CodeResourceNotFound, "Resource not found"}
	codeInternal      = rpcCode{jsonrpc2.CodeInternalError, "Internal error"}
)

// codes is the one table from core's error kinds to ACP's codes. Refusals
// of what the client asked (bad input, a conflicting or busy state) are
// invalid params, as goose answers them; a session this connection or the
// agent has not loaded is not found (the client loads it first); a
// missing or rejected provider key is auth required, so editors show
// their sign-in flow. Every other kind is an internal error whose data
// says what failed.
var codes = map[errkind.Kind]rpcCode{
	errkind.Invalid:      codeInvalidParams,
	errkind.Conflict:     codeInvalidParams,
	errkind.Busy:         codeInvalidParams,
	errkind.NotFound:     codeNotFound,
	errkind.NotReady:     codeNotFound,
	errkind.AuthRequired: {CodeAuthRequired, "Authentication required"},
	errkind.Cancelled:    {CodeRequestCancelled, "Request cancelled"},
}

// toRPCError is the one place errors become JSON-RPC errors: a
// *jsonrpc2.Error passes as it is, a feature goose-acp does not ship is
// CodeUnavailable, every other error is its kind's code (codes) with the
// human detail (errkind.Detail) in data, as goose does; a sign-in error
// repeats the detail in its message.
func toRPCError(err error) *jsonrpc2.Error {
	var rpcErr *jsonrpc2.Error
	if errors.As(err, &rpcErr) {
		return rpcErr
	}
	if f, ok := unavailable.FeatureOf(err); ok {
		return unavailableError(f, "")
	}
	c, ok := codes[errkind.Of(err)]
	if !ok {
		c = codeInternal
	}
	detail := errkind.Detail(err)
	e := &jsonrpc2.Error{Code: c.code, Message: c.message}
	if c.code == CodeAuthRequired && detail != "" {
		// Editors such as Zed show only the message of a sign-in error:
		// it carries the one actionable line (`goose-acp configure`, or
		// the key to set) as well as data does.
		e.Message += ": " + detail
	}
	e.SetError(detail)
	return e
}

// invalidParams is the face's own refusal of a request's params: -32602
// with msg as data.
func invalidParams(format string, args ...any) error {
	return errkind.Errorf(errkind.Invalid, format, args...)
}

// notFound is the face's own "no such resource": -32002 with msg as data.
func notFound(format string, args ...any) error {
	return errkind.Errorf(errkind.NotFound, format, args...)
}

// badName answers a NotFound from a lookup by a name the client sent (a
// template, a recipe, a config extension, a tool) as invalid params with
// its detail: goose answers a bad name in params with -32602, and keeps
// -32002 for resources (sessions, schedules).
func badName(err error) error {
	if errkind.Is(err, errkind.NotFound) {
		return errkind.Errorf(errkind.Invalid, "%s", errkind.Detail(err))
	}
	return err
}
