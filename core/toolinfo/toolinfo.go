package toolinfo

import (
	"encoding/json"
	"strings"
)

// MetaKey is the tool _meta entry that holds an Info.
const MetaKey = "goose-acp/tool"

// Kinds, in the vocabulary editors show (ACP's ToolKind values).
const (
	Read    = "read"
	Edit    = "edit"
	Execute = "execute"
	Search  = "search"
	Fetch   = "fetch"
	Think   = "think"
	Other   = "other"
)

// Info is what a tool declares about itself. Argument fields name an
// argument of the tool's input schema; empty means the tool has none.
type Info struct {
	Kind string `json:"kind,omitempty"`
	// Path is the file or directory the tool acts on.
	Path string `json:"path,omitempty"`
	// TextFile: Path names a text file (or a directory) the tool reads or
	// edits, so that directory's hint files apply to the work.
	TextFile bool `json:"textFile,omitempty"`
	// Line is a 1-based line the tool starts at; Range an array whose first
	// element is one.
	Line  string `json:"line,omitempty"`
	Range string `json:"range,omitempty"`
	// Before and After are an edit's old and new text; Content a whole new
	// file's text.
	Before  string `json:"before,omitempty"`
	After   string `json:"after,omitempty"`
	Content string `json:"content,omitempty"`
	// Terminal: the tool runs a command and streams its output while it
	// runs, so a client may show the call as a live terminal from its
	// start (Zed's _meta.terminal_info on the tool_call).
	Terminal bool `json:"terminal,omitempty"`
	// Verb is the action a call performs as a title names it ("Write",
	// "List"), where the kind alone says it too coarsely; VerbArg names an
	// argument whose value picks the verb from Verbs (text_editor's
	// command), Verb being the default.
	Verb    string            `json:"verb,omitempty"`
	VerbArg string            `json:"verbArg,omitempty"`
	Verbs   map[string]string `json:"verbs,omitempty"`
}

// FromMeta decodes the Info a tool published in its _meta; false when it
// published none (or one that is not an object).
func FromMeta(meta map[string]any) (Info, bool) {
	v, ok := meta[MetaKey]
	if !ok {
		return Info{}, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return Info{}, false
	}
	var info Info
	if err := json.Unmarshal(b, &info); err != nil {
		return Info{}, false
	}
	if info.Kind == "" {
		info.Kind = Other
	}
	return info, true
}

// Guess is the Info of a tool that declares none: a kind from the bare
// tool name (the part after "<extension>__"), as goose's ACP agent maps
// conventional names, and no argument roles, so nothing is read out of
// its arguments.
func Guess(name string) Info {
	if _, tool, ok := strings.Cut(name, "__"); ok {
		name = tool
	}
	switch name {
	case "read", "view", "tree", "read_image":
		return Info{Kind: Read}
	case "write", "edit", "text_editor", "str_replace", "insert", "image_processor":
		return Info{Kind: Edit}
	case "shell":
		return Info{Kind: Execute}
	case "analyze", "search", "grep", "glob", "find":
		return Info{Kind: Search}
	case "fetch", "web_fetch":
		return Info{Kind: Fetch}
	}
	return Info{Kind: Other}
}

// PathOf returns the declared path argument when it is a non-empty string.
func (i Info) PathOf(args map[string]any) (string, bool) {
	return str(args, i.Path)
}

// LineOf returns the 1-based start line: the Line argument, else the first
// element of the Range argument; false when neither holds one.
func (i Info) LineOf(args map[string]any) (int, bool) {
	if n, ok := args[i.Line].(float64); ok && i.Line != "" && n >= 1 {
		return int(n), true
	}
	if r, ok := args[i.Range].([]any); ok && i.Range != "" && len(r) > 0 {
		if n, ok := r[0].(float64); ok && n >= 1 {
			return int(n), true
		}
	}
	return 0, false
}

// Change is the text change an edit's arguments propose. Before is nil for
// a whole-file write.
type Change struct {
	Before *string
	After  string
}

// ChangeOf previews the change an edit tool's arguments propose: the
// After argument (with Before, "" when absent), else the whole Content;
// false when the call carries neither (a view, an undo).
func (i Info) ChangeOf(args map[string]any) (Change, bool) {
	if i.Kind != Edit {
		return Change{}, false
	}
	if after, ok := args[i.After].(string); ok && i.After != "" {
		before, _ := args[i.Before].(string)
		return Change{Before: &before, After: after}, true
	}
	if content, ok := args[i.Content].(string); ok && i.Content != "" {
		return Change{After: content}, true
	}
	return Change{}, false
}

func str(args map[string]any, key string) (string, bool) {
	if key == "" {
		return "", false
	}
	s, ok := args[key].(string)
	return s, ok && s != ""
}
