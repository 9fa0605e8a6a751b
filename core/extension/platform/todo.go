package platform

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// TodoKey is the extension_data key holding the todo content.
const TodoKey = "todo.v0"

// DefaultTodoMaxChars is goose's GOOSE_TODO_MAX_CHARS default.
const DefaultTodoMaxChars = 50_000

const todoInstructions = `Your todo content is automatically available in your context.

Workflow:
- Start: write initial checklist
- During: update progress
- End: verify all complete

Template:
- [x] Requirement 1
- [ ] Task
  - [ ] Sub-task
- [ ] Requirement 2
- [ ] Another task
`

const todoDescription = `Overwrite the entire TODO content.

The content persists across conversation turns and compaction. Use this for:
- Task tracking and progress updates
- Important notes and reminders

WARNING: This operation completely replaces the existing content. Always include
all content you want to keep, not just the changes.
`

type todoState struct {
	Content string `json:"content"`
}

// TodoContent reads a session's todo content from its extension data.
func TodoContent(d session.ExtensionData) string {
	var st todoState
	if raw, ok := d[TodoKey]; ok {
		_ = json.Unmarshal(raw, &st)
	}
	return st.Content
}

// todoServer is todo's server, one per process; todo_write finds the
// session it writes to by its request's server session.
var todoServer = newSharedServer(Todo, func(sh *sharedServer) *inproc.Server {
	s := newServer(Todo, "Todo", todoInstructions)
	s.AddTool(&mcp.Tool{
		Name: "todo_write", Description: todoDescription,
		InputSchema: json.RawMessage(`{"$schema":"http://json-schema.org/draft-07/schema#","title":"TodoWriteParams","type":"object","required":["content"],"properties":{"content":{"type":"string"}}}`),
		Annotations: &mcp.ToolAnnotations{Title: "Write TODO", DestructiveHint: boolp(true), OpenWorldHint: boolp(false)},
		Meta:        declare(toolinfo.Think),
	}, sh.handle(func(ctx context.Context, b *binding, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return b.d.todoWrite(ctx, b.env.SessionID, req)
	}))
	return s
})

func (d Deps) todo(ctx context.Context, env extension.Env) (extension.Platform, error) {
	moim := func(ctx context.Context) string {
		sess, err := d.Store.Get(ctx, env.SessionID, false)
		if err != nil {
			return ""
		}
		if c := TodoContent(sess.ExtensionData); strings.TrimSpace(c) != "" {
			return "Current tasks and notes:\n" + c + "\n"
		}
		return "Current tasks and notes:\nOnce given a task, immediately update your todo with all explicit and implicit requirements\n"
	}
	p := todoServer.platform(&binding{d: d, env: env})
	p.MOIM = moim
	return p, nil
}

func (d Deps) todoWrite(ctx context.Context, sessionID string, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var p struct {
		Content *string `json:"content"`
	}
	if err := decode(req, &p); err != nil || p.Content == nil {
		return errorResult("Missing required parameter: content"), nil
	}
	n := utf8.RuneCountInString(*p.Content)
	max := DefaultTodoMaxChars
	if v, err := strconv.Atoi(d.Getenv("GOOSE_TODO_MAX_CHARS")); err == nil {
		max = v
	}
	if max > 0 && n > max {
		return errorResult("Todo list too large: %d chars (max: %d)", n, max), nil
	}
	sess, err := d.Store.Get(ctx, sessionID, false)
	if err != nil {
		return errorResult("Failed to read session metadata"), nil
	}
	data := session.ExtensionData{}
	for k, v := range sess.ExtensionData {
		data[k] = v
	}
	raw, _ := json.Marshal(todoState{Content: *p.Content})
	data[TodoKey] = raw
	if err := d.Store.Update(ctx, sessionID, session.Update{ExtensionData: data}); err != nil {
		return errorResult("Failed to update session metadata"), nil
	}
	return textResult("Updated (" + strconv.Itoa(n) + " chars)"), nil
}
