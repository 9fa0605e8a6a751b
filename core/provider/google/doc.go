// Package google is the Gemini API backend (google.golang.org/genai with
// an API key, streamGenerateContent over SSE). It converts goose messages
// to Gemini contents as goose does (function calls and responses, thought
// signatures echoed on the latest turn), filters tool schemas down to the
// OpenAPI subset Gemini accepts (goose's accepted-keyword list), gives the
// id-less Gemini function calls stable generated ids, and streams text,
// thoughts and function calls as partial messages sharing one id. It is the
// only importer of genai.
package google
