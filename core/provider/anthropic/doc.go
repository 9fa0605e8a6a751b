// Package anthropic is the Anthropic Messages API backend: it turns goose
// messages into Anthropic's request JSON exactly as goose does (tool_use and
// tool_result blocks, signed thinking echoed back, redacted thinking, prompt
// caching on the system prompt, the last tool and the last two user
// messages, extended/adaptive thinking budgets) and parses the streamed
// message_start … message_stop events into partial goose messages that share
// the message id, with cache tokens counted into input usage as goose counts
// them. It is the only importer of anthropic-sdk-go, which it uses for the
// HTTP exchange, API errors and SSE framing; events are decoded into small
// local structs (cheaper than the SDK's unions, and "error" events are
// classified by type). The SDK's env/profile credential lookup and its
// retries are never used: retry is provider.WithRetry's job.
package anthropic
