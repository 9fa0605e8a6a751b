package httpapi

import "github.com/goose-acp/goose-acp/core/agent"

// restHold is the goosed face's hold on the sessions its routes load
// (agent.Holder): such a session stays loaded until /agent/stop lets go,
// whatever an editor on the same agent does, and /agent/stop leaves a
// session an editor still holds running. goosed's clients poll for
// titles, so events outside a turn are not forwarded.
type restHold struct{}

func (*restHold) SessionEvent(string, agent.Event) {}
