package acp

import (
	"context"
	"strings"

	"github.com/goose-acp/goose-acp/acp/handshake"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/setup"
)

// AuthOptions connect ACP authentication to core/setup.
type AuthOptions struct {
	// Status re-reads config.yaml, the secret store and the environment
	// and reports whether a provider is usable (setup.Setup.Status). nil
	// means always usable.
	Status func() setup.Status
	// Command is the absolute path of this binary, for the terminal auth
	// method that runs `goose-acp configure`.
	Command string
}

// AuthenticateRequest is authenticate's params.
type AuthenticateRequest struct {
	MethodID string `json:"methodId"`
	Meta     Meta   `json:"_meta,omitempty"`
}

// Auth method ids (acp/handshake).
const (
	AuthMethodAgent    = handshake.AuthMethodAgent
	AuthMethodTerminal = handshake.AuthMethodTerminal
)

// authMethods is initialize's authMethods for these client capabilities
// (handshake.AuthMethods).
func (s *Server) authMethods(caps ClientCapabilities) []AuthMethod {
	return handshake.AuthMethods(caps, s.auth.Command)
}

// authenticate re-reads config and secrets: it succeeds only when a
// provider is now usable, else -32000 with the reason.
func (s *Server) authenticate(_ context.Context, req AuthenticateRequest) (struct{}, error) {
	if req.MethodID != AuthMethodAgent && req.MethodID != AuthMethodTerminal {
		return struct{}{}, invalidParams("unknown auth method %q (offered: %s, %s)", req.MethodID, AuthMethodAgent, AuthMethodTerminal)
	}
	s.loggedOut.Store(false)
	return struct{}{}, s.requireProvider()
}

// requireProvider is -32000 with a one-line reason when no provider is
// usable; a key in the agent's environment counts, so such editors never
// need authenticate.
func (s *Server) requireProvider() error {
	if s.loggedOut.Load() {
		return errkind.Errorf(errkind.AuthRequired, "signed out of this connection (auth/logout); sign in again with auth/login")
	}
	if s.auth.Status == nil {
		return nil
	}
	if st := s.auth.Status(); st.Err != nil {
		return authRequired(st.Err)
	}
	return nil
}

// authRequired is an -32000 error whose data is setup's one-line reason.
func authRequired(err error) error {
	return errkind.Errorf(errkind.AuthRequired, "%s", setup.AuthReason(err))
}

// turnAuthError turns a turn that failed for want of credentials (no
// usable provider, or the provider answering 401/403 mid-session) into
// -32000, so editors show their sign-in flow instead of chat text. A
// missing provider is explained by a fresh Status (the agent's error was
// recorded when the session started).
func (s *Server) turnAuthError(out agent.Outcome, err error) error {
	failure := err
	if failure == nil && out.StopReason == agent.Error {
		failure = out.Err
	}
	if !errkind.Is(failure, errkind.AuthRequired) {
		return nil
	}
	if provider.KindOf(failure) != provider.KindAuth {
		if err := s.requireProvider(); err != nil {
			return err
		}
	}
	return authRequired(failure)
}

// authGate holds back the agent's "Ran into this error" chat message
// until the turn's outcome is known: for an authentication failure the
// prompt answers -32000 instead, and the editor shows its sign-in flow
// rather than a chat message. Every other event passes straight through.
type authGate struct {
	pass func(agent.Event)
	held []agent.Event
}

// errorTextPrefix is how agent.ErrorTextFormat begins.
var errorTextPrefix, _, _ = strings.Cut(agent.ErrorTextFormat, "%s")

func newAuthGate(pass func(agent.Event)) *authGate { return &authGate{pass: pass} }

func (g *authGate) sink(ev agent.Event) {
	if e, ok := ev.(agent.MessageEvent); ok && isErrorText(e.Message) {
		g.held = append(g.held, ev)
		return
	}
	g.pass(ev)
}

func isErrorText(m conversation.Message) bool {
	return m.Role == conversation.RoleAssistant && len(m.Content) == 1 && m.Content[0].Text != nil &&
		strings.HasPrefix(m.Content[0].Text.Text, errorTextPrefix)
}

// settle sends what was held unless the turn failed for want of
// credentials, and returns that -32000 error (nil otherwise).
func (g *authGate) settle(authFail func(agent.Outcome, error) error, out agent.Outcome, err error) error {
	authErr := authFail(out, err)
	if authErr == nil {
		for _, ev := range g.held {
			g.pass(ev)
		}
	}
	g.held = nil
	return authErr
}
