package acp

import (
	"context"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/setup"
)

// _goose/unstable/defaults/* (GOOSE_PROVIDER / GOOSE_MODEL, through
// core/setup) and preferences/* (config.Preferences).

// defaultsAPI answers the default provider and model (through core/setup)
// and the preferences (through core/config).
type defaultsAPI struct {
	setup *setup.Setup
	cfg   *config.Config
}

func (a *defaultsAPI) methods() map[string]RequestHandler {
	return gated(a.check, map[string]RequestHandler{
		"_goose/unstable/defaults/read":    typed(a.readDefaults),
		"_goose/unstable/defaults/save":    typed(a.saveDefaults),
		"_goose/unstable/defaults/clear":   typed(a.clearDefaults),
		"_goose/unstable/preferences/read": typed(a.readPreferences),
		"_goose/unstable/preferences/save": typed(a.savePreferences),
	})
}

func (a *defaultsAPI) check() error {
	if a.setup == nil || a.cfg == nil {
		return errNoSettings
	}
	return nil
}

type defaultsWire struct {
	ProviderID *string `json:"providerId"`
	ModelID    *string `json:"modelId"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (a *defaultsAPI) readDefaults(context.Context, struct{}) (defaultsWire, error) {
	p, m, err := a.setup.Default()
	if err != nil {
		return defaultsWire{}, err
	}
	return defaultsWire{ProviderID: optional(p), ModelID: optional(m)}, nil
}

// saveDefaults stores the provider with the given model, or the
// provider's default model, and answers what was stored.
func (a *defaultsAPI) saveDefaults(_ context.Context, req defaultsWire) (defaultsWire, error) {
	var name, modelName string
	if req.ProviderID != nil {
		name = strings.TrimSpace(*req.ProviderID)
	}
	if req.ModelID != nil {
		modelName = *req.ModelID
	}
	if name == "" {
		return defaultsWire{}, invalidParams("providerId cannot be empty")
	}
	if _, err := a.setup.Lookup(name); err != nil {
		return defaultsWire{}, invalidParams("Unknown provider: %s", name)
	}
	stored, err := a.setup.SaveDefault(name, modelName)
	if err != nil {
		return defaultsWire{}, err
	}
	return defaultsWire{ProviderID: &name, ModelID: &stored}, nil
}

func (a *defaultsAPI) clearDefaults(context.Context, struct{}) (defaultsWire, error) {
	return defaultsWire{}, a.setup.ClearDefault()
}

type preferenceWire struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

type preferencesReadRequest struct {
	Keys []string `json:"keys"`
}

type preferencesWire struct {
	Values []preferenceWire `json:"values"`
}

func (a *defaultsAPI) readPreferences(_ context.Context, req preferencesReadRequest) (preferencesWire, error) {
	values, err := a.cfg.ReadPreferences(req.Keys)
	if err != nil {
		return preferencesWire{}, err
	}
	out := preferencesWire{Values: make([]preferenceWire, 0, len(values))}
	for _, v := range values {
		out.Values = append(out.Values, preferenceWire{Key: v.Name, Value: v.Value})
	}
	return out, nil
}

func (a *defaultsAPI) savePreferences(_ context.Context, req preferencesWire) (emptyResponse, error) {
	values := make([]config.PreferenceValue, 0, len(req.Values))
	for _, v := range req.Values {
		values = append(values, config.PreferenceValue{Name: v.Key, Value: v.Value})
	}
	return emptyResponse{}, a.cfg.SavePreferences(values)
}
