// Package openai is the Chat Completions backend (OpenAI and every
// OpenAI-compatible service: openrouter, groq, xai, deepseek, mistral,
// litellm, azure_openai, custom providers). It speaks HTTP with net/http
// (transport.go: base URL, auth, headers, query, timeout); the request
// JSON is built here to goose's exact shape (providers/formats/openai.rs)
// and the SSE stream is parsed by our own decoder and tool-call
// accumulator, which tolerates servers that omit tool-call indexes.
//
// ARCHITECTURE.md names openai-go as the transport. It was dropped: the
// package used only its HTTP plumbing, and linking it cost about 4 ms of
// package init and 10 MB of text on every goose-acp start.
package openai
