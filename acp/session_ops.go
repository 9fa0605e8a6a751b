package acp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/session"
	"github.com/goose-acp/goose-acp/core/unavailable"
)

// Goose Desktop's session methods (_goose/unstable/session/*): each is
// decode → core/agent session operation → encode; the wire types follow
// goose's acp-schema.json (camelCase).

// sessionOpsAPI answers the session methods beside ACP's own: the stored
// session's metadata, export and import, its working dir and system
// prompt. Archive and a working-dir change reach this connection's loaded
// copy too.
type sessionOpsAPI struct {
	// agent knows which turn a session runs.
	agent    *agent.Agent
	sessions agent.Sessions
	store    agent.SessionReader
	loaded   *loadedSessions
}

func (a *sessionOpsAPI) methods() map[string]RequestHandler {
	const p = "_goose/unstable/session/"
	return map[string]RequestHandler{
		"_goose/working_dir/update":      typed(a.updateLoadedWorkingDir),
		"_goose/session/get":             typed(a.get),
		"_goose/session/export":          typed(a.exportJSON),
		"_goose/session/import":          typed(a.importJSON),
		p + "info":                       typed(a.info),
		p + "rename":                     typed(a.rename),
		p + "archive":                    typed(a.archive),
		p + "unarchive":                  typed(a.unarchive),
		p + "project/update":             typed(a.setProject),
		p + "working-dir/update":         typed(a.updateWorkingDir),
		p + "conversation/truncate":      typed(a.truncate),
		p + "export":                     typed(a.export),
		p + "import":                     typed(a.importSession),
		p + "cost/aggregate":             typed(a.costs),
		p + "system-prompt/set":          typed(a.setSystemPrompt),
		"_goose/unstable/context/report": typed(a.contextReport),
	}
}

type unstableSessionID struct {
	SessionID string `json:"sessionId"`
}

// id is the trimmed session id; blank is invalid params, as in goose.
func (r unstableSessionID) id() (string, error) {
	id := strings.TrimSpace(r.SessionID)
	if id == "" {
		return "", invalidParams("sessionId cannot be empty")
	}
	return id, nil
}

type sessionInfoResponse struct {
	Session SessionInfo `json:"session"`
}

func (a *sessionOpsAPI) info(ctx context.Context, req unstableSessionID) (sessionInfoResponse, error) {
	id, err := req.id()
	if err != nil {
		return sessionInfoResponse{}, err
	}
	ss, err := a.store.Get(ctx, id, false)
	if err != nil {
		return sessionInfoResponse{}, storeErr(err, id)
	}
	info := sessionInfo(ss)
	var run any
	if r := a.agent.ActiveRun(id); r != "" {
		run = r
	}
	info.Meta["goose"] = map[string]any{"activeRunId": run}
	return sessionInfoResponse{Session: info}, nil
}

// sessionInfo is a session as session/list and session/info show it.
func sessionInfo(ss session.Session) SessionInfo {
	return SessionInfo{SessionID: ss.ID, CWD: ss.WorkingDir, Title: ss.Name,
		UpdatedAt: ss.UpdatedAt.UTC().Format(time.RFC3339), Archived: archivedOf(ss), Meta: listMeta(ss)}
}

// desktopMeta adds what Goose Desktop's sidebar reads from SessionInfo._meta
// (messageCount and userSetName are listMeta's): creation time, archive
// and project state, the session's provider and model, whether it runs a
// recipe. Absent values are null, as goose sends them.
func desktopMeta(m Meta, ss session.Session) {
	m["createdAt"] = ss.CreatedAt.UTC().Format(time.RFC3339)
	m["archivedAt"] = nil
	if ss.ArchivedAt != nil && !ss.ArchivedAt.IsZero() {
		m["archivedAt"] = ss.ArchivedAt.UTC().Format(time.RFC3339)
	}
	m["projectId"] = nil
	if ss.ProjectID != nil && *ss.ProjectID != "" {
		m["projectId"] = *ss.ProjectID
	}
	m["providerId"] = nil
	if ss.ProviderName != nil && *ss.ProviderName != "" {
		m["providerId"] = *ss.ProviderName
	}
	m["modelId"] = nil
	if ss.ModelConfig != nil && ss.ModelConfig.ModelName != "" {
		m["modelId"] = ss.ModelConfig.ModelName
	}
	m["hasRecipe"] = len(ss.Recipe) > 0 && string(ss.Recipe) != "null"
	if ss.LastMessageAt != nil {
		m["lastMessageAt"] = ss.LastMessageAt.UTC().Format(time.RFC3339)
	}
	if ss.LastMessageSnippet != "" {
		m["lastMessageSnippet"] = ss.LastMessageSnippet
	}
}

type renameRequest struct {
	SessionID string `json:"sessionId"`
	Title     string `json:"title"`
}

func (a *sessionOpsAPI) rename(ctx context.Context, req renameRequest) (struct{}, error) {
	id, err := unstableSessionID{req.SessionID}.id()
	if err != nil {
		return struct{}{}, err
	}
	if err := a.sessions.Rename(ctx, id, strings.TrimSpace(req.Title)); err != nil {
		return struct{}{}, storeErr(err, id)
	}
	return struct{}{}, nil
}

// archive archives the session and forgets it on this connection:
// goose unloads archived sessions too.
func (a *sessionOpsAPI) archive(ctx context.Context, req unstableSessionID) (struct{}, error) {
	id, err := req.id()
	if err != nil {
		return struct{}{}, err
	}
	a.loaded.drop(id)
	return struct{}{}, storeErr(a.sessions.Archive(ctx, id), id)
}

func (a *sessionOpsAPI) unarchive(ctx context.Context, req unstableSessionID) (struct{}, error) {
	id, err := req.id()
	if err != nil {
		return struct{}{}, err
	}
	return struct{}{}, storeErr(a.sessions.Unarchive(ctx, id), id)
}

type projectUpdateRequest struct {
	SessionID string  `json:"sessionId"`
	ProjectID *string `json:"projectId"`
}

func (a *sessionOpsAPI) setProject(ctx context.Context, req projectUpdateRequest) (struct{}, error) {
	id, err := unstableSessionID{req.SessionID}.id()
	if err != nil {
		return struct{}{}, err
	}
	project := ""
	if req.ProjectID != nil {
		project = strings.TrimSpace(*req.ProjectID)
	}
	return struct{}{}, storeErr(a.sessions.SetProject(ctx, id, project), id)
}

// updateWorkingDir moves a session, loaded here or only stored, to an
// existing absolute directory.
func (a *sessionOpsAPI) updateWorkingDir(ctx context.Context, req workingDirRequest) (struct{}, error) {
	id, err := unstableSessionID{req.SessionID}.id()
	if err != nil {
		return struct{}{}, err
	}
	dir := strings.TrimSpace(req.WorkingDir)
	if dir == "" {
		return struct{}{}, invalidParams("working directory cannot be empty")
	}
	if !filepath.IsAbs(dir) {
		return struct{}{}, invalidParams("cwd must be an absolute path: %q", dir)
	}
	if err := a.sessions.UpdateWorkingDir(ctx, id, dir); err != nil {
		return struct{}{}, workingDirErr(err, id)
	}
	return struct{}{}, nil
}

type truncateRequest struct {
	SessionID    string `json:"sessionId"`
	TruncateFrom *int64 `json:"truncateFrom"`
}

// truncate drops the messages created at or after truncateFrom
// (seconds, a message's created time).
func (a *sessionOpsAPI) truncate(ctx context.Context, req truncateRequest) (struct{}, error) {
	id, err := unstableSessionID{req.SessionID}.id()
	if err != nil {
		return struct{}{}, err
	}
	if req.TruncateFrom == nil {
		return struct{}{}, invalidParams("truncateFrom is required")
	}
	_, err = a.sessions.Fork(ctx, id, agent.ForkOptions{TruncateAt: req.TruncateFrom})
	return struct{}{}, storeErr(err, id)
}

type exportRequest struct {
	SessionID string `json:"sessionId"`
	Format    string `json:"format"`
}

type exportResponse struct {
	Data string `json:"data"`
}

func (a *sessionOpsAPI) export(ctx context.Context, req exportRequest) (exportResponse, error) {
	id, err := unstableSessionID{req.SessionID}.id()
	if err != nil {
		return exportResponse{}, err
	}
	switch req.Format {
	case "", "json":
		data, err := a.store.Export(ctx, id)
		return exportResponse{Data: string(data)}, storeErr(err, id)
	case "markdown":
		md, err := agent.ExportMarkdown(ctx, a.store, id)
		return exportResponse{Data: md}, storeErr(err, id)
	}
	return exportResponse{}, invalidParams("unknown export format %q (json or markdown)", req.Format)
}

type unstableImportRequest struct {
	Input  string `json:"input"`
	Source string `json:"source"`
}

type importResponse struct {
	SessionID    string  `json:"sessionId"`
	Title        *string `json:"title"`
	UpdatedAt    *string `json:"updatedAt"`
	MessageCount int     `json:"messageCount"`
}

// nostrFeature is session sharing through Nostr relays.
var nostrFeature = unavailable.Feature{Name: "Nostr session sharing",
	Why: "goose-acp does not publish to or read from Nostr relays; share the JSON export instead"}

func (a *sessionOpsAPI) importSession(ctx context.Context, req unstableImportRequest) (importResponse, error) {
	nostr := strings.HasPrefix(strings.TrimSpace(req.Input), "goose://sessions/nostr")
	switch req.Source {
	case "nostr":
		return importResponse{}, nostrFeature.Error()
	case "auto", "":
		if nostr {
			return importResponse{}, nostrFeature.Error()
		}
	case "json":
	default:
		return importResponse{}, invalidParams("unknown import source %q (auto, json or nostr)", req.Source)
	}
	sess, err := a.sessions.Import(ctx, []byte(req.Input))
	if err != nil {
		return importResponse{}, fmt.Errorf("could not import session: %w", err)
	}
	updated := sess.UpdatedAt.UTC().Format(time.RFC3339)
	return importResponse{SessionID: sess.ID, Title: &sess.Name, UpdatedAt: &updated, MessageCount: sess.MessageCount}, nil
}

type projectCostEntry struct {
	WorkingDir       string   `json:"workingDir"`
	TotalCost        *float64 `json:"totalCost"`
	SessionCount     int      `json:"sessionCount"`
	SessionsWithCost int      `json:"sessionsWithCost"`
}

type costAggregateResponse struct {
	Projects []projectCostEntry `json:"projects"`
}

func (a *sessionOpsAPI) costs(ctx context.Context, _ struct{}) (costAggregateResponse, error) {
	costs, err := agent.CostByWorkingDir(ctx, a.store)
	if err != nil {
		return costAggregateResponse{}, err
	}
	out := costAggregateResponse{Projects: make([]projectCostEntry, 0, len(costs))}
	for _, c := range costs {
		out.Projects = append(out.Projects, projectCostEntry{WorkingDir: c.WorkingDir, TotalCost: c.TotalCost,
			SessionCount: c.SessionCount, SessionsWithCost: c.SessionsWithCost})
	}
	return out, nil
}

type systemPromptRequest struct {
	SessionID string  `json:"sessionId"`
	Mode      string  `json:"mode"`
	Key       *string `json:"key"`
	Text      string  `json:"text"`
}

// setSystemPrompt replaces the session's base prompt (mode set) or
// sets one keyed additional instruction (mode append, the default); blank
// text clears. It applies from the session's next provider call.
func (a *sessionOpsAPI) setSystemPrompt(ctx context.Context, req systemPromptRequest) (struct{}, error) {
	if req.Mode != "" && req.Mode != "set" && req.Mode != "append" {
		return struct{}{}, invalidParams("mode must be set or append")
	}
	id, err := ensureLoaded(ctx, a.sessions, req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	key := ""
	if req.Key != nil {
		key = *req.Key
	}
	return struct{}{}, a.sessions.SetSystemPrompt(id, req.Mode, key, req.Text)
}

type workingDirRequest struct {
	SessionID  string `json:"sessionId"`
	WorkingDir string `json:"workingDir"`
}

func (a *sessionOpsAPI) updateLoadedWorkingDir(ctx context.Context, req workingDirRequest) (struct{}, error) {
	if _, err := a.loaded.lookup(req.SessionID); err != nil {
		return struct{}{}, err
	}
	dir := strings.TrimSpace(req.WorkingDir)
	if dir == "" {
		return struct{}{}, invalidParams("working directory cannot be empty")
	}
	if err := a.sessions.UpdateWorkingDir(ctx, req.SessionID, dir); err != nil {
		return struct{}{}, workingDirErr(err, req.SessionID)
	}
	return struct{}{}, nil
}

type sessionGetRequest struct {
	SessionID       string `json:"sessionId"`
	IncludeMessages bool   `json:"includeMessages"`
}

func (a *sessionOpsAPI) get(ctx context.Context, req sessionGetRequest) (any, error) {
	sess, err := a.store.Get(ctx, req.SessionID, req.IncludeMessages)
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	return map[string]any{"session": sess}, nil
}

func (a *sessionOpsAPI) exportJSON(ctx context.Context, req SessionIDRequest) (any, error) {
	data, err := a.store.Export(ctx, req.SessionID)
	if err != nil {
		return nil, storeErr(err, req.SessionID)
	}
	return map[string]any{"data": string(data)}, nil
}

type importRequest struct {
	Data string `json:"data"`
}

func (a *sessionOpsAPI) importJSON(ctx context.Context, req importRequest) (any, error) {
	sess, err := a.sessions.Import(ctx, []byte(req.Data))
	if err != nil {
		return nil, fmt.Errorf("could not import session: %w", err)
	}
	return map[string]any{"sessionId": sess.ID, "title": sess.Name,
		"updatedAt": sess.UpdatedAt.UTC().Format(time.RFC3339), "messageCount": sess.MessageCount}, nil
}

// storeErr words a session that is not there as goose does.
func storeErr(err error, id string) error {
	if errkind.Is(err, errkind.NotFound) {
		return notFound("Session not found: %s", id)
	}
	return err
}

// workingDirErr words a directory that does not exist as goose's ACP does.
func workingDirErr(err error, id string) error {
	if errkind.Is(err, errkind.Invalid) {
		return invalidParams("invalid directory path")
	}
	return storeErr(err, id)
}
