package extension

import "context"

// ToolProgress is progress an in-process tool reports while it runs: that
// it started, a line of its shell output, the terminal it runs in, the
// locations or the diff of an edit. The agent turns it into an event on
// the session's stream (agent.ToolProgressEvent), which faces show as
// updates of the tool call.
type ToolProgress struct {
	// ToolCallID is the agent's id of the call (the request id).
	ToolCallID string
	// Kind is one of the ToolProgress kinds.
	Kind string
	// Stream is "stdout" or "stderr" for ProgressShellOutput.
	Stream     string
	Output     string
	TerminalID string
	Path       string
	// Lines are 1-based lines of Path an edit touched.
	Lines   []int
	OldText *string
	NewText string
}

// ToolProgress kinds.
const (
	ProgressStarted     = "started"
	ProgressShellOutput = "shell_output"
	ProgressTerminal    = "terminal"
	ProgressLocations   = "locations"
	ProgressDiff        = "diff"
)

// progress passes p to the agent (Hooks.Progress); without one it is
// dropped.
func (m *Manager) progress(_ context.Context, p ToolProgress) {
	if m.opts.Hooks.Progress != nil && p.ToolCallID != "" {
		m.opts.Hooks.Progress(p)
	}
}
