package acp

import (
	"context"
	"time"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// The Server's side of a session (sessionConn): what the sessions area
// asks of this connection when it opens one.

// track registers a loaded session with the adapter.
func (s *Server) track(sess *session.Session) *acpSession {
	as := &acpSession{id: sess.ID, translator: &Translator{WorkingDir: workingDir(s.opts.Agent, sess), Tools: s.toolInfo(sess.ID), Owner: s.areas.prompt.toolOwner(sess.ID)}}
	s.loaded.register(as)
	return as
}

// workingDir reads a session's working directory from the agent whenever
// it is needed: another face may move it (goosed's
// /agent/update_working_dir).
func workingDir(ag *agent.Agent, sess *session.Session) func() string {
	id, dir := sess.ID, sess.WorkingDir
	if ag == nil {
		return func() string { return dir }
	}
	sessions := ag.Sessions()
	return func() string {
		if wd, err := sessions.WorkingDir(context.Background(), id); err == nil {
			return wd
		}
		return dir
	}
}

// answerReadMoment is how long afterSetup leaves the CPUs to the client
// that has just been answered.
const answerReadMoment = 500 * time.Microsecond

// afterSetup sends what clients expect right after a session is ready,
// and a notice per extension that failed to start (to clients that opted
// in to notices). results nil: the extensions are connecting in the
// background, and the commands (their prompts among them) and notices
// wait for them.
func (s *Server) afterSetup(ctx context.Context, as *acpSession, sess *session.Session, results []extensionResult) {
	// The answer is written: its reader gets a moment with a free CPU
	// before the work it started (the extensions' connect, the store's
	// warming) takes both of a two-core machine. Started at once, they
	// kept the editor's process off the CPU and it read a fresh process's
	// session/new ~0.4 ms later (30 alternating runs: session/new 3.15 →
	// 2.85 / 2.77 ms with 0.3 / 0.7 ms here, an immediately following
	// prompt 0.3 ms later; a third set 3.29 → 3.16 ms).
	time.Sleep(answerReadMoment)
	if s.opts.SessionAnswered != nil {
		s.opts.SessionAnswered()
	}
	if results == nil {
		var err error
		if results, err = s.opts.Agent.Extensions().Results(ctx, as.id); err != nil {
			s.log.Debug("no extension results", "session", as.id, "err", err)
		}
	}
	s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateAvailableCommands, AvailableCommands: availableCommands(s.opts.Agent, as.id)})
	s.notes.extensionNotices(ctx, as.id, results)
	agentNotices{plugins: s.opts.Agent.Plugins(), notes: s.notes, log: s.log}.start(ctx, as.id)
	s.notes.sendUsage(ctx, as, sess)
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
		if f, ok := messageUsageFrame(as.id, m); ok && s.notes.custom() {
			if err := s.frames.WriteFrame(f, false); err != nil {
				s.log.Debug("message_usage not replayed", "session", as.id, "err", err)
			}
		}
	}
	if err := s.frames.Flush(); err != nil {
		s.log.Debug("replay not flushed", "session", as.id, "err", err)
	}
}

// call sends a request to the client and decodes its result.
func (s *Server) call(ctx context.Context, method string, params, result any) error {
	return s.peer.Call(ctx, method, params, result)
}
