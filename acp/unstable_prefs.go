package acp

import (
	"context"
	"errors"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/setup"
)

// _goose/unstable/defaults/* (GOOSE_PROVIDER / GOOSE_MODEL, through
// core/setup) and preferences/* (config.Preferences).

func (s *Server) unstablePrefsMethods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"_goose/unstable/defaults/read":    typed(s.unstableDefaultsRead),
		"_goose/unstable/defaults/save":    typed(s.unstableDefaultsSave),
		"_goose/unstable/defaults/clear":   typed(s.unstableDefaultsClear),
		"_goose/unstable/preferences/read": typed(s.unstablePreferencesRead),
		"_goose/unstable/preferences/save": typed(s.unstablePreferencesSave),
	}
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

func (s *Server) unstableDefaultsRead(context.Context, struct{}) (defaultsWire, error) {
	st, err := s.settings()
	if err != nil {
		return defaultsWire{}, err
	}
	p, m, err := st.Setup.Default()
	if err != nil {
		return defaultsWire{}, err
	}
	return defaultsWire{ProviderID: optional(p), ModelID: optional(m)}, nil
}

// unstableDefaultsSave stores the provider with the given model, or the
// provider's default model, and answers what was stored.
func (s *Server) unstableDefaultsSave(_ context.Context, req defaultsWire) (defaultsWire, error) {
	st, err := s.settings()
	if err != nil {
		return defaultsWire{}, err
	}
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
	stored, err := st.Setup.SaveDefault(name, modelName)
	if errors.Is(err, setup.ErrUnknownProvider) {
		return defaultsWire{}, invalidParams("Unknown provider: %s", name)
	}
	if err != nil {
		return defaultsWire{}, err
	}
	return defaultsWire{ProviderID: &name, ModelID: &stored}, nil
}

func (s *Server) unstableDefaultsClear(context.Context, struct{}) (defaultsWire, error) {
	st, err := s.settings()
	if err != nil {
		return defaultsWire{}, err
	}
	return defaultsWire{}, st.Setup.ClearDefault()
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

func (s *Server) unstablePreferencesRead(_ context.Context, req preferencesReadRequest) (preferencesWire, error) {
	st, err := s.settings()
	if err != nil {
		return preferencesWire{}, err
	}
	values, err := st.Config.ReadPreferences(req.Keys)
	if err != nil {
		return preferencesWire{}, preferenceErr(err)
	}
	out := preferencesWire{Values: make([]preferenceWire, 0, len(values))}
	for _, v := range values {
		out.Values = append(out.Values, preferenceWire{Key: v.Name, Value: v.Value})
	}
	return out, nil
}

func (s *Server) unstablePreferencesSave(_ context.Context, req preferencesWire) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	values := make([]config.PreferenceValue, 0, len(req.Values))
	for _, v := range req.Values {
		values = append(values, config.PreferenceValue{Name: v.Key, Value: v.Value})
	}
	return emptyResponse{}, preferenceErr(st.Config.SavePreferences(values))
}

func preferenceErr(err error) error {
	if errors.Is(err, config.ErrInvalidPreference) {
		return invalidParams("%s", strings.TrimPrefix(err.Error(), config.ErrInvalidPreference.Error()+": "))
	}
	return err
}
