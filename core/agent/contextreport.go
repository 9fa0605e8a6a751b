package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/provider"
)

// Context report categories (goose's ContextCategory).
const (
	ContextSystemPrompt           = "system_prompt"
	ContextExtensionInstructions  = "extension_instructions"
	ContextAdditionalInstructions = "additional_instructions"
	ContextToolDefinitions        = "tool_definitions"
	ContextMessages               = "messages"
)

// contextPreviewChars bounds a segment's preview (goose's MAX_PREVIEW_CHARS).
const contextPreviewChars = 2000

// ContextReport is what a session's next model request holds, part by
// part, with token estimates (goose's context report, Desktop's context
// breakdown dialog).
type ContextReport struct {
	Provider     *string
	Model        string
	ContextLimit int
	// Estimated is the sum of the segments; Wire the whole request
	// counted as one (the segments are completed to it by a "Prompt
	// overhead" segment); Live the session's last reported total.
	Estimated, Wire int
	Live            *int
	Segments        []ContextSegment
}

// ContextSegment is one part of the request.
type ContextSegment struct {
	Category, Label string
	Source          *string
	Tokens, Chars   int
	Preview         *string
	Parts           []ContextPart
}

// ContextPart is one item of a segment (a tool, a message).
type ContextPart struct {
	Label         string
	Source        *string
	Tokens, Chars int
	Preview       *string
}

// ContextReport builds the report from what the session would send now:
// the system prompt's base, each extension's instructions, the additional
// instructions (recipe, final output, hints, chat mode, the session's own
// texts), the tools by extension and the agent-visible conversation by
// kind.
func (svc Sessions) ContextReport(ctx context.Context, sessionID string) (ContextReport, error) {
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return ContextReport{}, err
	}
	stored, err := svc.a.opts.Store.Get(ctx, sessionID, true)
	if err != nil {
		return ContextReport{}, err
	}
	_, _, mode, wd := s.snapshot()
	s.mu.Lock()
	providerName, model := s.providerName, s.model
	s.mu.Unlock()
	rep := ContextReport{Model: model.ModelName, ContextLimit: model.Limit(), Live: stored.TotalTokens}
	if providerName != "" {
		rep.Provider = &providerName
	}
	tools := s.mgr.Tools(ctx)
	system := svc.a.systemPrompt(ctx, s, mode, wd)
	rep.Segments = append(rep.Segments, svc.a.promptSegments(ctx, s, mode, wd)...)
	var ptools []provider.Tool
	byExt := map[string][]provider.Tool{}
	var exts []string
	for _, t := range tools {
		pt := t.ProviderTool()
		ptools = append(ptools, pt)
		if _, ok := byExt[t.Extension]; !ok {
			exts = append(exts, t.Extension)
		}
		byExt[t.Extension] = append(byExt[t.Extension], pt)
	}
	sort.Strings(exts)
	var cumulative []provider.Tool
	total := 0
	for _, ext := range exts {
		start := total
		seg := ContextSegment{Category: ContextToolDefinitions, Label: ext, Source: ptr(fmt.Sprintf("%d tools", len(byExt[ext])))}
		for _, t := range byExt[ext] {
			before := total
			cumulative = append(cumulative, t)
			total = provider.CountToolTokens(cumulative)
			text := toolText(t)
			seg.Parts = append(seg.Parts, ContextPart{Label: t.Name, Tokens: total - before, Chars: utf8.RuneCountInString(text), Preview: preview(text)})
			seg.Chars += utf8.RuneCountInString(text)
		}
		seg.Tokens = total - start
		rep.Segments = append(rep.Segments, seg)
	}
	msgs := conversation.Conversation(stored.Conversation).AgentVisible()
	rep.Segments = append(rep.Segments, messageSegments(msgs)...)
	rep.Wire = provider.CountChatTokens(system, msgs, ptools)
	for _, seg := range rep.Segments {
		rep.Estimated += seg.Tokens
	}
	if residual := rep.Wire - rep.Estimated; residual > 0 {
		rep.Segments = append(rep.Segments, ContextSegment{Category: ContextSystemPrompt, Label: "Prompt overhead", Tokens: residual})
		rep.Estimated += residual
	}
	return rep, nil
}

// promptSegments splits the system prompt: its base (the template with
// the extensions' instructions left out), each extension's instructions,
// and each additional instruction.
func (a *Agent) promptSegments(ctx context.Context, s *sessionState, mode permission.Mode, wd string) []ContextSegment {
	infos := s.mgr.Extensions()
	data := basePromptData(a.now(), mode)
	var out []ContextSegment
	for _, info := range infos {
		data.Extensions = append(data.Extensions, promptExtension{Name: info.Key, HasResources: info.HasResources})
	}
	sort.Slice(data.Extensions, func(i, j int) bool { return data.Extensions[i].Name < data.Extensions[j].Name })
	base, source := FallbackSystemPrompt, "prompts/"+TemplateSystem
	if b, err := a.renderPrompt(TemplateSystem, data); err == nil {
		base = b
	}
	if o := s.prompt.base(); o != "" {
		base, source = o, "override"
	}
	out = append(out, textSegment(ContextSystemPrompt, "Base system prompt", &source, sanitize(base)))
	sort.Slice(infos, func(i, j int) bool { return infos[i].Key < infos[j].Key })
	for _, info := range infos {
		if strings.TrimSpace(info.Instructions) == "" {
			continue
		}
		out = append(out, textSegment(ContextExtensionInstructions, info.Key, ptr("extension:"+info.Key), sanitize(info.Instructions)))
	}
	s.mu.Lock()
	recipe, final := s.recipe, s.final
	s.mu.Unlock()
	add := func(label, text string) {
		if strings.TrimSpace(text) != "" {
			out = append(out, textSegment(ContextAdditionalInstructions, label, nil, text))
		}
	}
	if recipe != nil {
		add("recipe", sanitize(recipe.Instructions))
	}
	if final != nil {
		add("final_output", final.systemPrompt())
	}
	for _, c := range s.subHints.snapshot() {
		add("subdir_hints", sanitize(c))
	}
	if wd != "" {
		add("hints", sanitize(loadHints(wd, a.opts.ConfigDir, a.cfg.agentsHome(), a.contextFileNames())))
	}
	if mode == permission.ModeChat {
		add("chat_mode", ChatModePromptText)
	}
	for _, t := range s.prompt.extraTexts() {
		add("session", t)
	}
	return out
}

// messageSegments groups the conversation as goose does: user messages,
// assistant messages, tool calls, tool results, each message a part.
func messageSegments(msgs []conversation.Message) []ContextSegment {
	kinds := []string{"User messages", "Assistant messages", "Tool calls", "Tool results"}
	parts := make([][]ContextPart, len(kinds))
	for i, m := range msgs {
		k := 0
		switch {
		case m.HasToolResponses():
			k = 3
		case m.HasToolRequests():
			k = 2
		case m.Role == conversation.RoleAssistant:
			k = 1
		}
		text := messageText(m)
		tokens := provider.CountChatTokens("", []conversation.Message{m}, nil) - provider.CountChatTokens("", nil, nil)
		parts[k] = append(parts[k], ContextPart{Label: fmt.Sprintf("#%d %s", i+1, m.Role), Tokens: tokens,
			Chars: utf8.RuneCountInString(text), Preview: preview(text)})
	}
	var out []ContextSegment
	for k, ps := range parts {
		if len(ps) == 0 {
			continue
		}
		seg := ContextSegment{Category: ContextMessages, Label: kinds[k], Parts: ps}
		for _, p := range ps {
			seg.Tokens += p.Tokens
			seg.Chars += p.Chars
		}
		out = append(out, seg)
	}
	return out
}

func messageText(m conversation.Message) string {
	var texts []string
	for _, c := range m.Content {
		switch {
		case c.Text != nil:
			texts = append(texts, c.Text.Text)
		case c.ToolRequest != nil && c.ToolRequest.ToolCall.IsOK():
			args, _ := json.Marshal(c.ToolRequest.ToolCall.Value.Arguments)
			texts = append(texts, c.ToolRequest.ToolCall.Value.Name+": "+string(args))
		case c.ToolResponse != nil && c.ToolResponse.ToolResult.IsOK():
			for _, b := range c.ToolResponse.ToolResult.Value.Content {
				if b.Type == "text" {
					texts = append(texts, b.Text)
				}
			}
		}
	}
	return strings.Join(texts, "\n")
}

func textSegment(category, label string, source *string, text string) ContextSegment {
	return ContextSegment{Category: category, Label: label, Source: source, Tokens: provider.CountTokens(text),
		Chars: utf8.RuneCountInString(text), Preview: preview(text)}
}

func toolText(t provider.Tool) string {
	b, _ := json.MarshalIndent(map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema}, "", "  ")
	return string(b)
}

// preview is text cut to contextPreviewChars characters, saying how many
// more there were.
func preview(text string) *string {
	r := []rune(text)
	if len(r) > contextPreviewChars {
		text = fmt.Sprintf("%s… (+%d more chars)", string(r[:contextPreviewChars]), len(r)-contextPreviewChars)
	}
	return &text
}

func ptr(s string) *string { return &s }
