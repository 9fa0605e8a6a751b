package agent

import "github.com/goose-acp/goose-acp/core/provider"

// leadWorker is what the agent needs from registry.LeadWorker (kept as an
// interface so the agent does not depend on the registry).
type leadWorker interface {
	Models() (lead, worker string)
	ActiveModel() string
}

// Lead/worker modes of ModelChangeEvent (goose's names).
const (
	ModeLead    = "lead"
	ModeWorker  = "worker"
	ModeUnknown = "unknown"
)

// modelChange emits a ModelChangeEvent when a lead/worker provider's
// reply comes from a different model than the last one reported (goose
// sends one with every usage report; once per change is enough for a
// client to show the active model). The mode is goose's: the usage's
// model compared with the lead and worker names; an API model id that
// matches neither (a dated alias) falls back to the provider's own view.
func (t *turn) modelChange(u provider.ProviderUsage) {
	lw, ok := t.prov.(leadWorker)
	if !ok {
		return
	}
	lead, worker := lw.Models()
	active := u.Model
	if active == "" {
		active = lw.ActiveModel()
	}
	ev := ModelChangeEvent{Model: active, Mode: leadWorkerMode(active, lead, worker)}
	if ev.Mode == ModeUnknown {
		ev.Mode = leadWorkerMode(lw.ActiveModel(), lead, worker)
	}
	t.s.mu.Lock()
	changed := ev != t.s.lastModelChange
	t.s.lastModelChange = ev
	t.s.mu.Unlock()
	if changed {
		t.emit(ev)
	}
}

func leadWorkerMode(model, lead, worker string) string {
	switch model {
	case lead:
		return ModeLead
	case worker:
		return ModeWorker
	}
	return ModeUnknown
}
