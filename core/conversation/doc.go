// Package conversation owns goose's message model: Message, every
// MessageContent variant with goose's exact JSON names and casing, the
// ToolResult wrapper, visibility metadata, the Conversation list with
// goose's streamed-chunk merge (Push), and conversation repair (Fix, goose's
// fix_conversation). It counts no tokens and imports nothing of ours.
//
// JSON: Marshal (or any json.Encoder with SetEscapeHTML(false)) writes the
// bytes goose's serde_json writes, with <, > and & unescaped; plain
// json.Marshal writes the same values HTML-escaped. MarshalContents writes
// a content list (a session row) with Marshal's bytes into one buffer of
// its exact size, quoting bare text items straight into it, so a huge
// prompt is copied once; WriteContents writes the same bytes a piece at
// a time (a store streams a huge row into its own memory) and
// ContentsMatchJSON compares a list with stored bytes without encoding
// it. Decoding reads each
// content item once: a key scan finds the tag and required fields, then
// the item is decoded into its variant.
package conversation
