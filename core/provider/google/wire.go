package google

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
)

// The Gemini API's JSON, only the fields this package sends or reads.
// Request fields are declared in JSON-name order: genai sent every body as
// a sorted map, and keeping that order keeps the requests byte-identical.

// generateRequest is the body of streamGenerateContent.
type generateRequest struct {
	Contents []content `json:"contents,omitempty"`
	// ContinuationToken resumes a long-decode reply (see continuation.go).
	ContinuationToken []byte `json:"continuationToken,omitempty"`
	// GenerationConfig is always sent, as {} when nothing is set.
	GenerationConfig  generationConfig `json:"generationConfig"`
	SystemInstruction *content         `json:"systemInstruction,omitempty"`
	Tools             []tool           `json:"tools,omitempty"`
}

type content struct {
	Parts []part `json:"parts,omitempty"`
	Role  string `json:"role,omitempty"`
}

// part is one piece of a content; byte slices travel as standard base64.
type part struct {
	FunctionCall     *functionCall     `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	Text             string            `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature signature         `json:"thoughtSignature,omitempty"`
}

type functionCall struct {
	Args map[string]any `json:"args,omitempty"`
	ID   string         `json:"id,omitempty"`
	Name string         `json:"name,omitempty"`
}

type functionResponse struct {
	Name     string         `json:"name,omitempty"`
	Response map[string]any `json:"response,omitempty"`
}

type blob struct {
	Data     []byte `json:"data,omitempty"`
	MIMEType string `json:"mimeType,omitempty"`
}

type generationConfig struct {
	MaxOutputTokens int32 `json:"maxOutputTokens,omitempty"`
	// Temperature is a float32, as genai sent it (0.3, not 0.30000001).
	Temperature    *float32        `json:"temperature,omitempty"`
	ThinkingConfig *thinkingConfig `json:"thinkingConfig,omitempty"`
}

type thinkingConfig struct {
	IncludeThoughts bool `json:"includeThoughts,omitempty"`
}

type tool struct {
	FunctionDeclarations []functionDeclaration `json:"functionDeclarations,omitempty"`
}

// functionDeclaration declares a tool. Parameters, when set, is the
// map[string]any schema built by toSchema (Gemini's OpenAPI subset); it is
// an interface so that an empty schema is still sent, as {}.
type functionDeclaration struct {
	Description string `json:"description,omitempty"`
	Name        string `json:"name,omitempty"`
	Parameters  any    `json:"parameters,omitempty"`
}

// generateResponse is one streamed chunk. Error is set instead when the
// server reports a failure inside the stream.
type generateResponse struct {
	Candidates     []*candidate    `json:"candidates"`
	PromptFeedback json.RawMessage `json:"promptFeedback"`
	UsageMetadata  *usageMetadata  `json:"usageMetadata"`
	ModelVersion   string          `json:"modelVersion"`
	Error          json.RawMessage `json:"error"`
}

// hasPromptFeedback reports a promptFeedback object (a blocked prompt).
func (r *generateResponse) hasPromptFeedback() bool {
	return len(r.PromptFeedback) > 0 && string(r.PromptFeedback) != "null"
}

type candidate struct {
	Content           *content `json:"content"`
	FinishReason      string   `json:"finishReason"`
	ContinuationToken []byte   `json:"continuationToken"`
}

type usageMetadata struct {
	PromptTokenCount     int32 `json:"promptTokenCount"`
	CandidatesTokenCount int32 `json:"candidatesTokenCount"`
	TotalTokenCount      int32 `json:"totalTokenCount"`
}

// plus sums two hops' usage (each hop is a request billed on its own).
func (u *usageMetadata) plus(v *usageMetadata) *usageMetadata {
	return &usageMetadata{
		PromptTokenCount:     u.PromptTokenCount + v.PromptTokenCount,
		CandidatesTokenCount: u.CandidatesTokenCount + v.CandidatesTokenCount,
		TotalTokenCount:      u.TotalTokenCount + v.TotalTokenCount,
	}
}

// apiError is Gemini's error object, from a failed answer's body or an
// error event in the stream. Code is 0 when absent or not a number.
type apiError struct {
	Code    int
	Message string
	Status  string
	Details []map[string]any
}

func (e *apiError) Error() string {
	return fmt.Sprintf("Error %d, Message: %s, Status: %s", e.Code, e.Message, e.Status)
}

// UnmarshalJSON reads the object leniently: a field of an unexpected
// type is left zero rather than losing the whole error.
func (e *apiError) UnmarshalJSON(b []byte) error {
	var v map[string]json.RawMessage
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	var code float64
	_ = json.Unmarshal(v["code"], &code)
	e.Code = int(code)
	_ = json.Unmarshal(v["message"], &e.Message)
	_ = json.Unmarshal(v["status"], &e.Status)
	_ = json.Unmarshal(v["details"], &e.Details)
	return nil
}

// listModelsResponse is one page of models.list.
type listModelsResponse struct {
	Models        []modelInfo `json:"models"`
	NextPageToken string      `json:"nextPageToken"`
}

type modelInfo struct {
	Name string `json:"name"`
}

// signature is a thought signature: opaque bytes, standard base64 on the
// wire, kept here in canonical base64. One that does not decode is dropped
// instead of failing its whole chunk (goose treats signatures as opaque
// strings; Gemini would reject an undecodable one if we echoed it back).
type signature string

func (s *signature) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*s = canonicalSignature(v)
	return nil
}

// canonicalSignature re-encodes sig, or is empty if it is not base64.
func canonicalSignature(sig string) signature {
	raw, err := base64.StdEncoding.DecodeString(sig)
	if err != nil || len(raw) == 0 {
		return ""
	}
	return signature(base64.StdEncoding.EncodeToString(raw))
}
