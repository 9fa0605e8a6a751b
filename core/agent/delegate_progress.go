package agent

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension/platform"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// delegateProgressLines bounds the tool-call lines a progress message
// carries (the newest are kept).
const delegateProgressLines = 20

// delegateProgress renders a subagent's progress for its parent's tool
// call: goose's "Running subagent <id> (<task>)" line, then one line per
// tool call the subagent made. Each notification carries the whole text,
// so a client can show the latest one as the tool call's content.
type delegateProgress struct {
	callID, header string
	cwd            string // the subagent's working dir: paths inside it are shown relative
	infoOf         func(tool string) toolinfo.Info
	mu             sync.Mutex
	lines          []string
	count          int
}

func newDelegateProgress(childID, task, callID, cwd string, infoOf func(string) toolinfo.Info) *delegateProgress {
	snippet := strings.Join(strings.Fields(task), " ")
	if r := []rune(snippet); len(r) > 80 {
		snippet = string(r[:77]) + "..."
	}
	header := "Running subagent " + childID
	if snippet != "" {
		header += " (" + snippet + ")"
	}
	return &delegateProgress{callID: callID, header: header, cwd: cwd, infoOf: infoOf}
}

// observe records the tool calls of a child message; it reports whether
// anything changed.
func (p *delegateProgress) observe(m conversation.Message) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	changed := false
	for _, c := range m.Content {
		r := c.ToolRequest
		if r == nil || !r.ToolCall.IsOK() {
			continue
		}
		call := r.ToolCall.Value
		// Titled as the editor titles tool calls ("Run ls"), not by
		// the prefixed tool name.
		title := toolinfo.Title(call.Name, call.Arguments, p.infoOf(call.Name), p.cwd)
		p.lines = append(p.lines, "• "+clipLine(title))
		p.count++
		changed = true
	}
	if len(p.lines) > delegateProgressLines {
		p.lines = p.lines[len(p.lines)-delegateProgressLines:]
	}
	return changed
}

// event is the progress notification for the parent's tool call.
func (p *delegateProgress) event() NotificationEvent {
	p.mu.Lock()
	text := p.header
	if len(p.lines) > 0 {
		text += "\n" + strings.Join(p.lines, "\n")
	}
	n := p.count
	p.mu.Unlock()
	params, _ := json.Marshal(map[string]any{"progressToken": p.callID, "progress": n, "message": text})
	return NotificationEvent{RequestID: p.callID, Extension: platform.Summon, Method: "notifications/progress", Params: params}
}

func clipLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return fmt.Sprint(s)
}
