package platform

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// declare is a platform tool's _meta: its kind, declared with the tool
// (core/toolinfo) rather than guessed from its name by the faces.
func declare(kind string) mcp.Meta {
	return mcp.Meta{toolinfo.MetaKey: toolinfo.Info{Kind: kind}}
}
