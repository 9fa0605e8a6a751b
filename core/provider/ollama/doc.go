// Package ollama is the Ollama backend on the native /api/chat endpoint, so
// options.num_ctx can be set (from GOOSE_INPUT_LIMIT, else the model's
// context limit) — the OpenAI-compatible /v1 endpoint silently truncates
// long prompts to the server's default window. It speaks /api/chat's NDJSON
// with its own small client instead of github.com/ollama/ollama/api: that
// package's typed tool schema drops JSON-Schema keywords (minimum, oneOf,
// default, …), its client hides Retry-After and aborts the whole stream on
// a tool call whose arguments are not an object, and it reads OLLAMA_* env
// and key files on its own. Like goose, it also parses the XML-style tool
// calls some models (qwen3-coder) write as text, and it separates the inline
// "<think>…</think>" reasoning Ollama returns when "think" is not set.
package ollama
