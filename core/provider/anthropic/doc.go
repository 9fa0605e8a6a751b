// Package anthropic is the Anthropic Messages API backend: it turns goose
// messages into Anthropic's request JSON exactly as goose does (tool_use and
// tool_result blocks, signed thinking echoed back, redacted thinking, prompt
// caching on the system prompt, the last tool and the last two user
// messages, extended/adaptive thinking budgets) and parses the streamed
// message_start … message_stop events into partial goose messages that share
// the message id, with cache tokens counted into input usage as goose counts
// them. It speaks HTTP with net/http alone (transport.go: endpoint URLs under
// ANTHROPIC_HOST, the x-api-key, anthropic-version and anthropic-beta
// headers, non-2xx answers classified by provider.ClassifyHTTP with the key
// redacted) and frames the event stream itself (sse.go); events are decoded
// into small local structs, and "error" events are classified by type. It
// never retries (provider.WithRetry's job) and reads no credentials of its
// own: the key comes from Options.
package anthropic
