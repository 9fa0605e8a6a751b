// Package google is the Gemini API backend: streamGenerateContent over
// SSE with an API key, spoken with net/http and encoding/json (its own
// small wire types in wire.go and event-stream decoder in sse.go; no
// Google SDK). It converts goose messages to Gemini contents as goose does
// (function calls and responses, thought signatures echoed on the latest
// turn), filters tool schemas down to the OpenAPI subset Gemini accepts
// (goose's accepted-keyword list), gives the id-less Gemini function calls
// stable generated ids, streams text, thoughts and function calls as
// partial messages sharing one id, follows long-decode continuation tokens
// across requests, and lists models. Requests are serialised exactly as
// google.golang.org/genai did before it was dropped (testdata holds goldens
// recorded from it).
package google
