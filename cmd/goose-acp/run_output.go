package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/permission"
)

// replyPrinter streams a turn: assistant text to out as it arrives, tool
// calls (goose's "─── tool | extension ───" header with the arguments)
// and a short result line to diag. When out is a *runOutput it also knows
// the output format and whether a person is watching a terminal: then
// headers and results are coloured, thinking is shown dimmed and approval
// requests are asked inline; otherwise approvals are refused and
// elicitations declined, since nobody can be asked.
type replyPrinter struct {
	agent     *agent.Agent
	sessionID string
	out, diag io.Writer
	quiet     bool

	lastID         string
	midLine        bool // out holds text not ended by a newline
	thinking       bool // diag holds thinking not ended by a newline
	finalIDs       map[string]bool
	finalCollected bool
	calls          map[string]string // tool call id → title, for result lines
}

// run is out's rendering options (nil: plain text, nobody to ask).
func (p *replyPrinter) run() *runOutput {
	ro, _ := p.out.(*runOutput)
	return ro
}

func (p *replyPrinter) handle(ev agent.Event) {
	if e, ok := ev.(agent.NoticeEvent); ok {
		// goose's form: an inline system notification message.
		ev = agent.MessageEvent{Message: e.Message}
	}
	ro := p.run()
	if ro != nil && ro.format != formatText {
		ro.event(ev)
	}
	if e, ok := ev.(agent.MessageEvent); ok {
		p.message(e.Message, ro != nil && ro.format != formatText)
	}
}

// message renders m; with machineReadable only the bookkeeping (final
// output, approvals) happens, the JSON stream carries the rest.
func (p *replyPrinter) message(m conversation.Message, machineReadable bool) {
	for _, c := range m.Content {
		switch {
		case c.ActionRequired != nil:
			p.action(c.ActionRequired.Data)
		case c.ToolRequest != nil:
			p.toolRequest(c.ToolRequest, machineReadable)
		case c.ToolResponse != nil:
			p.toolResponse(c.ToolResponse, machineReadable)
		case machineReadable:
		case c.Text != nil && m.Role == conversation.RoleAssistant:
			p.text(m.IDOrEmpty(), c.Text.Text)
		case c.Thinking != nil && m.Role == conversation.RoleAssistant:
			p.thought(c.Thinking.Thinking)
		case c.SystemNotification != nil && c.SystemNotification.NotificationType != conversation.NotificationThinking:
			p.note("%s", c.SystemNotification.Msg)
		}
	}
}

func (p *replyPrinter) text(id, s string) {
	if s == "" {
		return
	}
	p.endThought()
	if id != p.lastID && p.midLine {
		p.endLine()
	}
	p.lastID = id
	io.WriteString(p.out, s)
	p.midLine = !strings.HasSuffix(s, "\n")
}

// thought shows the model's thinking dimmed, in a terminal only: piped
// output carries the reply alone.
func (p *replyPrinter) thought(s string) {
	ro := p.run()
	if s == "" || p.quiet || ro == nil || !ro.tty {
		return
	}
	p.endLine()
	io.WriteString(p.diag, ro.paint(styleDim, s))
	p.thinking = !strings.HasSuffix(s, "\n")
}

func (p *replyPrinter) endThought() {
	if p.thinking {
		io.WriteString(p.diag, "\n")
		p.thinking = false
	}
}

// endLine ends the current line of assistant text, so diagnostics and
// the shell prompt start on their own line.
func (p *replyPrinter) endLine() {
	p.endThought()
	if p.midLine {
		io.WriteString(p.out, "\n")
		p.midLine = false
	}
}

// toolLineWidth bounds one argument's value on a tool line.
const toolLineWidth = 100

func (p *replyPrinter) toolRequest(r *conversation.ToolRequest, machineReadable bool) {
	if r.ToolCall.Value == nil {
		if !machineReadable {
			p.note("─── invalid tool call: %s", r.ToolCall.Error)
		}
		return
	}
	call := *r.ToolCall.Value
	if call.Name == agent.FinalOutputToolName {
		p.finalIDs[r.ID] = true
	}
	if p.calls == nil {
		p.calls = map[string]string{}
	}
	p.calls[r.ID] = toolTitle(call.Name)
	if p.quiet || machineReadable {
		return
	}
	p.endLine()
	fmt.Fprintf(p.diag, "%s\n", p.paint(styleHeader, "─── "+toolTitle(call.Name)+" ──────────────────────────"))
	keys := make([]string, 0, len(call.Arguments))
	for k := range call.Arguments {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(p.diag, "%s: %s\n", p.paint(styleDim, k), shortValue(call.Arguments[k]))
	}
}

// toolResponse prints one short line for the result: its first line and
// how many more there are, or the error.
func (p *replyPrinter) toolResponse(r *conversation.ToolResponse, machineReadable bool) {
	res := r.ToolResult
	failed := res.Value == nil || res.Value.IsError
	if p.finalIDs[r.ID] && !failed {
		p.finalCollected = true
	}
	if p.quiet || machineReadable {
		return
	}
	msg := res.Error
	if res.Value != nil {
		for _, c := range res.Value.Content {
			if c.Text != "" {
				msg = c.Text
				break
			}
		}
	}
	p.endLine()
	if failed {
		fmt.Fprintf(p.diag, "    %s\n", p.paint(styleError, "error: "+truncate(firstLine(msg), toolLineWidth)))
		return
	}
	fmt.Fprintf(p.diag, "    %s\n", p.paint(styleDim, "→ "+resultSummary(msg)))
}

// resultSummary is a result's first non-empty line, cut, with the count
// of lines left out.
func resultSummary(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return "done (no output)"
	}
	out := truncate(strings.TrimSpace(lines[0]), toolLineWidth)
	if n := len(lines) - 1; n > 0 {
		out += fmt.Sprintf(" (+%d more lines)", n)
	}
	return out
}

// action answers what the agent asks mid-turn: a tool approval is asked
// inline when a person is at the terminal, otherwise denied; elicitations
// are declined. These lines are never quieted.
func (p *replyPrinter) action(d conversation.ActionData) {
	p.endLine()
	switch d.ActionType {
	case conversation.ActionToolConfirmation:
		if ro := p.run(); ro != nil && ro.asker != nil {
			p.confirm(p.ask(ro, d), d)
			return
		}
		err := p.agent.Confirm(p.sessionID, d.ID, permission.DenyOnce)
		fmt.Fprintf(p.diag, "Denied tool call %s: approvals cannot be asked in a headless run (set GOOSE_MODE=auto to allow tool calls)\n", toolTitle(d.ToolName))
		if err != nil {
			fmt.Fprintf(p.diag, "    (could not answer the approval request: %v)\n", err)
		}
	case conversation.ActionElicitation:
		_ = p.agent.SubmitElicitation(p.sessionID, d.ID, agent.ElicitDecline, nil)
		fmt.Fprintf(p.diag, "Declined a request for input (%s): a headless run cannot ask for input\n", truncate(firstLine(d.Message), toolLineWidth))
	}
}

// ask puts goose's approval question to the person at the terminal.
func (p *replyPrinter) ask(ro *runOutput, d conversation.ActionData) permission.Decision {
	for {
		fmt.Fprint(p.diag, p.paint(styleHeader, "◆ goose would like to call the above tool ("+toolTitle(d.ToolName)+"), do you allow?")+
			" [y] allow once, [a] always allow, [n] deny: ")
		line, ok := ro.asker.line(ro.ctx)
		if !ok {
			fmt.Fprintln(p.diag)
			return permission.Cancel
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "y", "yes":
			return permission.AllowOnce
		case "a", "always":
			return permission.AlwaysAllow
		case "n", "no":
			return permission.DenyOnce
		}
	}
}

func (p *replyPrinter) confirm(dec permission.Decision, d conversation.ActionData) {
	if err := p.agent.Confirm(p.sessionID, d.ID, dec); err != nil {
		fmt.Fprintf(p.diag, "    (could not answer the approval request: %v)\n", err)
	}
}

func (p *replyPrinter) note(format string, args ...any) {
	if p.quiet {
		return
	}
	p.endLine()
	fmt.Fprintf(p.diag, format+"\n", args...)
}

func (p *replyPrinter) paint(s style, text string) string {
	if ro := p.run(); ro != nil {
		return ro.paint(s, text)
	}
	return text
}

// toolTitle is goose's "tool | extension" for a prefixed tool name.
func toolTitle(name string) string {
	if ext, tool, ok := strings.Cut(name, "__"); ok {
		return tool + " | " + ext
	}
	return name
}

// shortValue renders an argument on one line, truncated.
func shortValue(v any) string {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			s = fmt.Sprint(v)
		} else {
			s = string(b)
		}
	}
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ⏎ ")), " ")
	return truncate(s, toolLineWidth)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// truncate cuts s to at most n runes, marking the cut.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
