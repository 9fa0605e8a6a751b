package jsonrpc

import (
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/jsonrpc/wire"
)

// wire declares the two codes it answers unreadable messages with itself
// (it must not import jsonrpc2); they are jsonrpc2's.
func TestWireCodesAreJSONRPC2s(t *testing.T) {
	if wire.CodeParseError != jsonrpc2.CodeParseError || wire.CodeInvalidRequest != jsonrpc2.CodeInvalidRequest {
		t.Fatalf("wire codes %d/%d, jsonrpc2 %d/%d", wire.CodeParseError, wire.CodeInvalidRequest,
			jsonrpc2.CodeParseError, jsonrpc2.CodeInvalidRequest)
	}
}
