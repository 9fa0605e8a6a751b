package agent

import "github.com/goose-acp/goose-acp/core/conversation"

// DeclinedMetaKey marks, in a tool result's _meta, a call that never ran
// because the user or the permission rules refused it. The model reads
// only DeclinedResponse; the mark is what tells every face (and a later
// session/load) that the call did not happen, so it is shown failed
// rather than completed.
const DeclinedMetaKey = "goose-acp/declined"

// declined is the result of a refused call.
func declined() conversation.Result[conversation.CallToolResult] {
	return conversation.Ok(conversation.CallToolResult{
		Content: []conversation.ToolContent{conversation.TextBlock(DeclinedResponse)},
		Meta:    map[string]any{DeclinedMetaKey: true},
	})
}

// Declined reports whether a tool result is a refused call's.
func Declined(res *conversation.CallToolResult) bool {
	if res == nil {
		return false
	}
	v, _ := res.Meta[DeclinedMetaKey].(bool)
	return v
}
