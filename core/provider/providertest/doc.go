// Package providertest serves scripted LLM replies over each provider's real
// streaming wire format (Chat Completions SSE, OpenAI Responses events,
// Anthropic Messages events, Gemini streamGenerateContent, Ollama NDJSON)
// from local httptest servers. Provider tests, the agent loop tests and the
// ACP/HTTP e2e tests all replay Scripts through it; nothing here fakes a
// Provider in-process.
package providertest
