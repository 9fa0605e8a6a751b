// Package conversation owns goose's message model: Message, every
// MessageContent variant with goose's exact JSON names and casing, the
// ToolResult wrapper, conversation repair (fix_conversation) and token
// estimates. It imports nothing of ours.
package conversation
