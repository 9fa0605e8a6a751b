// Package provider owns the LLM Provider interface and what is common to
// every backend: request and chunk types, typed errors the agent loop acts
// on (context length → compaction; a rejected key is errkind.AuthRequired),
// retry with backoff (each retry reported to the turn, which makes it an
// agent.ProviderRetryEvent), usage accounting and token counts (o200k_base).
// Each backend (anthropic, google, ollama, openai and the OpenAI-compatible
// ones) speaks its wire format with net/http and the one SSE reader in
// subpackage sse — there are no provider SDKs; registry builds providers
// from config, catalog knows the models.
package provider
