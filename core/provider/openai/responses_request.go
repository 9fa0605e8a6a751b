package openai

import (
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// The Responses API request, built to goose's create_responses_request
// (providers/formats/openai_responses.rs): the system prompt is the first
// input item, history becomes message, function_call and
// function_call_output items, and nothing is stored server-side (goose
// replays the history itself). Fields are in goose's order.
type responsesRequest struct {
	Model           string              `json:"model"`
	Input           []any               `json:"input"`
	Store           bool                `json:"store"`
	Reasoning       *responsesReasoning `json:"reasoning,omitempty"`
	Tools           []responsesTool     `json:"tools,omitempty"`
	Temperature     *float64            `json:"temperature,omitempty"`
	MaxOutputTokens int                 `json:"max_output_tokens"`
	Stream          bool                `json:"stream"`
}

type responsesReasoning struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary"`
}

type responsesTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// responsesMessage is a role message item; Content holds input_text or
// output_text parts.
type responsesMessage struct {
	Role    string          `json:"role"`
	Content []responsesPart `json:"content"`
}

// responsesPart is one content part: text, or an input_image data URL.
type responsesPart struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
}

type responsesFunctionCall struct {
	Type      string `json:"type"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// responsesFunctionOutput answers a call; Output is a string, or a list of
// parts when the tool result holds images.
type responsesFunctionOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"`
}

// Texts goose puts in place of tool-result blocks the Responses API does
// not take as text.
const (
	audioPlaceholder        = "[Audio content]"
	resourceLinkPlaceholder = "[Resource link]"
)

// buildResponsesRequest renders goose's create_responses_request. A model
// name ending in an effort suffix ("gpt-5-codex-high") sends that
// effort with summary "auto" and no temperature.
func buildResponsesRequest(cfg model.Config, req provider.Request, streaming bool) *responsesRequest {
	var input []any
	if req.System != "" {
		input = append(input, responsesMessage{Role: "system", Content: []responsesPart{{Type: "input_text", Text: req.System}}})
	}
	input = appendResponsesItems(input, req.Messages)
	name, effort := ResponsesReasoningEffort(cfg.ModelName)
	w := &responsesRequest{Model: name, Input: input, Stream: streaming}
	if input == nil {
		w.Input = []any{}
	}
	if effort != "" {
		w.Reasoning = &responsesReasoning{Effort: effort, Summary: "auto"}
	} else {
		w.Temperature = cfg.Temperature
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, responsesTool{Type: "function", Name: t.Name, Description: t.Description,
			Parameters: patchSchema(t.InputSchema)})
	}
	w.MaxOutputTokens = DefaultMaxTokens
	if cfg.MaxTokens != nil {
		w.MaxOutputTokens = *cfg.MaxTokens
	}
	return w
}

// appendResponsesItems renders goose's add_message_items: each message's
// texts are grouped into one role item, broken wherever a tool call or
// tool result sits between them so the history stays in order. Other
// content (images in messages, thinking, frontend tool requests, failed
// tool requests) is not sent.
func appendResponsesItems(input []any, msgs []conversation.Message) []any {
	for _, m := range msgs {
		role, textType := "user", "input_text"
		if m.Role == conversation.RoleAssistant {
			role, textType = "assistant", "output_text"
		}
		var texts []responsesPart
		flush := func() {
			if len(texts) > 0 {
				input = append(input, responsesMessage{Role: role, Content: texts})
				texts = nil
			}
		}
		for _, c := range m.Content {
			switch {
			case c.Text != nil && c.Text.Text != "":
				texts = append(texts, responsesPart{Type: textType, Text: c.Text.Text})
			case c.ToolRequest != nil && m.Role == conversation.RoleAssistant:
				flush()
				if call := c.ToolRequest.ToolCall.Value; call != nil {
					input = append(input, responsesFunctionCall{Type: "function_call", CallID: c.ToolRequest.ID,
						Name: call.Name, Arguments: argumentsJSON(call.Arguments)})
				}
			case c.ToolResponse != nil:
				flush()
				input = append(input, functionOutput(c.ToolResponse))
			}
		}
		flush()
	}
	return input
}

func argumentsJSON(args map[string]any) string {
	if args == nil {
		return "{}"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "{}"
	}
	return string(b)
}

// functionOutput renders a tool result: its texts joined by newlines, or,
// when it holds an image, a list of input_text and input_image parts.
func functionOutput(tr *conversation.ToolResponse) responsesFunctionOutput {
	out := responsesFunctionOutput{Type: "function_call_output", CallID: tr.ID}
	if tr.ToolResult.Value == nil {
		out.Output = "Error: " + tr.ToolResult.Error
		return out
	}
	blocks := tr.ToolResult.Value.Content
	hasImage := false
	for _, b := range blocks {
		hasImage = hasImage || b.Type == "image"
	}
	if !hasImage {
		texts := make([]string, 0, len(blocks))
		for _, b := range blocks {
			texts = append(texts, blockText(b))
		}
		out.Output = strings.Join(texts, "\n")
		return out
	}
	parts := make([]responsesPart, 0, len(blocks))
	for _, b := range blocks {
		if b.Type == "image" {
			parts = append(parts, responsesPart{Type: "input_image", ImageURL: "data:" + b.MimeType + ";base64," + b.Data})
			continue
		}
		parts = append(parts, responsesPart{Type: "input_text", Text: blockText(b)})
	}
	out.Output = parts
	return out
}

// blockText is the text goose sends for a non-image tool-result block.
func blockText(b conversation.ToolContent) string {
	switch b.Type {
	case "resource":
		return resourceText(b.Resource)
	case "audio":
		return audioPlaceholder
	case "resource_link":
		return resourceLinkPlaceholder
	}
	return b.Text
}

// ResponsesReasoningEffort splits goose's effort suffix ("-none", "-low",
// "-medium", "-high", "-xhigh") off the name of an OpenAI reasoning model
// (an o<N> or gpt-5 family name, possibly behind a "provider/" prefix):
// "gpt-5-codex-high" → ("gpt-5-codex", "high"). Without a suffix, or for
// other models, the name is unchanged and effort is "" (no reasoning
// field is sent). This is goose's extract_reasoning_effort, which the
// Responses path uses instead of the Chat Completions ReasoningEffort.
func ResponsesReasoningEffort(modelName string) (base, effort string) {
	if !isReasoningFamily(modelName) {
		return modelName, ""
	}
	lower := strings.ToLower(modelName)
	for _, e := range []string{"none", "low", "medium", "high", "xhigh"} {
		if strings.HasSuffix(lower, "-"+e) {
			return modelName[:len(modelName)-len(e)-1], e
		}
	}
	return modelName, ""
}

// isReasoningFamily matches goose's (?:^|[-/])(?:o[0-9]+(?:$|-)|gpt-5(?:$|[-.]))
// case-insensitively, without compiling a regexp at start-up.
func isReasoningFamily(name string) bool {
	s := strings.ToLower(name)
	for i := 0; i < len(s); i++ {
		if i > 0 && s[i-1] != '-' && s[i-1] != '/' {
			continue
		}
		rest := s[i:]
		if len(rest) > 1 && rest[0] == 'o' && isDigit(rest[1]) {
			j := 1
			for j < len(rest) && isDigit(rest[j]) {
				j++
			}
			if j == len(rest) || rest[j] == '-' {
				return true
			}
		}
		if after, ok := strings.CutPrefix(rest, "gpt-5"); ok && (after == "" || after[0] == '-' || after[0] == '.') {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
