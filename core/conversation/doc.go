// Package conversation owns goose's message model: Message, every
// MessageContent variant with goose's exact JSON names and casing, the
// ToolResult wrapper, visibility metadata, the Conversation list with
// goose's streamed-chunk merge (Push), and conversation repair (Fix, goose's
// fix_conversation). It counts no tokens and imports nothing of ours.
package conversation
