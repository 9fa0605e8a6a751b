package acp

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/recipe"
	"github.com/goose-acp/goose-acp/core/session"
)

// ListPageSize is how many sessions one session/list page holds.
const ListPageSize = 50

// sessionsAPI answers ACP's session lifecycle (new, load, resume, list,
// close, delete, fork) through the agent; conn is what a session needs of
// this connection (the editor's tools, its updates).
type sessionsAPI struct {
	// agent starts and resumes sessions.
	agent    *agent.Agent
	sessions agent.Sessions
	recipes  agent.Recipes
	store    agent.SessionReader
	loaded   *loadedSessions
	options  *optionsAPI
	// library holds the saved recipes session/new's _meta.recipeId names.
	library *recipe.Library
	// builtins are Options.Builtins.
	builtins []string
	// extensionsFirst is Options.ExtensionsFirst.
	extensionsFirst bool
	conn            sessionConn
	// tools are the developer tools bound to this editor (prompt_tools.go).
	tools func(roots []string) map[string]extension.BuiltinFactory
	// notes sends goose's usage_update after new and load.
	notes *notifier
	// caps are the client's capabilities.
	caps func() ClientCapabilities
	log  *slog.Logger
}

// elicitURL: the client takes URL-mode elicitations (elicitation.go), so
// its sessions' MCP servers may ask in that mode.
func (a *sessionsAPI) elicitURL() bool { return a.caps != nil && elicitationModesOf(a.caps()).url }

// sessionConn is what the sessions area needs of its connection (the
// Server): the developer tools bound to this editor, a session's
// translator, the frames a session sends on load and once it is ready,
// the provider check, and asking the client.
type sessionConn interface {
	track(sess *session.Session) *acpSession
	replay(as *acpSession, conv []conversation.Message)
	afterSetup(ctx context.Context, as *acpSession, sess *session.Session, results []extensionResult)
	requireProvider() error
	gooseCapability(name string) bool
	call(ctx context.Context, method string, params, result any) error
}

func (a *sessionsAPI) methods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"session/new":    typed(a.newSession),
		"session/load":   typed(a.load),
		"session/resume": typed(a.resume),
		"session/list":   typed(a.list),
		"session/close":  typed(a.closeSession),
		"session/delete": typed(a.deleteSession),
		"session/fork":   typed(a.fork),
	}
}

func (a *sessionsAPI) newSession(ctx context.Context, req NewSessionRequest) (any, error) {
	if !filepath.IsAbs(req.CWD) {
		return nil, invalidParams("cwd must be an absolute path: %q", req.CWD)
	}
	exts, err := mcpExtensions(req.MCPServers)
	if err != nil {
		return nil, err
	}
	if err := checkRoots(req.AdditionalDirectories); err != nil {
		return nil, err
	}
	name, err := sessionTitle(req.Meta)
	if err != nil {
		return nil, err
	}
	if err := checkedProvider(ctx, a.conn.requireProvider); err != nil {
		return nil, err
	}
	mr, err := a.recipeFromMeta(req.Meta, req.CWD)
	if err != nil {
		return nil, err
	}
	// Extensions connect while the editor gets its answer; a recipe start
	// asks for its values with them connected.
	opts := agent.StartOptions{
		WorkingDir: req.CWD, Type: session.TypeUser, Name: name, Extensions: append(a.builtinExtensions(), exts...),
		UseConfiguredExtensions: true, Builtins: a.tools(req.AdditionalDirectories),
		ConnectInBackground: mr == nil && !a.extensionsFirst, Holder: a.loaded, ElicitURL: a.elicitURL(),
	}
	if chosen, ok, err := enabledExtensions(req.Meta); err != nil {
		return nil, err
	} else if ok {
		// Desktop's new-chat choice: exactly these extensions.
		opts.Extensions, opts.UseConfiguredExtensions = chosen, false
	}
	if mr, err = a.startWith(mr, &opts); err != nil {
		return nil, err
	}
	// Read before the session exists: a fresh process's first session/new
	// does it while the store is still opening.
	providers := a.options.providerList()
	sess, results, err := a.agent.StartSession(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("Failed to create session: %w", err)
	}
	if mr != nil {
		if results, err = a.recipeAfterStart(ctx, sess, mr, opts, results); err != nil {
			return nil, err
		}
	}
	as := a.conn.track(sess)
	as.setRoots(req.AdditionalDirectories)
	setup := a.options.setupFrom(providers, sess.ID)
	resp := NewSessionResponse{SessionID: sess.ID, Modes: setup.Modes, Models: setup.Models, ConfigOptions: setup.ConfigOptions,
		Meta: sessionResultMeta(sess, append(results, a.agent.Plugins().Results(sess.ID)...))}
	// Before the answer, as goose: a first turn's usage comes after it.
	a.notes.gooseSessionUsage(ctx, sess)
	return followUp{resp, func() { a.conn.afterSetup(context.WithoutCancel(ctx), as, sess, results) }}, nil
}

func (a *sessionsAPI) load(ctx context.Context, req LoadSessionRequest) (any, error) {
	return a.reopen(ctx, req, true)
}

func (a *sessionsAPI) resume(ctx context.Context, req LoadSessionRequest) (any, error) {
	return a.reopen(ctx, req, false)
}

// reopen loads a stored session (replaying its user-visible history when
// replay is set) and answers only after the replay was sent.
func (a *sessionsAPI) reopen(ctx context.Context, req LoadSessionRequest, replay bool) (any, error) {
	stored, err := a.store.Get(ctx, req.SessionID, replay) // resume needs no messages
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	exts, err := mcpExtensions(req.MCPServers)
	if err != nil {
		return nil, err
	}
	cwd := req.CWD
	if cwd == "" {
		cwd = stored.WorkingDir
	}
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd must be an absolute path: %q", req.CWD)
	}
	if err := checkRoots(req.AdditionalDirectories); err != nil {
		return nil, err
	}
	a.loaded.drop(req.SessionID)
	sess, results, err := a.agent.ResumeSession(ctx, req.SessionID, agent.StartOptions{
		WorkingDir: cwd, Extensions: exts, UseConfiguredExtensions: true, Builtins: a.tools(req.AdditionalDirectories),
		ConnectInBackground: !a.extensionsFirst, Holder: a.loaded, ElicitURL: a.elicitURL(),
	})
	if err != nil {
		return nil, fmt.Errorf("Failed to load session %s: %w", req.SessionID, err)
	}
	as := a.conn.track(sess)
	as.setRoots(req.AdditionalDirectories)
	if replay {
		a.conn.replay(as, stored.Conversation)
	}
	a.notes.gooseSessionUsage(ctx, sess)
	setup := a.options.setup(sess.ID)
	stored.WorkingDir = sess.WorkingDir
	setup.Meta = sessionResultMeta(&stored, append(results, a.agent.Plugins().Results(sess.ID)...))
	return followUp{setup, func() { a.conn.afterSetup(context.WithoutCancel(ctx), as, sess, results) }}, nil
}

func (a *sessionsAPI) list(ctx context.Context, req ListSessionsRequest) (ListSessionsResponse, error) {
	if req.CWD != "" && !filepath.IsAbs(req.CWD) {
		return ListSessionsResponse{}, invalidParams("cwd must be an absolute path: %q", req.CWD)
	}
	opts, err := listOptions(req.Meta)
	if err != nil {
		return ListSessionsResponse{}, err
	}
	if f, ok, err := archiveFilter(req.Archived); err != nil {
		return ListSessionsResponse{}, err
	} else if ok {
		opts.Archived = f
	}
	opts.Limit, opts.Cursor, opts.WorkingDir = ListPageSize, req.Cursor, req.CWD
	page, err := a.store.List(ctx, opts)
	if err != nil {
		return ListSessionsResponse{}, err
	}
	resp := ListSessionsResponse{Sessions: []SessionInfo{}, NextCursor: page.NextCursor}
	for _, ss := range page.Sessions {
		if !listed(ss) {
			continue
		}
		resp.Sessions = append(resp.Sessions, sessionInfo(ss))
	}
	return resp, nil
}

func (a *sessionsAPI) closeSession(_ context.Context, req SessionIDRequest) (struct{}, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	a.loaded.drop(req.SessionID)
	return struct{}{}, nil
}

func (a *sessionsAPI) deleteSession(ctx context.Context, req SessionIDRequest) (struct{}, error) {
	a.loaded.drop(req.SessionID)
	if err := a.sessions.Delete(ctx, req.SessionID); err != nil {
		return struct{}{}, storeErr(err, req.SessionID)
	}
	return struct{}{}, nil
}

func (a *sessionsAPI) fork(ctx context.Context, req LoadSessionRequest) (any, error) {
	opts := agent.ForkOptions{Copy: true}
	// Desktop's "edit message": the fork keeps what came before the
	// edited message (its created time, unix seconds).
	if v, ok := req.Meta["conversationBefore"]; ok && v != nil {
		f, ok := v.(float64)
		if !ok || f != float64(int64(f)) {
			return nil, invalidParams("conversationBefore must be an integer timestamp")
		}
		before := int64(f)
		opts.TruncateAt = &before
	}
	forked, err := a.sessions.Fork(ctx, req.SessionID, opts)
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	req.SessionID = forked.ID
	res, err := a.reopen(ctx, req, false)
	if err != nil {
		return nil, err
	}
	f := res.(followUp)
	setup := f.result.(SessionSetupResponse)
	f.result = NewSessionResponse{SessionID: forked.ID, Modes: setup.Modes, Models: setup.Models,
		ConfigOptions: setup.ConfigOptions, Meta: Meta{"messageCount": forked.MessageCount}}
	return f, nil
}

// checkRoots requires additionalDirectories to be absolute.
func checkRoots(dirs []string) error {
	for _, d := range dirs {
		if !filepath.IsAbs(d) {
			return invalidParams("additionalDirectories must be absolute paths: %q", d)
		}
	}
	return nil
}

// builtinExtensions are Options.Builtins as extension configs; the agent
// skips any that config.yaml already enables.
func (a *sessionsAPI) builtinExtensions() []config.ExtensionConfig {
	out := make([]config.ExtensionConfig, 0, len(a.builtins))
	for _, name := range a.builtins {
		timeout, bundled := int64(config.DefaultExtensionTimeout), true
		out = append(out, config.ExtensionConfig{Type: config.ExtensionBuiltin, Name: name,
			Timeout: &timeout, Bundled: &bundled})
	}
	return out
}

// mcpExtensions converts the editor's MCP servers to goose extensions.
func mcpExtensions(servers []MCPServer) ([]config.ExtensionConfig, error) {
	var out []config.ExtensionConfig
	for _, m := range servers {
		if strings.TrimSpace(m.Name) == "" {
			return nil, invalidParams("MCP server without a name")
		}
		cfg := config.ExtensionConfig{Name: m.Name, Description: ""}
		if t, ok := m.Meta["timeout"].(float64); ok && t > 0 {
			secs := int64(t)
			cfg.Timeout = &secs
		}
		switch m.Type {
		case "", "stdio":
			if m.Command == "" {
				return nil, invalidParams("MCP server %q has no command", m.Name)
			}
			cfg.Type, cfg.Cmd, cfg.Args = config.ExtensionStdio, m.Command, m.Args
			cfg.Envs = map[string]string{}
			for _, e := range m.Env {
				cfg.Envs[e.Name] = e.Value
			}
		case "http", "sse":
			if m.URL == "" {
				return nil, invalidParams("MCP server %q has no url", m.Name)
			}
			cfg.Type, cfg.URI = config.ExtensionStreamableHTTP, m.URL
			if m.Type == "sse" {
				cfg.Type = config.ExtensionSSE
			}
			cfg.Headers = map[string]string{}
			for _, h := range m.Headers {
				cfg.Headers[h.Name] = h.Value
			}
		default:
			return nil, invalidParams("Unknown MCP server type %q", m.Type)
		}
		out = append(out, cfg)
	}
	return out, nil
}

// sessionTitle reads _meta.sessionTitle (goose era D): a string is trimmed,
// blank means the default; anything else is invalid.
func sessionTitle(meta Meta) (string, error) {
	v, ok := meta["sessionTitle"]
	if !ok || v == nil {
		return "", nil
	}
	t, ok := v.(string)
	if !ok {
		return "", invalidParams("_meta.sessionTitle must be a string")
	}
	return strings.TrimSpace(t), nil
}
