// Package conversation owns goose's message model: Message, every
// MessageContent variant with goose's exact JSON names and casing, the
// ToolResult wrapper, visibility metadata, the Conversation list with
// goose's streamed-chunk merge (Push), and conversation repair (Fix, goose's
// fix_conversation). It counts no tokens and imports nothing of ours.
//
// JSON: Marshal (or any json.Encoder with SetEscapeHTML(false)) writes the
// bytes goose's serde_json writes, with <, > and & unescaped; plain
// json.Marshal writes the same values HTML-escaped. Decoding reads each
// content item once: a key scan finds the tag and required fields, then
// the item is decoded into its variant.
package conversation
