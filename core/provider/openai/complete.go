package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/provider"
)

// completion is a non-streaming chat.completion answer.
type completion struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content          *string `json:"content"`
			ReasoningContent *string `json:"reasoning_content"`
			Reasoning        *string `json:"reasoning"`
			ToolCalls        []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"message"`
	} `json:"choices"`
	Usage *wireUsage `json:"usage"`
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

var validFunctionName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9_-]+$`) })

// streamOnce serves services that cannot stream (a custom provider's
// supports_streaming: false): one request, one message, then usage.
func (p *Provider) streamOnce(ctx context.Context, cfg model.Config, req provider.Request, yield func(provider.Chunk, error) bool) {
	body, err := p.requestBody(cfg, req, false)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	resp, err := p.post(ctx, body, "application/json")
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		yield(provider.Chunk{}, p.redact(&provider.Error{Kind: provider.KindNetwork, Provider: p.opts.Metadata.Name, Err: err}))
		return
	}
	msg, usage, err := p.parseCompletion(raw, cfg, req)
	if err != nil {
		yield(provider.Chunk{}, err)
		return
	}
	if yield(provider.Chunk{Message: &msg}, nil) {
		yield(provider.Chunk{Usage: &usage}, nil)
	}
}

// parseCompletion is goose's response_to_message plus get_usage.
func (p *Provider) parseCompletion(raw []byte, cfg model.Config, req provider.Request) (conversation.Message, provider.ProviderUsage, error) {
	var c completion
	if err := json.Unmarshal(raw, &c); err != nil {
		return conversation.Message{}, provider.ProviderUsage{}, &provider.Error{Kind: provider.KindServer,
			Provider: p.opts.Metadata.Name, Message: "Response body is not valid JSON: " + err.Error(), Err: err}
	}
	if len(c.Choices) == 0 {
		msg := "No message in API response. This may indicate a quota limit or other restriction."
		if c.Error != nil {
			msg = "API error: " + c.Error.Message
		}
		return conversation.Message{}, provider.ProviderUsage{}, &provider.Error{Kind: provider.KindServer,
			Provider: p.opts.Metadata.Name, Message: msg}
	}
	m := c.Choices[0].Message
	msg := conversation.NewMessage(conversation.RoleAssistant, p.opts.Now().Unix())
	if c.ID == "" {
		c.ID = generatedID()
	}
	msg = msg.WithID(c.ID)
	reasoning := m.ReasoningContent
	if reasoning == nil {
		reasoning = m.Reasoning
	}
	if reasoning != nil && *reasoning != "" {
		msg.Content = append(msg.Content, conversation.Thinking(*reasoning, ""))
	}
	if m.Content != nil {
		msg.Content = append(msg.Content, conversation.Text(*m.Content))
	}
	for _, tc := range m.ToolCalls {
		msg.Content = append(msg.Content, completionToolRequest(tc.ID, tc.Function.Name, tc.Function.Arguments))
	}
	usage := provider.ProviderUsage{Model: c.Model}
	if usage.Model == "" {
		usage.Model = cfg.ModelName
	}
	if c.Usage != nil {
		usage.Usage = *usageFromWire(c.Usage)
	}
	usage.EnsureTokens(req, msg)
	return msg, usage, nil
}

func completionToolRequest(id, name, args string) conversation.Content {
	if !validFunctionName().MatchString(name) {
		return conversation.ToolRequestError(id, fmt.Sprintf(
			"The provided function name '%s' had invalid characters, it must match this regex [a-zA-Z0-9_-]+", name))
	}
	if args == "" {
		args = "{}"
	}
	parsed, err := provider.ParseToolArguments(args)
	if err != nil {
		return conversation.ToolRequestError(id, fmt.Sprintf(
			"Could not interpret tool use parameters for id %s: %v. Raw arguments: '%s'", id, err, args))
	}
	return conversation.ToolRequestContent(id, name, parsed)
}
