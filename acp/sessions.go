package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// ListPageSize is how many sessions one session/list page holds.
const ListPageSize = 50

func (s *Server) newSession(ctx context.Context, req NewSessionRequest) (any, error) {
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
	if err := s.requireProvider(); err != nil {
		return nil, err
	}
	mr, err := s.recipeFromMeta(req.Meta, req.CWD)
	if err != nil {
		return nil, err
	}
	// Extensions connect while the editor gets its answer; a recipe start
	// asks for its values with them connected.
	opts := agent.StartOptions{
		WorkingDir: req.CWD, Type: session.TypeUser, Name: name, Extensions: append(s.builtinExtensions(), exts...),
		UseConfiguredExtensions: true, Builtins: s.builtins(req.AdditionalDirectories), ConnectInBackground: mr == nil,
	}
	if mr, err = s.startWith(mr, &opts); err != nil {
		return nil, err
	}
	sess, results, err := s.opts.Agent.StartSession(ctx, opts)
	if err != nil {
		return nil, fmt.Errorf("Failed to create session: %w", err)
	}
	if mr != nil {
		if results, err = s.recipeAfterStart(ctx, sess, mr, opts, results); err != nil {
			return nil, err
		}
	}
	as := s.track(sess)
	as.setRoots(req.AdditionalDirectories)
	setup := s.setupResponse(sess)
	resp := NewSessionResponse{SessionID: sess.ID, Modes: setup.Modes, Models: setup.Models, ConfigOptions: setup.ConfigOptions}
	return followUp{resp, func() { s.afterSetup(context.WithoutCancel(ctx), as, sess, results) }}, nil
}

// track registers a loaded session with the adapter.
func (s *Server) track(sess *session.Session) *acpSession {
	as := &acpSession{id: sess.ID, cwd: sess.WorkingDir, translator: &Translator{WorkingDir: sess.WorkingDir, Tools: s.toolInfo(sess.ID)}}
	s.loaded.register(as)
	return as
}

// afterSetup sends what clients expect right after a session is ready,
// and a notice per extension that failed to start (to clients that opted
// in to notices). results nil: the extensions are connecting in the
// background, and the commands (their prompts among them) and notices
// wait for them.
func (s *Server) afterSetup(ctx context.Context, as *acpSession, sess *session.Session, results []extensionResult) {
	if results == nil {
		var err error
		if results, err = s.opts.Agent.ExtensionResults(ctx, as.id); err != nil {
			s.log.Debug("no extension results", "session", as.id, "err", err)
		}
	}
	s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateAvailableCommands, AvailableCommands: availableCommands(s.opts.Agent, as.id)})
	s.extensionNotices(ctx, as.id, results)
	s.sendUsage(ctx, as, sess)
}

func (s *Server) loadSession(ctx context.Context, req LoadSessionRequest) (any, error) {
	return s.reopen(ctx, req, true)
}

func (s *Server) resumeSession(ctx context.Context, req LoadSessionRequest) (any, error) {
	return s.reopen(ctx, req, false)
}

// reopen loads a stored session (replaying its user-visible history when
// replay is set) and answers only after the replay was sent.
func (s *Server) reopen(ctx context.Context, req LoadSessionRequest, replay bool) (any, error) {
	stored, err := s.opts.Store.Get(ctx, req.SessionID, replay) // resume needs no messages
	if err != nil {
		if errors.Is(err, session.ErrNotFound) {
			return nil, notFound("Session not found: %s", req.SessionID)
		}
		return nil, err
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
	s.loaded.drop(req.SessionID)
	sess, results, err := s.opts.Agent.ResumeSession(ctx, req.SessionID, agent.StartOptions{
		WorkingDir: cwd, Extensions: exts, UseConfiguredExtensions: true, Builtins: s.builtins(req.AdditionalDirectories),
		ConnectInBackground: true,
	})
	if err != nil {
		return nil, fmt.Errorf("Failed to load session %s: %w", req.SessionID, err)
	}
	as := s.track(sess)
	as.setRoots(req.AdditionalDirectories)
	if replay {
		s.replay(as, stored.Conversation)
	}
	return followUp{s.setupResponse(sess), func() { s.afterSetup(context.WithoutCancel(ctx), as, sess, results) }}, nil
}

// replay sends the user-visible history as buffered frames, flushed once
// at the end (before the response).
func (s *Server) replay(as *acpSession, conv []conversation.Message) {
	for _, m := range conv {
		if !m.Metadata.UserVisible {
			continue
		}
		for _, u := range as.translator.MessageUpdates(m, true) {
			if u.SessionUpdate == UpdateToolCallUpdate {
				enrichReplay(&u, m)
			}
			s.sendUpdate(as.id, u, false)
		}
	}
	if err := s.frames.Flush(); err != nil {
		s.log.Debug("replay not flushed", "session", as.id, "err", err)
	}
}

func (s *Server) listSessions(ctx context.Context, req ListSessionsRequest) (ListSessionsResponse, error) {
	if req.CWD != "" && !filepath.IsAbs(req.CWD) {
		return ListSessionsResponse{}, invalidParams("cwd must be an absolute path: %q", req.CWD)
	}
	page, err := s.opts.Store.List(ctx, session.ListOptions{Limit: ListPageSize, Cursor: req.Cursor, WorkingDir: req.CWD, Types: listedTypes})
	if err != nil {
		if errors.Is(err, session.ErrNotFound) {
			return ListSessionsResponse{}, err
		}
		return ListSessionsResponse{}, invalidParams("%v", err)
	}
	resp := ListSessionsResponse{Sessions: []SessionInfo{}, NextCursor: page.NextCursor}
	for _, ss := range page.Sessions {
		if !listed(ss) {
			continue
		}
		resp.Sessions = append(resp.Sessions, SessionInfo{
			SessionID: ss.ID, CWD: ss.WorkingDir, Title: ss.Name,
			UpdatedAt: ss.UpdatedAt.UTC().Format(time.RFC3339),
			Meta:      listMeta(ss),
		})
	}
	return resp, nil
}

func (s *Server) closeSession(_ context.Context, req SessionIDRequest) (struct{}, error) {
	if _, err := s.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	s.loaded.drop(req.SessionID)
	return struct{}{}, nil
}

func (s *Server) deleteSession(ctx context.Context, req SessionIDRequest) (struct{}, error) {
	s.loaded.drop(req.SessionID)
	if err := s.opts.Agent.DeleteSession(ctx, req.SessionID); err != nil {
		return struct{}{}, storeErr(err, req.SessionID)
	}
	return struct{}{}, nil
}

func (s *Server) forkSession(ctx context.Context, req LoadSessionRequest) (any, error) {
	forked, err := s.opts.Agent.ForkSession(ctx, req.SessionID, agent.ForkOptions{Copy: true})
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	req.SessionID = forked.ID
	res, err := s.reopen(ctx, req, false)
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
func (s *Server) builtinExtensions() []config.ExtensionConfig {
	out := make([]config.ExtensionConfig, 0, len(s.opts.Builtins))
	for _, name := range s.opts.Builtins {
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
