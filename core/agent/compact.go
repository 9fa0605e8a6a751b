package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// Compaction texts (goose's context_mgmt and agent.rs).
const (
	DefaultCompactionThreshold = 0.8
	CompactionThinkingText     = "goose is compacting the conversation..."
	AutoCompactTextFormat      = "Exceeded auto-compact threshold of %d%%. Performing auto-compaction..."
	ContextLimitText           = "Context limit reached. Compacting to continue conversation..."
	CompactionCompleteText     = "Compaction complete"
	CompactErrorText           = "Ran into this error trying to compact: %s.\n\nPlease try again or create a new session"
	CompactRecoveryErrorText   = "Ran into this error trying to compact: %s.\n\nPlease retry if you think this is a transient or recoverable error."
	SummarizeRequestText       = "Please summarize the conversation history provided in the system prompt."
)

// Continuation texts after a compaction, carrying goose 1.54's
// (context_mgmt/mod.rs): the summary is the only memory of what it
// replaced; it is authoritative for what it covers; what it lacks is asked
// for (or, in a tool loop, the tool re-run) rather than guessed.
const (
	summaryIsMemory = "The previous message is a structured summary of an earlier part of this session that no longer fits in your context. " +
		"The original messages are gone, and the summary is your only memory of them."
	AutoContinuation = summaryIsMemory + " Rely on it for what it covers, but if the user asks about something specific " +
		"the summary does not contain, say so plainly and ask instead of guessing. Continue the session."
	ToolLoopContinuation = "The previous message is a structured summary of an earlier part of this session that no longer fits in your context. " +
		"The original messages and tool outputs are gone, and the summary is your only memory of them. Rely on it for what it covers; " +
		"if you need a tool result the summary does not contain, run the tool again instead of guessing. Continue calling tools as needed to finish the task."
	ManualContinuation = "The previous message is a structured summary of the session so far, written at the user's request because the context " +
		"was getting long. The original messages are gone, and the summary is your only memory of them. Rely on it for what it covers, " +
		"but if the user asks about specifics the summary does not contain, say so plainly and ask instead of guessing. Continue the session."
)

// ErrCompactionOverflow is goose's error when even an empty history
// overflows.
var ErrCompactionOverflow = errors.New("Failed to compact: context limit exceeded even after removing all tool responses")

// needsAutoCompaction is goose's check: last reported total (or an
// estimate) over the threshold share of the context limit.
func (t *turn) needsAutoCompaction() bool {
	th := t.a.cfg.float("GOOSE_AUTO_COMPACT_THRESHOLD", DefaultCompactionThreshold)
	if th <= 0 || th >= 1 {
		return false
	}
	t.s.mu.Lock()
	total, limit := t.s.tokens.Total, t.s.model.Limit()
	t.s.mu.Unlock()
	current := 0
	if total != nil {
		current = *total
	} else {
		visible := conversation.Conversation(t.conv).AgentVisible()
		// A token is at least one byte, so a history whose byte size is
		// under the threshold cannot be over it; skip the tokenizer (its
		// first use loads the BPE tables, about a second).
		if float64(byteBound(visible))/float64(limit) <= th {
			return false
		}
		// Nor is one whose size alone proves it over: every o200k token
		// stands for at most 128 bytes (a 31 MB prompt took the
		// tokenizer seconds to count).
		if float64(provider.MinChatTokens(visible))/float64(limit) > th {
			return true
		}
		current = provider.CountChatTokens("", visible, nil)
	}
	return float64(current)/float64(limit) > th
}

func (t *turn) notify(kind conversation.NotificationType, text string) {
	m := conversation.NewMessage(conversation.RoleAssistant, t.a.now().Unix()).WithID(t.a.msgID()).
		With(conversation.SystemNotification(kind, text))
	t.emit(MessageEvent{Message: m})
}

// autoCompact runs before the loop; false means the turn ends.
func (t *turn) autoCompact() (Outcome, bool) {
	th := t.a.cfg.float("GOOSE_AUTO_COMPACT_THRESHOLD", DefaultCompactionThreshold)
	t.notify(conversation.NotificationInline, fmt.Sprintf(AutoCompactTextFormat, int(th*100)))
	t.notify(conversation.NotificationThinking, CompactionThinkingText)
	if err := t.compact(false); err != nil {
		t.emit(MessageEvent{Message: t.assistantText(fmt.Sprintf(CompactErrorText, err))})
		return Outcome{StopReason: Error, Err: err}, false
	}
	t.notify(conversation.NotificationInline, CompactionCompleteText)
	return Outcome{}, true
}

// recoverCompact handles a context-length error mid-loop.
func (t *turn) recoverCompact() bool {
	t.notify(conversation.NotificationInline, ContextLimitText)
	t.notify(conversation.NotificationThinking, CompactionThinkingText)
	if err := t.compact(false); err != nil {
		t.emit(MessageEvent{Message: t.assistantText(fmt.Sprintf(CompactRecoveryErrorText, err))})
		return false
	}
	return true
}

// compact summarizes the conversation, replaces it in the store, updates
// the token counters and emits HistoryReplaced.
func (t *turn) compact(manual bool) error {
	if err := t.tail.expand(t); err != nil {
		return err
	}
	tools := t.tools
	if tools == nil { // a /compact: the loop has not listed them
		tools = t.s.mgr.Tools(t.ctx)
	}
	out, usage, err := t.a.compactMessages(t.ctx, t.prov, t.conv, manual, toolInfoFunc(tools))
	if err != nil {
		return err
	}
	ctx := context.WithoutCancel(t.ctx)
	if err := t.a.opts.Store.ReplaceConversation(ctx, t.s.id, out); err != nil {
		return fmt.Errorf("saving compacted conversation: %w", err)
	}
	t.conv = out
	t.lastTurnContext = ""
	t.a.recordCompaction(ctx, t.s, out, usage)
	t.emit(HistoryReplacedEvent{Conversation: out})
	return nil
}

// recordCompaction sets the current counters to the estimated retained
// context and adds the summary call's cost to the accumulated ones.
func (a *Agent) recordCompaction(ctx context.Context, s *sessionState, conv []conversation.Message, u provider.ProviderUsage) {
	est := provider.CountChatTokens("", conversation.Conversation(conv).AgentVisible(), nil)
	s.mu.Lock()
	tok := s.tokens
	tok.Input, tok.Output, tok.Total = &est, nil, &est
	tok.AccumulatedInput = addInt(tok.AccumulatedInput, u.Usage.InputTokens)
	tok.AccumulatedOutput = addInt(tok.AccumulatedOutput, u.Usage.OutputTokens)
	cost := u.Usage.TotalTokens
	if cost == nil && (u.Usage.InputTokens != nil || u.Usage.OutputTokens != nil) {
		v := deref(u.Usage.InputTokens) + deref(u.Usage.OutputTokens)
		cost = &v
	}
	tok.AccumulatedTotal = addInt(tok.AccumulatedTotal, cost)
	s.tokens = tok
	s.mu.Unlock()
	ledger := &session.UsageRecord{Model: u.Model, Input: u.Usage.InputTokens, Output: u.Usage.OutputTokens,
		Total: cost, IsCompaction: true}
	if err := a.opts.Store.Update(ctx, s.id, session.Update{Tokens: &tok, Usage: ledger}); err != nil {
		a.log.Warn("saving token counts failed", "session", s.id, "error", err)
	}
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// compactMessages is goose's compact_messages: summary (agent-only, user
// role) + continuation (agent-only), old messages made agent-invisible,
// and (automatic compaction) the most recent user text replayed. info
// tells which tool calls read or changed which files.
func (a *Agent) compactMessages(ctx context.Context, p provider.Provider, conv []conversation.Message, manual bool, info func(string) toolinfo.Info) ([]conversation.Message, provider.ProviderUsage, error) {
	preserved := -1
	if !manual {
		preserved = lastUserText(conv)
	}
	toSummarize := conversation.Conversation(conv).AgentVisible()
	if preserved >= 0 {
		toSummarize = conversation.Conversation(append(append([]conversation.Message{}, conv[:preserved]...), conv[preserved+1:]...)).AgentVisible()
	}
	// The <turn-context> blocks are the agent's bookkeeping, not the
	// conversation: the summary is written without them.
	summary, usage, err := a.summarize(ctx, p, withoutTurnContext(toSummarize), info)
	if err != nil {
		return nil, usage, err
	}
	now := a.now().Unix()
	out := make([]conversation.Message, 0, len(conv)+3)
	isLast := preserved == len(conv)-1 && preserved >= 0
	// Old messages stay for the user only. (goose hides a preserved last
	// message completely and replays it user-invisibly, so the user would
	// no longer see what they typed; we keep the original user-visible.)
	for _, m := range conv {
		m.Metadata.AgentVisible = false
		out = append(out, m)
	}
	agentOnly := conversation.Metadata{UserVisible: false, AgentVisible: true}
	summary.Role = conversation.RoleUser
	summary.Metadata = agentOnly
	if summary.ID == nil {
		summary = summary.WithID(a.msgID())
	}
	cont := ManualContinuation
	switch {
	case manual:
	case preserved >= 0 && isLast:
		cont = AutoContinuation
	default:
		cont = ToolLoopContinuation
	}
	out = append(out, summary, conversation.AssistantText(now, cont).WithID(a.msgID()).WithMetadata(agentOnly))
	if preserved >= 0 {
		out = append(out, conversation.UserText(now, conv[preserved].AsText()).WithID(a.msgID()).WithMetadata(agentOnly))
	}
	return out, usage, nil
}

// lastUserText finds the most recent agent-visible user message with text
// and no tool content (a <turn-context> block is not one).
func lastUserText(conv []conversation.Message) int {
	for i := len(conv) - 1; i >= 0; i-- {
		m := conv[i]
		if m.Role != conversation.RoleUser || !m.Metadata.AgentVisible || m.Metadata.TurnContext || m.HasToolRequests() || m.HasToolResponses() {
			continue
		}
		if strings.TrimSpace(m.AsText()) != "" {
			return i
		}
	}
	return -1
}

// summarize asks the provider for the summary, removing tool responses
// middle-out (0, 10, 20, 50, 100 %) while the request still overflows.
// The template also gets the files the session read and modified.
func (a *Agent) summarize(ctx context.Context, p provider.Provider, msgs []conversation.Message, info func(string) toolinfo.Info) (conversation.Message, provider.ProviderUsage, error) {
	read, modified := fileHistory(msgs, info)
	for _, pct := range []int{0, 10, 20, 50, 100} {
		system, err := a.renderPrompt(TemplateCompaction, map[string]string{
			"Messages": renderForSummary(dropToolResponses(msgs, pct)), "ReadFiles": strings.Join(read, "\n"), "ModifiedFiles": strings.Join(modified, "\n"),
		})
		if err != nil {
			return conversation.Message{}, provider.ProviderUsage{}, err
		}
		req := provider.Request{System: system, Messages: []conversation.Message{conversation.UserText(a.now().Unix(), SummarizeRequestText)}}
		m, u, err := p.Complete(ctx, req)
		if err == nil {
			return m, u, nil
		}
		if !provider.IsContextLength(err) {
			return conversation.Message{}, u, err
		}
	}
	return conversation.Message{}, provider.ProviderUsage{}, ErrCompactionOverflow
}

// fileHistory lists, in first-seen order without repeats, the files the
// conversation's tool calls read and those they modified (goose's
// extract_file_history), from what each tool declares: a call of a tool
// with a text-file path argument is a write when it carries new content
// or before/after text, a read otherwise. A tool that declares nothing (a
// stored call of a tool no longer offered) is judged by goose's name
// lists and its "path" argument.
func fileHistory(msgs []conversation.Message, info func(string) toolinfo.Info) (read, modified []string) {
	seenRead, seenModified := map[string]bool{}, map[string]bool{}
	for _, m := range msgs {
		for _, r := range m.ToolRequests() {
			if !r.ToolCall.IsOK() {
				continue
			}
			call := r.ToolCall.Value
			ti := info(call.Name)
			if ti.Path == "" {
				ti = gooseFileTool(call.Name)
			}
			path, ok := ti.PathOf(call.Arguments)
			if !ok || !ti.TextFile {
				continue
			}
			switch {
			case ti.Kind == toolinfo.Edit && (ti.Content == "" || has(call.Arguments, ti.Content) || has(call.Arguments, ti.Before) || has(call.Arguments, ti.After)):
				if !seenModified[path] {
					seenModified[path] = true
					modified = append(modified, path)
				}
			case !seenRead[path]:
				seenRead[path] = true
				read = append(read, path)
			}
		}
	}
	return read, modified
}

// gooseFileTool is goose's READ_TOOLS / WRITE_TOOLS judgement of a tool
// name (the part after "__"): a text file at "path", read or written.
func gooseFileTool(name string) toolinfo.Info {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		name = name[i+2:]
	}
	switch name {
	case "write", "edit", "file_write", "file_edit", "str_replace_editor":
		return toolinfo.Info{Kind: toolinfo.Edit, Path: "path", TextFile: true}
	case "read", "file_read", "view", "text_editor":
		return toolinfo.Info{Kind: toolinfo.Read, Path: "path", TextFile: true}
	}
	return toolinfo.Info{}
}

// has reports whether args carries the argument named key.
func has(args map[string]any, key string) bool {
	if key == "" {
		return false
	}
	v, ok := args[key]
	return ok && v != nil
}

// dropToolResponses removes pct % of the tool-response messages, starting
// from the middle of the list and moving outwards.
func dropToolResponses(msgs []conversation.Message, pct int) []conversation.Message {
	if pct == 0 {
		return msgs
	}
	var idx []int
	for i, m := range msgs {
		if m.HasToolResponses() {
			idx = append(idx, i)
		}
	}
	n := (len(idx)*pct + 99) / 100
	drop := map[int]bool{}
	mid := len(idx) / 2
	for k := 0; len(drop) < n && k <= len(idx); k++ {
		for _, j := range []int{mid - k, mid + k} {
			if j >= 0 && j < len(idx) && len(drop) < n {
				drop[idx[j]] = true
			}
		}
	}
	out := make([]conversation.Message, 0, len(msgs))
	for i, m := range msgs {
		if !drop[i] {
			out = append(out, m)
		}
	}
	return out
}

// renderForSummary renders messages as goose's compaction input.
func renderForSummary(msgs []conversation.Message) string {
	lines := make([]string, 0, len(msgs))
	for _, m := range msgs {
		var parts []string
		for _, c := range m.Content {
			if s := renderContent(c); s != "" {
				parts = append(parts, s)
			}
		}
		body := strings.Join(parts, "\n")
		if body == "" {
			body = "<empty message>"
		}
		lines = append(lines, fmt.Sprintf("[%s]: %s", m.Role, body))
	}
	return strings.Join(lines, "\n")
}

func renderContent(c conversation.Content) string {
	switch {
	case c.Text != nil:
		return c.Text.Text
	case c.Image != nil:
		return fmt.Sprintf("[image: %s]", c.Image.MimeType)
	case c.ToolRequest != nil:
		if !c.ToolRequest.ToolCall.IsOK() {
			return "tool_request: [error]"
		}
		args, _ := json.Marshal(c.ToolRequest.ToolCall.Value.Arguments)
		return fmt.Sprintf("tool_request(%s): %s", c.ToolRequest.ToolCall.Value.Name, args)
	case c.ToolResponse != nil:
		r := c.ToolResponse.ToolResult
		if !r.IsOK() {
			return "tool_response: [error]"
		}
		var texts []string
		for _, b := range r.Value.Content {
			if b.Type == "text" {
				texts = append(texts, b.Text)
			}
		}
		if len(texts) == 0 {
			return "tool_response: [non-text content]"
		}
		return "tool_response: " + strings.Join(texts, "\n")
	case c.SystemNotification != nil:
		return "system_notification: " + c.SystemNotification.Msg
	}
	return ""
}

// byteBound is an upper bound of the token estimate of msgs: the bytes of
// everything the estimate counts plus its per-message overhead.
func byteBound(msgs []conversation.Message) int {
	n := 3
	for _, m := range msgs {
		n += 4
		for _, c := range m.Content {
			switch {
			case c.Text != nil:
				n += len(c.Text.Text)
			case c.ToolRequest != nil:
				n += len(c.ToolRequest.ID) + 2
				if c.ToolRequest.ToolCall.IsOK() {
					b, _ := json.Marshal(c.ToolRequest.ToolCall.Value)
					n += len(b)
				}
			case c.ToolResponse != nil:
				if r := c.ToolResponse.ToolResult; r.IsOK() {
					for _, b := range r.Value.Content {
						n += len(b.Text) + len(b.Data)
					}
				} else {
					n += len(r.Error)
				}
			default:
				b, _ := json.Marshal(c)
				n += len(b)
			}
		}
	}
	return n
}
