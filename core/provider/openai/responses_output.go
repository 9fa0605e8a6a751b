package openai

import (
	"bytes"
	"encoding/json"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
)

// responsesObject is a Responses API response: the body of a
// non-streaming answer, and the "response" of created/completed events.
type responsesObject struct {
	ID     string          `json:"id"`
	Model  string          `json:"model"`
	Output []responsesItem `json:"output"`
	Usage  *responsesUsage `json:"usage"`
	Error  json.RawMessage `json:"error"`
}

// responsesItem is one output item: a reasoning summary, an assistant
// message, or a function call.
type responsesItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	Content []responsesOutputPart `json:"content"`
}

// responsesOutputPart is a message part: output_text, or a tool_call with
// its arguments as a string (streamed) or an object (non-streaming).
type responsesOutputPart struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     json.RawMessage `json:"input"`
}

type responsesUsage struct {
	InputTokens  *int `json:"input_tokens"`
	OutputTokens *int `json:"output_tokens"`
	TotalTokens  *int `json:"total_tokens"`
}

func (u *responsesUsage) usage() provider.Usage {
	return provider.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, TotalTokens: u.TotalTokens}
}

// outputContent is goose's process_streaming_output_items: reasoning
// summaries become thinking, function calls tool requests (named by
// call_id), and message text is kept only when it was not streamed.
func outputContent(items []responsesItem, streamed bool) []conversation.Content {
	var out []conversation.Content
	for _, it := range items {
		switch it.Type {
		case "reasoning":
			if t := summaryText(it); t != "" {
				out = append(out, conversation.Thinking(t, ""))
			}
		case "message":
			for _, part := range it.Content {
				switch {
				case part.Type == "output_text" && part.Text != "" && !streamed:
					out = append(out, conversation.Text(part.Text))
				case part.Type == "tool_call":
					args := part.Arguments
					if !isNull(part.Input) {
						args = string(part.Input)
					}
					out = append(out, provider.ToolRequest(part.ID, part.Name, args))
				}
			}
		case "function_call":
			id := it.CallID
			if id == "" {
				id = it.ID
			}
			out = append(out, provider.ToolRequest(id, it.Name, it.Arguments))
		}
	}
	return out
}

func summaryText(it responsesItem) string {
	var b bytes.Buffer
	for i, s := range it.Summary {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s.Text)
	}
	return b.String()
}
