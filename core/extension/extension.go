package extension

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/extension/inproc"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/toolinfo"
)

// extension is one connected extension.
type extension struct {
	cfg          config.ExtensionConfig
	session      *mcp.ClientSession // nil for frontend and direct extensions
	direct       *inproc.Server     // in-process server called directly
	instructions string
	hasResources bool
	hasPrompts   bool
	moim         func(context.Context) string
	offer        func(tool string) bool
	closers      []func()
	// conn is the shared connection this extension uses (nil when the
	// manager owns the connection) and mgr the manager it belongs to.
	conn *conn
	mgr  *Manager

	mu     sync.Mutex
	key    string
	tools  []Tool // nil: must be (re)listed
	gen    int    // bumped by retag: a listing begun before is not kept
	active []string
}

func (e *extension) getKey() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.key
}

// retag forces tools to be relisted under the current key.
func (e *extension) retag() {
	e.mu.Lock()
	e.tools = nil
	e.gen++
	e.mu.Unlock()
}

func (e *extension) markToolsChanged() { e.retag() }

func (e *extension) close() {
	if e.conn != nil {
		e.conn.detach(e)
		return
	}
	if e.session != nil {
		_ = e.session.Close()
	}
	for i := len(e.closers) - 1; i >= 0; i-- {
		e.closers[i]()
	}
}

// allowed applies the available_tools filter (empty allows everything).
func (e *extension) allowed(tool string) bool {
	return len(e.cfg.AvailableTools) == 0 || slices.Contains(e.cfg.AvailableTools, tool)
}

func (e *extension) listTools(ctx context.Context, log *slog.Logger) []Tool {
	e.mu.Lock()
	if e.tools != nil {
		out := e.tools
		e.mu.Unlock()
		return out
	}
	key, gen := e.key, e.gen
	e.mu.Unlock()
	var tools []Tool
	switch {
	case e.direct != nil:
		tools = directTools(e.cfg, key, e.direct)
	case e.session == nil:
		tools = frontendTools(key, e.cfg)
	default:
		for t, err := range e.session.Tools(ctx, nil) {
			if err != nil {
				log.Warn("listing tools failed", "extension", key, "error", err)
				break
			}
			tools = append(tools, convertTool(e.cfg, key, t))
		}
	}
	tools = slices.DeleteFunc(tools, func(t Tool) bool { return !e.allowed(t.Local) || e.offer != nil && !e.offer(t.Local) })
	if tools == nil {
		tools = []Tool{}
	}
	e.mu.Lock()
	if e.key == key && e.gen == gen {
		e.tools = tools
	}
	e.mu.Unlock()
	return tools
}

func convertTool(cfg config.ExtensionConfig, key string, t *mcp.Tool) Tool {
	schema, err := json.Marshal(t.InputSchema)
	if err != nil || string(schema) == "null" {
		schema = json.RawMessage(`{"type":"object"}`)
	}
	out := Tool{Name: publicName(cfg, key, t.Name), Extension: key, Local: t.Name, Description: t.Description, InputSchema: schema}
	out.Info = toolInfo(out.Name, t.Meta)
	out.AppURI = appURI(t.Meta)
	if a := t.Annotations; a != nil {
		ro, idem := a.ReadOnlyHint, a.IdempotentHint
		out.Annotations = &provider.ToolAnnotations{Title: a.Title, ReadOnlyHint: &ro, DestructiveHint: a.DestructiveHint, IdempotentHint: &idem, OpenWorldHint: a.OpenWorldHint}
	}
	return out
}

// appURI is the ui:// resource an MCP App tool declares in
// _meta.ui.resourceUri ("" for other tools).
func appURI(meta mcp.Meta) string {
	ui, _ := meta["ui"].(map[string]any)
	uri, _ := ui["resourceUri"].(string)
	return uri
}

// toolInfo is what the tool declares in its _meta, else a guess from its
// name; decoded here once, for every reader of the tool definition.
func toolInfo(name string, meta mcp.Meta) toolinfo.Info {
	if info, ok := toolinfo.FromMeta(meta); ok {
		return info
	}
	return toolinfo.Guess(name)
}

func frontendTools(key string, cfg config.ExtensionConfig) []Tool {
	var out []Tool
	for _, raw := range cfg.Tools {
		var t mcp.Tool
		if err := json.Unmarshal(raw, &t); err != nil || t.Name == "" {
			continue
		}
		ft := convertTool(cfg, key, &t)
		ft.Frontend = true
		out = append(out, ft)
	}
	return out
}

// begin/end track the calls running on this extension so notifications
// without a progress token reach every one of them, as goose's per-call
// subscriptions do.
func (e *extension) begin(callID string) {
	e.mu.Lock()
	e.active = append(e.active, callID)
	e.mu.Unlock()
}

func (e *extension) end(callID string) {
	e.mu.Lock()
	if i := slices.Index(e.active, callID); i >= 0 {
		e.active = slices.Delete(e.active, i, i+1)
	}
	e.mu.Unlock()
}

func (e *extension) activeCalls() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.active)
}
