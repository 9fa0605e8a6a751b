package agent

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// Command is a slash command a client can offer.
type Command struct {
	Name        string
	Description string
	// Hint describes the arguments, if any.
	Hint string
	// Kind is goose's source of the command (CommandBuiltin, CommandRecipe,
	// CommandSkill); empty for an extension's prompt, which goose does
	// not list.
	Kind string
	// SourcePath is a recipe command's recipe file.
	SourcePath string
}

// Command kinds, as goose names them (SlashCommandSource).
const (
	CommandBuiltin = "Builtin"
	CommandRecipe  = "Recipe"
	CommandSkill   = "Skill"
)

// Built-in commands.
const (
	CommandCompact = "compact"
	CommandClear   = "clear"
)

// SlashCommands lists /compact, /clear, the recipe commands of
// config.yaml's slash_commands and the extensions' prompts.
func (a *Agent) SlashCommands(sessionID string) ([]Command, error) {
	s, err := a.readySession(a.bgCtx, sessionID)
	if err != nil {
		return nil, err
	}
	out := []Command{
		{Name: CommandCompact, Description: "Compact the conversation history", Kind: CommandBuiltin},
		{Name: CommandClear, Description: "Clear the conversation history", Kind: CommandBuiltin},
		{Name: CommandRewind, Description: RewindDescription, Hint: "message number", Kind: CommandBuiltin},
		{Name: CommandUndo, Description: UndoDescription, Kind: CommandBuiltin},
	}
	prompts, _ := s.mgr.ListPrompts(a.bgCtx)
	var extra []Command
	for _, p := range prompts {
		var args []string
		for _, arg := range p.Prompt.Arguments {
			args = append(args, arg.Name)
		}
		extra = append(extra, Command{Name: p.Prompt.Name, Description: p.Prompt.Description, Hint: strings.Join(args, " ")})
	}
	extra = append(extra, a.recipeCommandList()...)
	extra = append(extra, a.skillCommands(s)...)
	sort.Slice(extra, func(i, j int) bool { return extra[i].Name < extra[j].Name })
	return append(out, extra...), nil
}

// parseCommand splits "/name rest" out of a single-text message.
func parseCommand(msg conversation.Message) (name, rest string, ok bool) {
	if msg.Role != conversation.RoleUser || len(msg.Content) != 1 || msg.Content[0].Text == nil {
		return "", "", false
	}
	text := strings.TrimSpace(msg.Content[0].Text.Text)
	if !strings.HasPrefix(text, "/") || len(text) < 2 {
		return "", "", false
	}
	name, rest, _ = strings.Cut(text[1:], " ")
	return name, strings.TrimSpace(rest), true
}

// command runs slash commands. /compact and /clear short-circuit (no LLM
// turn); a prompt command replaces the input by the prompt's messages.
func (t *turn) command(msg conversation.Message) (bool, []conversation.Message, Outcome, error) {
	name, rest, ok := parseCommand(msg)
	if !ok {
		return false, []conversation.Message{msg}, Outcome{}, nil
	}
	switch name {
	case CommandCompact:
		out, err := t.manualCompact()
		return true, nil, out, err
	case CommandClear:
		out, err := t.clear(msg)
		return true, nil, out, err
	case CommandRewind, CommandUndo:
		out, err := t.rewind(name, rest)
		return true, nil, out, err
	}
	msgs, found, err := t.recipeCommand(name, rest)
	if err != nil || found {
		return false, msgs, Outcome{}, err
	}
	msgs, found, err = t.skillCommand(name, rest)
	if err != nil || found {
		return false, msgs, Outcome{}, err
	}
	msgs, found, err = t.promptCommand(name, rest)
	if err != nil {
		return true, nil, Outcome{}, err
	}
	if !found {
		return false, []conversation.Message{msg}, Outcome{}, nil
	}
	return false, msgs, Outcome{}, nil
}

func (t *turn) loadConversation() error {
	var sess session.Session
	var err error
	t.tail.partial = false
	if c := t.a.convCache(); c != nil {
		sess, t.tail.partial, err = c.turnView(t.ctx, t.s.id)
	} else {
		sess, err = t.a.opts.Store.Get(t.ctx, t.s.id, true)
	}
	if err != nil {
		return fmt.Errorf("loading session: %w", err)
	}
	t.conv = sess.Conversation
	t.title.name, t.title.userSet, t.title.read = sess.Name, sess.UserSetName, true
	t.s.mu.Lock()
	t.s.tokens = tokensOf(sess)
	t.s.mu.Unlock()
	return nil
}

func (t *turn) manualCompact() (Outcome, error) {
	if t.prov == nil {
		_, perr, _, _ := t.s.snapshot()
		return Outcome{}, perr
	}
	if err := t.loadConversation(); err != nil {
		return Outcome{}, err
	}
	t.notify(conversation.NotificationThinking, CompactionThinkingText)
	if err := t.compact(true); err != nil {
		t.emit(MessageEvent{Message: t.assistantText(fmt.Sprintf(CompactErrorText, err))})
		return Outcome{StopReason: Error, Err: err}, nil
	}
	t.notify(conversation.NotificationInline, CompactionCompleteText)
	return Outcome{StopReason: EndTurn}, nil
}

// ClearedText is goose's answer to /clear.
const ClearedText = "Conversation cleared"

// clear empties the conversation and its token counts, then, as goose
// does, keeps the command and goose's answer in the history for the user
// only (the model never sees them): the answer is what a client shows,
// and the new history is those two messages.
func (t *turn) clear(msg conversation.Message) (Outcome, error) {
	if err := t.a.opts.Store.ReplaceConversation(t.ctx, t.s.id, []conversation.Message{}); err != nil {
		return Outcome{}, fmt.Errorf("clearing conversation: %w", err)
	}
	zero := 0
	tok := session.TokenCounts{Total: &zero, Input: &zero, Output: &zero}
	t.s.mu.Lock()
	t.s.tokens.Total, t.s.tokens.Input, t.s.tokens.Output = &zero, &zero, &zero
	t.s.mu.Unlock()
	if err := t.a.opts.Store.Update(t.ctx, t.s.id, session.Update{Tokens: &tok}); err != nil {
		return Outcome{}, err
	}
	t.conv, t.tail.partial = nil, false
	userOnly := conversation.Metadata{UserVisible: true, AgentVisible: false}
	if msg.ID == nil {
		msg = msg.WithID(t.a.msgID())
	}
	msg.Metadata = userOnly
	reply := t.assistantText(ClearedText)
	reply.Metadata = userOnly
	if err := t.persist(msg, reply); err != nil {
		return Outcome{}, err
	}
	t.emit(MessageEvent{Message: reply})
	t.emit(HistoryReplacedEvent{Conversation: []conversation.Message{msg, reply}})
	return Outcome{StopReason: EndTurn}, nil
}

// promptCommand renders an extension prompt named like the command. The
// text after the name fills the first argument (or key=value pairs).
func (t *turn) promptCommand(name, rest string) ([]conversation.Message, bool, error) {
	prompts, err := t.s.mgr.ListPrompts(t.ctx)
	if err != nil {
		return nil, false, nil
	}
	for _, p := range prompts {
		if p.Prompt.Name != name {
			continue
		}
		res, err := t.s.mgr.GetPrompt(t.ctx, p.Extension, name, promptArgs(p.Prompt, rest))
		if err != nil {
			return nil, true, fmt.Errorf("prompt %s: %w", name, err)
		}
		return t.promptMessages(res), true, nil
	}
	return nil, false, nil
}

func promptArgs(p *mcp.Prompt, rest string) map[string]string {
	args := map[string]string{}
	if rest == "" {
		return args
	}
	if strings.Contains(rest, "=") {
		for _, f := range strings.Fields(rest) {
			if k, v, ok := strings.Cut(f, "="); ok {
				args[k] = v
			}
		}
		return args
	}
	if len(p.Arguments) > 0 {
		args[p.Arguments[0].Name] = rest
	}
	return args
}

func (t *turn) promptMessages(res *mcp.GetPromptResult) []conversation.Message {
	now := t.a.now().Unix()
	var out []conversation.Message
	for _, pm := range res.Messages {
		role := conversation.RoleUser
		if pm.Role == "assistant" {
			role = conversation.RoleAssistant
		}
		m := conversation.NewMessage(role, now).WithID(t.a.msgID())
		switch c := pm.Content.(type) {
		case *mcp.TextContent:
			m = m.WithText(c.Text)
		case *mcp.ImageContent:
			m = m.With(conversation.Image(base64.StdEncoding.EncodeToString(c.Data), c.MIMEType))
		case *mcp.EmbeddedResource:
			if c.Resource != nil && c.Resource.Text != "" {
				m = m.WithText(c.Resource.Text)
			}
		}
		if len(m.Content) > 0 {
			out = append(out, m)
		}
	}
	return out
}
