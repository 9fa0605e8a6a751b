package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/goose-acp/goose-acp/core/config"
)

// _goose/unstable/config/* and config/extensions/*: config.yaml, the
// secret store and the extensions map, through core/config.

func (s *Server) unstableConfigMethods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"_goose/unstable/config/read":                   typed(s.unstableConfigRead),
		"_goose/unstable/config/read-all":               typed(s.unstableConfigReadAll),
		"_goose/unstable/config/upsert":                 typed(s.unstableConfigUpsert),
		"_goose/unstable/config/remove":                 typed(s.unstableConfigRemove),
		"_goose/unstable/config/extensions/list":        typed(s.unstableExtensionsList),
		"_goose/unstable/config/extensions/add":         typed(s.unstableExtensionsAdd),
		"_goose/unstable/config/extensions/remove":      typed(s.unstableExtensionsRemove),
		"_goose/unstable/config/extensions/set-enabled": typed(s.unstableExtensionsSetEnabled),
	}
}

type configReadRequest struct {
	Key      string `json:"key"`
	IsSecret bool   `json:"isSecret"`
}

type configUpsertRequest struct {
	Key      string          `json:"key"`
	Value    json.RawMessage `json:"value"`
	IsSecret bool            `json:"isSecret"`
}

type configValueResponse struct {
	Value any `json:"value"`
}

type emptyResponse struct{}

// unstableConfigRead answers one value (environment overrides applied),
// null when unset; a secret comes back masked (goose's mask_secret: the
// first half, at most 8 characters, then one * per hidden character).
func (s *Server) unstableConfigRead(_ context.Context, req configReadRequest) (configValueResponse, error) {
	st, err := s.settings()
	if err != nil {
		return configValueResponse{}, err
	}
	if req.Key == "" {
		return configValueResponse{}, invalidParams("key cannot be empty")
	}
	get := st.Config.Get
	if req.IsSecret {
		get = st.Config.GetSecret
	}
	v, err := get(req.Key)
	switch {
	case errors.Is(err, config.ErrNotFound):
		return configValueResponse{Value: nil}, nil
	case err != nil:
		return configValueResponse{}, err
	case req.IsSecret:
		return configValueResponse{Value: config.MaskSecret(v)}, nil
	}
	return configValueResponse{Value: v}, nil
}

// unstableConfigReadAll answers the merged config files (no secrets, no
// environment), as goose's all_values.
func (s *Server) unstableConfigReadAll(context.Context, struct{}) (map[string]any, error) {
	st, err := s.settings()
	if err != nil {
		return nil, err
	}
	values, err := st.Config.GetAll()
	if err != nil {
		return nil, err
	}
	if values == nil {
		values = map[string]any{}
	}
	return map[string]any{"config": values}, nil
}

func (s *Server) unstableConfigUpsert(_ context.Context, req configUpsertRequest) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	if req.Key == "" {
		return emptyResponse{}, invalidParams("key cannot be empty")
	}
	var v any
	if len(req.Value) == 0 {
		return emptyResponse{}, invalidParams("missing field `value`")
	}
	if err := json.Unmarshal(req.Value, &v); err != nil {
		return emptyResponse{}, invalidParams("value must be JSON: %v", err)
	}
	if req.IsSecret {
		err = st.Config.Secrets().Set(req.Key, v)
	} else {
		err = st.Config.Set(req.Key, v)
	}
	return emptyResponse{}, err
}

func (s *Server) unstableConfigRemove(_ context.Context, req configReadRequest) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	if req.Key == "" {
		return emptyResponse{}, invalidParams("key cannot be empty")
	}
	if req.IsSecret {
		return emptyResponse{}, st.Config.Secrets().Delete(req.Key)
	}
	return emptyResponse{}, st.Config.Delete(req.Key)
}

type extensionEntryWire struct {
	Extension GooseExtension `json:"extension"`
	Enabled   bool           `json:"enabled"`
	ConfigKey string         `json:"configKey"`
}

type extensionsListResponse struct {
	Extensions []extensionEntryWire `json:"extensions"`
	Warnings   []string             `json:"warnings"`
}

// unstableExtensionsList answers config.yaml's extensions by key, with a
// warning for each entry that does not parse or has no wire form.
func (s *Server) unstableExtensionsList(context.Context, struct{}) (extensionsListResponse, error) {
	out := extensionsListResponse{Extensions: []extensionEntryWire{}, Warnings: []string{}}
	st, err := s.settings()
	if err != nil {
		return out, err
	}
	entries, errs := st.Config.Extensions()
	for _, e := range errs {
		if errors.Is(e, config.ErrCorruptConfig) {
			return out, e
		}
		out.Warnings = append(out.Warnings, e.Error())
	}
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		entry := entries[key]
		g, ok := extensionToWire(entry.Config)
		if !ok {
			out.Warnings = append(out.Warnings, fmt.Sprintf("extension %q (type %s) is not listed: goose's ACP API has no form for it", key, entry.Config.Type))
			continue
		}
		out.Extensions = append(out.Extensions, extensionEntryWire{Extension: g, Enabled: entry.Enabled, ConfigKey: key})
	}
	return out, nil
}

type extensionAddWire struct {
	Extension *GooseExtension `json:"extension"`
	Enabled   bool            `json:"enabled"`
}

// unstableExtensionsAdd writes the extension under name_to_key(name),
// replacing one with that key; a stdio server's env values are stored as
// secrets and only their names go to config.yaml.
func (s *Server) unstableExtensionsAdd(_ context.Context, req extensionAddWire) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	if req.Extension == nil {
		return emptyResponse{}, invalidParams("missing field `extension`")
	}
	cfg, secrets, err := extensionFromWire(*req.Extension)
	if err != nil {
		return emptyResponse{}, err
	}
	if cfg.Key() == "" {
		return emptyResponse{}, invalidParams("extension name %q gives an empty config key", cfg.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(secrets)) {
		if err := st.Config.Secrets().Set(k, secrets[k]); err != nil {
			return emptyResponse{}, fmt.Errorf("Failed to save extension env secrets: %w", err)
		}
	}
	return emptyResponse{}, st.Config.SetExtension(config.ExtensionEntry{Enabled: req.Enabled, Config: cfg})
}

type extensionKeyWire struct {
	ConfigKey string `json:"configKey"`
	Enabled   *bool  `json:"enabled"`
}

func (s *Server) unstableExtensionsRemove(_ context.Context, req extensionKeyWire) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	if req.ConfigKey == "" {
		return emptyResponse{}, invalidParams("configKey cannot be empty")
	}
	return emptyResponse{}, st.Config.RemoveExtension(req.ConfigKey)
}

func (s *Server) unstableExtensionsSetEnabled(_ context.Context, req extensionKeyWire) (emptyResponse, error) {
	st, err := s.settings()
	if err != nil {
		return emptyResponse{}, err
	}
	if req.Enabled == nil {
		return emptyResponse{}, invalidParams("missing field `enabled`")
	}
	err = st.Config.SetExtensionEnabled(req.ConfigKey, *req.Enabled)
	if errors.Is(err, config.ErrNotFound) {
		return emptyResponse{}, invalidParams("Extension '%s' not found", req.ConfigKey)
	}
	return emptyResponse{}, err
}
