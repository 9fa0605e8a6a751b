package acp

import (
	"github.com/goose-acp/goose-acp/acp/jsonrpc"
)

// RequestHandler answers one request; params is nil when absent. Handlers
// are registered in the method table (Server.requestTable) and decode
// their params once (typed).
type RequestHandler = jsonrpc.RequestHandler

// NotificationHandler handles one notification, in arrival order.
type NotificationHandler = jsonrpc.NotificationHandler

// followUp is a handler result whose then runs after the reply is written
// (ACP wants some notifications after a response, e.g. the available
// commands after session/new).
type followUp struct {
	result any
	then   func()
}

var _ jsonrpc.FollowUp = followUp{}

// Response implements jsonrpc.FollowUp.
func (f followUp) Response() (any, func()) { return f.result, f.then }
