package acp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/session"
)

// timeNow is the adapter's clock (message timestamps).
var timeNow = time.Now

type extensionAddRequest struct {
	SessionID string          `json:"sessionId"`
	Config    json.RawMessage `json:"config"`
}

func (s *Server) addExtension(ctx context.Context, req extensionAddRequest) (struct{}, error) {
	var cfg config.ExtensionConfig
	if err := json.Unmarshal(req.Config, &cfg); err != nil {
		return struct{}{}, invalidParams("bad config: %v", err)
	}
	if _, err := s.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, s.opts.Agent.AddExtension(ctx, req.SessionID, cfg)
}

type extensionRemoveRequest struct {
	SessionID string `json:"sessionId"`
	Name      string `json:"name"`
}

func (s *Server) removeExtension(ctx context.Context, req extensionRemoveRequest) (struct{}, error) {
	if _, err := s.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	return struct{}{}, s.opts.Agent.RemoveExtension(ctx, req.SessionID, req.Name)
}

func (s *Server) tools(ctx context.Context, req SessionIDRequest) (any, error) {
	if _, err := s.lookup(req.SessionID); err != nil {
		return nil, err
	}
	tools, err := s.opts.Agent.Tools(ctx, req.SessionID, "")
	if err != nil {
		return nil, err
	}
	return map[string]any{"tools": tools}, nil
}

type resourceReadRequest struct {
	SessionID     string `json:"sessionId"`
	URI           string `json:"uri"`
	ExtensionName string `json:"extensionName"`
}

func (s *Server) readResource(ctx context.Context, req resourceReadRequest) (any, error) {
	if _, err := s.lookup(req.SessionID); err != nil {
		return nil, err
	}
	res, err := s.opts.Agent.ReadResource(ctx, req.SessionID, req.ExtensionName, req.URI)
	if err != nil {
		return nil, err
	}
	return map[string]any{"result": res}, nil
}

type workingDirRequest struct {
	SessionID  string `json:"sessionId"`
	WorkingDir string `json:"workingDir"`
}

func (s *Server) updateWorkingDir(ctx context.Context, req workingDirRequest) (struct{}, error) {
	as, err := s.lookup(req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	dir := strings.TrimSpace(req.WorkingDir)
	if dir == "" {
		return struct{}{}, invalidParams("working directory cannot be empty")
	}
	if err := s.opts.Agent.UpdateWorkingDir(ctx, req.SessionID, dir); err != nil {
		if errors.Is(err, agent.ErrNotADirectory) {
			return struct{}{}, invalidParams("invalid directory path")
		}
		return struct{}{}, err
	}
	as.mu.Lock()
	as.cwd, as.translator.WorkingDir = dir, dir
	as.mu.Unlock()
	return struct{}{}, nil
}

type sessionGetRequest struct {
	SessionID       string `json:"sessionId"`
	IncludeMessages bool   `json:"includeMessages"`
}

func (s *Server) getSession(ctx context.Context, req sessionGetRequest) (any, error) {
	sess, err := s.opts.Store.Get(ctx, req.SessionID, req.IncludeMessages)
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	return map[string]any{"session": sess}, nil
}

func (s *Server) exportSession(ctx context.Context, req SessionIDRequest) (any, error) {
	data, err := s.opts.Store.Export(ctx, req.SessionID)
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	return map[string]any{"data": string(data)}, nil
}

type importRequest struct {
	Data string `json:"data"`
}

func (s *Server) importSession(ctx context.Context, req importRequest) (any, error) {
	sess, err := s.opts.Agent.ImportSession(ctx, []byte(req.Data))
	if err != nil {
		return nil, invalidParams("could not import session: %v", err)
	}
	return map[string]any{"sessionId": sess.ID, "title": sess.Name,
		"updatedAt": sess.UpdatedAt.UTC().Format(time.RFC3339), "messageCount": sess.MessageCount}, nil
}

func storeErr(err error, id string) error {
	if errors.Is(err, session.ErrNotFound) {
		return notFound("Session not found: %s", id)
	}
	return err
}
