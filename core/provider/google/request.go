package google

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// thoughtSignatureKey is where a function call's thought signature lives
// in the tool request's metadata (goose's THOUGHT_SIGNATURE_KEY).
const thoughtSignatureKey = "thoughtSignature"

// toolDone is goose's text for a tool result with no text.
const toolDone = "Tool call is done."

// buildRequest is the streamGenerateContent body for req, as genai built
// it: the system prompt as a "user" content, the model settings in
// generationConfig (temperature as float32, max tokens capped to int32),
// thoughts requested when reasoning is on, and one tool with every
// function declaration.
func buildRequest(cfg model.Config, req provider.Request) (generateRequest, error) {
	contents, err := formatMessages(req.Messages)
	if err != nil {
		return generateRequest{}, err
	}
	body := generateRequest{Contents: contents}
	if req.System != "" {
		body.SystemInstruction = &content{Parts: []part{{Text: req.System}}, Role: roleUser}
	}
	gc := &body.GenerationConfig
	if cfg.Temperature != nil {
		t := float32(*cfg.Temperature)
		gc.Temperature = &t
	}
	if cfg.MaxTokens != nil && *cfg.MaxTokens > 0 {
		gc.MaxOutputTokens = int32(min(*cfg.MaxTokens, 1<<31-1))
	}
	if cfg.Reasoning != nil && *cfg.Reasoning {
		gc.ThinkingConfig = &thinkingConfig{IncludeThoughts: true}
	}
	if decls := functionDeclarations(req.Tools); len(decls) > 0 {
		body.Tools = []tool{{FunctionDeclarations: decls}}
	}
	return body, nil
}

// Gemini's content roles.
const (
	roleUser  = "user"
	roleModel = "model"
)

// formatMessages converts goose messages to Gemini contents as goose's
// format_messages does. Thought signatures are echoed only from the last
// assistant message on, as Gemini requires for the current turn.
func formatMessages(msgs []conversation.Message) ([]content, error) {
	lastAssistant := -1
	for i, m := range msgs {
		if m.Role != conversation.RoleUser {
			lastAssistant = i
		}
	}
	names := map[string]string{}
	var out []content
	for i, m := range msgs {
		role := roleUser
		if m.Role != conversation.RoleUser {
			role = roleModel
		}
		withSig := lastAssistant >= 0 && i >= lastAssistant
		var parts []part
		for _, c := range m.Content {
			ps, err := formatContent(c, withSig, names)
			if err != nil {
				return nil, err
			}
			parts = append(parts, ps...)
		}
		if len(parts) > 0 {
			out = append(out, content{Role: role, Parts: parts})
		}
	}
	return out, nil
}

func formatContent(c conversation.Content, withSig bool, names map[string]string) ([]part, error) {
	switch {
	case c.Text != nil && c.Text.Text != "":
		return []part{{Text: c.Text.Text}}, nil
	case c.Image != nil:
		data, err := base64.StdEncoding.DecodeString(c.Image.Data)
		if err != nil {
			return nil, fmt.Errorf("image content is not valid base64: %w", err)
		}
		return []part{{InlineData: &blob{MIMEType: c.Image.MimeType, Data: data}}}, nil
	case c.ToolRequest != nil:
		return []part{functionCallPart(c.ToolRequest, withSig, names)}, nil
	case c.ToolResponse != nil:
		return functionResponseParts(c.ToolResponse, names), nil
	case c.Thinking != nil:
		p := part{Text: c.Thinking.Thinking}
		if withSig {
			p.ThoughtSignature = canonicalSignature(c.Thinking.Signature)
		}
		return []part{p}, nil
	}
	return nil, nil
}

func functionCallPart(r *conversation.ToolRequest, withSig bool, names map[string]string) part {
	if !r.ToolCall.IsOK() {
		return part{Text: "Error: " + r.ToolCall.Error}
	}
	name := sanitizeFunctionName(r.ToolCall.Value.Name)
	names[r.ID] = name
	fc := &functionCall{Name: name}
	if len(r.ToolCall.Value.Arguments) > 0 {
		fc.Args = r.ToolCall.Value.Arguments
	}
	p := part{FunctionCall: fc}
	if sig, ok := r.Metadata[thoughtSignatureKey].(string); ok && withSig {
		p.ThoughtSignature = canonicalSignature(sig)
	}
	return p
}

// functionResponseParts answers a call with its text (images go first as
// inline data). The response is named after the call's function, which is
// how Gemini pairs them.
func functionResponseParts(r *conversation.ToolResponse, names map[string]string) []part {
	name := names[r.ID]
	if name == "" {
		name = r.ID
	}
	var parts []part
	text := ""
	if r.ToolResult.IsOK() {
		var texts []string
		for _, tc := range r.ToolResult.Value.Content {
			if !forAssistant(tc) {
				continue
			}
			switch {
			case tc.Type == "image":
				if data, err := base64.StdEncoding.DecodeString(tc.Data); err == nil {
					parts = append(parts, part{InlineData: &blob{MIMEType: tc.MimeType, Data: data}})
				}
			case tc.Type == "text":
				texts = append(texts, tc.Text)
			case tc.Type == "resource" && tc.Resource != nil && tc.Resource.Text != nil:
				texts = append(texts, *tc.Resource.Text)
			}
		}
		text = strings.Join(texts, "\n")
		if text == "" {
			text = toolDone
		}
	} else {
		text = "Error: " + r.ToolResult.Error
	}
	return append(parts, part{FunctionResponse: &functionResponse{
		Name: name, Response: map[string]any{"content": map[string]any{"text": text}}}})
}

func forAssistant(tc conversation.ToolContent) bool {
	if tc.Annotations == nil || len(tc.Annotations.Audience) == 0 {
		return true
	}
	for _, r := range tc.Annotations.Audience {
		if r == conversation.RoleAssistant {
			return true
		}
	}
	return false
}

var (
	validFunctionName   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]+$`) })
	invalidFunctionChar = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_-]`) })
)

// sanitizeFunctionName replaces characters Gemini rejects with "_".
func sanitizeFunctionName(name string) string {
	return invalidFunctionChar().ReplaceAllString(name, "_")
}
