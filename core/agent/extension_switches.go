package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/extension/platform"
)

// ExtensionSwitch is one of goose's platform extensions a session has on
// or off: the booleans goose keeps per extension (config.yaml's enabled
// flag, Desktop's per-session toggles), for a client that shows them as
// switches.
type ExtensionSwitch struct {
	Name, DisplayName, Description string
	On                             bool
}

// ErrNoSuchSwitch: the name is no platform extension goose-acp runs.
var ErrNoSuchSwitch = errkind.New(errkind.Invalid, "no such extension switch")

// switchable are the platform extensions a session can switch: goose's,
// less those goose-acp cannot run (their tools only say why).
func switchable() []ExtensionSwitch {
	var out []ExtensionSwitch
	for _, c := range platform.Known() {
		if c.Name == platform.Apps || c.Name == platform.CodeExecution {
			continue
		}
		out = append(out, ExtensionSwitch{Name: c.Name, DisplayName: c.DisplayName, Description: c.Description})
	}
	return out
}

// Switches are the session's platform extensions, each on when the
// session has it (connected or still connecting); they never wait for
// the session's extensions to connect.
func (svc Extensions) Switches(sessionID string) ([]ExtensionSwitch, error) {
	s, err := svc.a.session(sessionID)
	if err != nil {
		return nil, err
	}
	pending := s.connect.stillPending()
	out := switchable()
	for i := range out {
		out[i].On = s.mgr.Has(out[i].Name) || slices.Contains(pending, out[i].Name)
	}
	return out, nil
}

// SetSwitch turns one of the session's platform extensions on (adds it)
// or off (removes it), as Desktop's session extension toggles do; the
// session keeps the choice. Setting it as it is succeeds.
func (svc Extensions) SetSwitch(ctx context.Context, sessionID, name string, on bool) error {
	i := slices.IndexFunc(switchable(), func(w ExtensionSwitch) bool { return w.Name == name })
	if i < 0 {
		return fmt.Errorf("%w: %s", ErrNoSuchSwitch, name)
	}
	s, err := svc.a.readySession(ctx, sessionID)
	if err != nil {
		return err
	}
	switch has := s.mgr.Has(name); {
	case on && !has:
		for _, c := range platform.Known() {
			if c.Name == name {
				return svc.Add(ctx, sessionID, c)
			}
		}
	case !on && has:
		return svc.Remove(ctx, sessionID, name)
	}
	return nil
}
