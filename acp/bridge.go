package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/acp/jsonrpc"
	"github.com/goose-acp/goose-acp/core/pathpolicy"
	"github.com/goose-acp/goose-acp/developer"
)

// Peer is the client end of the connection: the agent's calls to the editor.
type Peer interface {
	Call(ctx context.Context, method string, params, result any) error
	Notify(ctx context.Context, method string, params any) error
}

// rpcPeer is the connection's client end. A call abandoned because its
// ctx ended is withdrawn on the client with $/cancel_request (ACP's
// cancellation cascade: a permission prompt or terminal wait the turn no
// longer needs), which jsonrpc.Conn.Call does.
type rpcPeer struct{ conn *jsonrpc.Conn }

func (p rpcPeer) Call(ctx context.Context, method string, params, result any) error {
	return p.conn.Call(ctx, method, params, result)
}

func (p rpcPeer) Notify(ctx context.Context, method string, params any) error {
	return p.conn.Notify(ctx, method, params)
}

// fileIO sends reads and writes to the editor when it offers them, so the
// model sees unsaved buffers and the editor tracks every change; whatever the
// editor does not offer goes to the local fallback.
//
// Every path is put to the session's path policy first, so the editor is
// never asked for a file the policy refuses (the tools check it too; this
// check keeps the fs/* delegation safe on its own).
type fileIO struct {
	peer              Peer
	sessionID         string
	canRead, canWrite bool
	local             developer.FileIO
	policy            func() *pathpolicy.Policy // nil: the caller checked
}

func (f *fileIO) check(path string) error {
	if f.policy == nil {
		return nil
	}
	return f.policy().Check(filepath.Clean(path), path)
}

var _ developer.FileIO = (*fileIO)(nil)

func (f *fileIO) ReadTextFile(ctx context.Context, path string, line, limit int) (string, error) {
	if err := f.check(path); err != nil {
		return "", err
	}
	if !f.canRead {
		return f.local.ReadTextFile(ctx, path, line, limit)
	}
	req := ReadTextFileRequest{SessionID: f.sessionID, Path: path}
	if line > 0 {
		req.Line = &line
	}
	if limit > 0 {
		req.Limit = &limit
	}
	var resp ReadTextFileResponse
	if err := f.peer.Call(ctx, "fs/read_text_file", req, &resp); err != nil {
		if f.local != nil && outsideWorktree(err, false) {
			return f.local.ReadTextFile(ctx, path, line, limit)
		}
		return "", fmt.Errorf("editor could not read %s: %w", path, clientError(err))
	}
	return resp.Content, nil
}

// codeResourceNotFound is ACP's "resource not found" error code.
const codeResourceNotFound = -32002

// outsideWorktree reports the editor's answer for a path it does not
// manage: Zed answers fs/read_text_file with -32002 and fs/write_text_file
// with an "invalid path" error for files outside its worktrees (~/.gitconfig,
// /tmp/x, a sibling repository). Those paths are then read and written on
// local disk, as without delegation; the path policy was already applied.
func outsideWorktree(err error, write bool) bool {
	var e *jsonrpc2.Error
	if !errors.As(err, &e) {
		return false
	}
	if !write {
		return e.Code == codeResourceNotFound
	}
	text := e.Message
	if e.Data != nil {
		text += " " + string(*e.Data)
	}
	return strings.Contains(strings.ToLower(text), "invalid path")
}

func (f *fileIO) WriteTextFile(ctx context.Context, path, content string) error {
	if err := f.check(path); err != nil {
		return err
	}
	if !f.canWrite {
		return f.local.WriteTextFile(ctx, path, content)
	}
	req := WriteTextFileRequest{SessionID: f.sessionID, Path: path, Content: content}
	if err := f.peer.Call(ctx, "fs/write_text_file", req, nil); err != nil {
		if f.local != nil && outsideWorktree(err, true) {
			return f.local.WriteTextFile(ctx, path, content)
		}
		return fmt.Errorf("editor could not write %s: %w", path, clientError(err))
	}
	return nil
}

// terminalCreateTimeout bounds an editor that never answers terminal/create.
const terminalCreateTimeout = 30 * time.Second

// terminal runs shell commands in the editor's terminals.
type terminal struct {
	peer      Peer
	sessionID string
	// loaded, when set, holds releases until the tool call's final
	// update is sent (see terminalReleases).
	loaded *loadedSessions
}

var _ developer.Terminal = (*terminal)(nil)

func (t *terminal) Create(ctx context.Context, r developer.TerminalRequest) (string, error) {
	req := CreateTerminalRequest{SessionID: t.sessionID, Command: r.Command, Args: r.Args, CWD: r.Cwd}
	for k, v := range r.Env {
		req.Env = append(req.Env, EnvVariable{Name: k, Value: v})
	}
	if r.OutputByteLimit > 0 {
		req.OutputByteLimit = &r.OutputByteLimit
	}
	// The call is not abandoned when the turn is cancelled meanwhile: the
	// editor may already have started the command, and only a known id can
	// be killed and released (the shell tool does both once it sees the
	// cancelled ctx).
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), terminalCreateTimeout)
	defer cancel()
	var resp CreateTerminalResponse
	if err := t.peer.Call(cctx, "terminal/create", req, &resp); err != nil {
		return "", fmt.Errorf("editor could not create a terminal: %w", clientError(err))
	}
	return resp.TerminalID, nil
}

func (t *terminal) Output(ctx context.Context, id string) (developer.TerminalOutput, error) {
	var resp TerminalOutputResponse
	if err := t.peer.Call(ctx, "terminal/output", TerminalRequest{t.sessionID, id}, &resp); err != nil {
		return developer.TerminalOutput{}, fmt.Errorf("terminal output: %w", clientError(err))
	}
	out := developer.TerminalOutput{Output: resp.Output, Truncated: resp.Truncated}
	if resp.ExitStatus != nil {
		st := exitStatus(*resp.ExitStatus)
		out.ExitStatus = &st
	}
	return out, nil
}

func (t *terminal) WaitForExit(ctx context.Context, id string) (developer.ExitStatus, error) {
	var resp TerminalExitStatus
	if err := t.peer.Call(ctx, "terminal/wait_for_exit", TerminalRequest{t.sessionID, id}, &resp); err != nil {
		return developer.ExitStatus{}, fmt.Errorf("terminal wait: %w", clientError(err))
	}
	return exitStatus(resp), nil
}

func (t *terminal) Kill(ctx context.Context, id string) error {
	if err := t.peer.Call(ctx, "terminal/kill", TerminalRequest{t.sessionID, id}, nil); err != nil {
		return fmt.Errorf("terminal kill: %w", clientError(err))
	}
	return nil
}

// Release of a terminal shown in a tool call waits for that call's final
// update (Zed forgets released terminals); others are released now.
func (t *terminal) Release(ctx context.Context, id string) error {
	if t.loaded != nil {
		if as, err := t.loaded.lookup(t.sessionID); err == nil && as.term.hold(id) {
			return nil
		}
	}
	return t.send(ctx, id)
}

// send releases a terminal. It must reach the editor even when the turn
// was cancelled, so it ignores ctx's cancellation.
func (t *terminal) send(ctx context.Context, id string) error {
	if err := t.peer.Call(context.WithoutCancel(ctx), "terminal/release", TerminalRequest{t.sessionID, id}, nil); err != nil {
		return fmt.Errorf("terminal release: %w", clientError(err))
	}
	return nil
}

func exitStatus(s TerminalExitStatus) developer.ExitStatus {
	out := developer.ExitStatus{ExitCode: s.ExitCode}
	if s.Signal != nil {
		out.Signal = *s.Signal
	}
	return out
}

// clientError turns the editor's JSON-RPC error into a readable one for the
// model (the message and its data).
func clientError(err error) error {
	if e, ok := err.(*jsonrpc2.Error); ok {
		if e.Data != nil && len(*e.Data) > 0 {
			return fmt.Errorf("%s (code %d): %s", e.Message, e.Code, string(*e.Data))
		}
		return fmt.Errorf("%s (code %d)", e.Message, e.Code)
	}
	return err
}
