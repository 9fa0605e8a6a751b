package agent

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/provider"
)

// ErrThinkingEffort is returned for an effort the session's model does not
// take (a model that does not think takes none).
var ErrThinkingEffort = errkind.New(errkind.Invalid, "invalid thinking effort")

// ThinkingEffort is the effort the session's model thinks with (one of
// provider.ThinkingEfforts); false when its model does not think.
func (svc Sessions) ThinkingEffort(sessionID string) (string, bool, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return "", false, err
	}
	s.mu.Lock()
	p := s.provider
	s.mu.Unlock()
	t, ok := provider.ThinkerOf(p)
	if !ok {
		return "", false, nil
	}
	effort, thinks := t.ThinkingEffort()
	return effort, thinks, nil
}

// SetThinkingEffort makes the session's model think with effort (goose's
// request_params.thinking_effort), keeping its provider and model, and
// saves it with the session's model config.
func (svc Sessions) SetThinkingEffort(ctx context.Context, sessionID, effort string) error {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return err
	}
	if _, thinks, _ := svc.ThinkingEffort(sessionID); !thinks {
		return fmt.Errorf("%w: the session's model does not think", ErrThinkingEffort)
	}
	if !slices.Contains(provider.ThinkingEfforts, effort) {
		return fmt.Errorf("%w: %q (one of %v)", ErrThinkingEffort, effort, provider.ThinkingEfforts)
	}
	s.mu.Lock()
	name, cfg := s.providerName, s.model
	s.mu.Unlock()
	params := maps.Clone(cfg.RequestParams)
	if params == nil {
		params = map[string]any{}
	}
	params[provider.ThinkingEffortParam] = effort
	cfg.RequestParams = params
	if err := svc.a.setProvider(ctx, s, name, cfg); err != nil {
		return err
	}
	return svc.a.saveSessionState(ctx, s)
}
