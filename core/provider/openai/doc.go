// Package openai is the Chat Completions backend (OpenAI and every
// OpenAI-compatible service: openrouter, groq, xai, deepseek, mistral,
// litellm, azure_openai, custom providers). It is the only importer of
// openai-go, which it uses for transport (base URL, auth, headers, error
// bodies); the request JSON is built here to goose's exact shape
// (providers/formats/openai.rs) and the SSE stream is parsed by our own
// decoder and tool-call accumulator, which tolerates servers that omit
// tool-call indexes.
package openai
