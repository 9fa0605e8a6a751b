package developer

import "context"

// FileIO is how every developer tool reads and writes files. The default is
// the local disk; the ACP adapter supplies one that calls the editor's
// fs/read_text_file and fs/write_text_file so unsaved buffers are seen and a
// rejected write never touches disk.
//
// Implementations must be safe for concurrent use: the model may ask for
// several tool calls at once and the agent runs them in parallel, so two
// reads or writes (of the same file or not) can be in flight together.
type FileIO interface {
	// ReadTextFile returns the file's text. line is 1-based (0 = from the
	// start) and limit is a line count (0 = to the end).
	ReadTextFile(ctx context.Context, path string, line, limit int) (string, error)
	// WriteTextFile replaces the file's content, creating parent dirs.
	WriteTextFile(ctx context.Context, path, content string) error
}

// TerminalRequest is what Terminal.Create runs.
type TerminalRequest struct {
	Command string
	Args    []string
	Env     map[string]string
	Cwd     string
	// OutputByteLimit bounds retained output; 0 means the implementation's
	// default.
	OutputByteLimit int
}

// ExitStatus is how a terminal's command ended. ExitCode is nil when it was
// ended by a signal.
type ExitStatus struct {
	ExitCode *int
	Signal   string
}

// TerminalOutput is a terminal's retained output so far.
type TerminalOutput struct {
	Output     string
	Truncated  bool
	ExitStatus *ExitStatus
}

// Terminal runs shell commands somewhere else (the editor's terminal over
// ACP). When none is given, shell runs local processes.
//
// Implementations must be safe for concurrent use: the agent runs parallel
// shell calls on their own goroutines, so Create, WaitForExit, Kill and
// Release of different terminals are in flight together.
type Terminal interface {
	Create(ctx context.Context, req TerminalRequest) (id string, err error)
	Output(ctx context.Context, id string) (TerminalOutput, error)
	WaitForExit(ctx context.Context, id string) (ExitStatus, error)
	Kill(ctx context.Context, id string) error
	Release(ctx context.Context, id string) error
}

// Event is progress a tool reports while it runs: a line of shell output, a
// terminal id, the locations or diff of an edit. Emitters must not block for
// long and their failures never fail the tool.
type Event struct {
	// ToolCallID is the request id of the call that produced the event.
	ToolCallID string
	// Kind is "started" (the call began running, after any approval),
	// "shell_output", "terminal", "locations" or "diff".
	Kind string
	// Stream is "stdout" or "stderr" for shell_output.
	Stream     string
	Output     string
	TerminalID string
	Path       string
	Lines      []int
	OldText    *string
	NewText    string
}

// Emitter receives tool progress events.
type Emitter interface {
	Emit(ctx context.Context, ev Event)
}
