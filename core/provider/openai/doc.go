// Package openai is the Chat Completions backend (OpenAI and every
// OpenAI-compatible service: openrouter, groq, xai, deepseek, mistral,
// litellm, azure_openai, custom providers). It speaks HTTP with net/http
// (transport.go: base URL, auth, headers, query, timeout); the request
// JSON is built here to goose's exact shape (providers/formats/openai.rs)
// and the SSE stream is parsed by our own decoder and tool-call
// accumulator, which tolerates servers that omit tool-call indexes.
//
// Requests goose sends to OpenAI's Responses API instead (gpt-5 codex
// models, gpt-5.2-pro, gpt-5.4, or any model under a "…/responses" base
// path; see UsesResponses) go there over the same transport: responses*.go
// build goose's create_responses_request body and read the Responses event
// stream as goose's responses_api_to_streaming_message does.
//
// ARCHITECTURE.md names openai-go as the transport. It was dropped: the
// package used only its HTTP plumbing, and linking it cost about 4 ms of
// package init and 10 MB of text on every goose-acp start.
package openai
