package acp

import "strings"

// What a running command printed, for clients that show it nowhere while
// it runs (no terminal of their own, no _meta.terminal_output display:
// Emacs agent-shell, acpx). A completed command's result carries its
// output; a cancelled one's result is only the cancel text, so the call's
// final update shows the tail of what it printed before it.

const (
	// shellTailBytes bounds what is kept of a running command's output.
	shellTailBytes = 16 << 10
)

// shellTail is the last shellTailBytes of a command's output (its lines
// as the shell tool reports them, newlines included).
type shellTail struct {
	b   strings.Builder
	cut bool
}

func (t *shellTail) add(line string) {
	t.b.WriteString(line)
	if t.b.Len() > 2*shellTailBytes {
		s := t.b.String()
		s = s[len(s)-shellTailBytes:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		t.b.Reset()
		t.b.WriteString(s)
		t.cut = true
	}
}

func (t *shellTail) text() string {
	s := t.b.String()
	if len(s) > shellTailBytes {
		s = s[len(s)-shellTailBytes:]
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		t.cut = true
	}
	if t.cut {
		s = "…\n" + s
	}
	return strings.TrimRight(s, "\n")
}

// recordShellOutput keeps what a command printed.
func (as *acpSession) recordShellOutput(toolCallID, line string) {
	as.mu.Lock()
	defer as.mu.Unlock()
	if as.shellOut == nil {
		as.shellOut = map[string]*shellTail{}
	}
	t := as.shellOut[toolCallID]
	if t == nil {
		t = &shellTail{}
		as.shellOut[toolCallID] = t
	}
	t.add(line)
}

// keepShellOutput puts what a command printed before the cancel text of
// a call that ended without a result of its own and shows no terminal.
// Whatever the outcome, the call's kept output is forgotten.
func keepShellOutput(as *acpSession, u *SessionUpdate, ranToAResult bool) {
	as.mu.Lock()
	t := as.shellOut[u.ToolCallID]
	delete(as.shellOut, u.ToolCallID)
	as.mu.Unlock()
	if t == nil || ranToAResult || u.Status != "failed" {
		return
	}
	for _, c := range u.ToolContent {
		if c.Type == "terminal" {
			return
		}
	}
	out := ToolCallContent{Type: "content", Content: &ContentBlock{Type: "text", Text: t.text()}}
	u.ToolContent = append([]ToolCallContent{out}, u.ToolContent...)
}
