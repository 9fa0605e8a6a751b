package developer

import (
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MetaKeyTool is the tools/list _meta entry under which every developer
// tool declares its ToolMeta, so a host learns what each tool does from
// the tool definition rather than from its name.
const MetaKeyTool = "goose-acp/tool"

// Tool kinds a ToolMeta names.
const (
	KindRead    = "read"
	KindEdit    = "edit"
	KindExecute = "execute"
	KindSearch  = "search"
	KindFetch   = "fetch"
	KindOther   = "other"
)

// ToolMeta is what a tool declares about itself beyond its schema: its
// kind, and which argument holds what. Argument fields name an argument
// of the tool's input schema; empty means the tool has none.
type ToolMeta struct {
	Kind string `json:"kind"`
	// Path is the file or directory the tool acts on.
	Path string `json:"path,omitempty"`
	// TextFile: Path names a text file (or a directory) the tool reads or
	// edits, so that directory's hint files apply to the work.
	TextFile bool `json:"textFile,omitempty"`
	// Line is a 1-based start line; Range an array whose first element is.
	Line  string `json:"line,omitempty"`
	Range string `json:"range,omitempty"`
	// Before and After are an edit's old and new text; Content a whole
	// new file's text.
	Before  string `json:"before,omitempty"`
	After   string `json:"after,omitempty"`
	Content string `json:"content,omitempty"`
	// Terminal: the tool runs a command and streams its output while it
	// runs ("shell_output" events), so a host may show the call as a live
	// terminal from its start.
	Terminal bool `json:"terminal,omitempty"`
	// Verb is the action a call performs as a title names it ("Write",
	// "List"), where the kind alone says it too coarsely; VerbArg names an
	// argument whose value picks the verb from Verbs (text_editor's
	// command), Verb being the default.
	Verb    string            `json:"verb,omitempty"`
	VerbArg string            `json:"verbArg,omitempty"`
	Verbs   map[string]string `json:"verbs,omitempty"`
}

// toolMetas is the one declaration of what each developer tool is; both
// surfaces publish it (a name means the same tool on either).
var toolMetas = map[string]ToolMeta{
	"shell": {Kind: KindExecute, Terminal: true},
	"text_editor": {Kind: KindEdit, Path: "path", TextFile: true, Range: "view_range", Before: "old_str", After: "new_str", Content: "file_text",
		Verb: "Edit", VerbArg: "command", Verbs: map[string]string{"view": "Read", "write": "Write", "create": "Write", "undo_edit": "Undo edit of"}},
	"read":            {Kind: KindRead, Path: "path", TextFile: true, Line: "line"},
	"write":           {Kind: KindEdit, Path: "path", TextFile: true, Content: "content", Verb: "Write"},
	"edit":            {Kind: KindEdit, Path: "path", TextFile: true, Before: "before", After: "after"},
	"tree":            {Kind: KindRead, Path: "path", Verb: "List"},
	"analyze":         {Kind: KindSearch, Path: "path", Verb: "Analyze"},
	"read_image":      {Kind: KindRead, Verb: "View"},
	"python":          {Kind: KindExecute},
	"image_processor": {Kind: KindEdit, Path: "path"},
	"list_windows":    {Kind: KindOther},
	"screen_capture":  {Kind: KindOther},
}

// addTool registers a tool with its ToolMeta in _meta. A tool without an
// entry in toolMetas is a programming error: it panics when the server is
// built, so no test that builds one can miss it.
func addTool(srv registrar, t *mcp.Tool, h mcp.ToolHandler) {
	m, ok := toolMetas[t.Name]
	if !ok {
		panic(fmt.Sprintf("developer: tool %q has no ToolMeta", t.Name))
	}
	if t.Meta == nil {
		t.Meta = mcp.Meta{}
	}
	t.Meta[MetaKeyTool] = m
	srv.AddTool(t, h)
}

// registrar is where tools and prompts are registered: a go-sdk server
// (NewServer, ServeStdio) or an in-process one the agent calls directly
// (NewDirect).
type registrar interface {
	AddTool(t *mcp.Tool, h mcp.ToolHandler)
	AddPrompt(p *mcp.Prompt, h mcp.PromptHandler)
}
