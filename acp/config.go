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

// configAPI answers config.yaml and secret values and the extensions of
// config.yaml, through core/config.
type configAPI struct {
	cfg *config.Config
}

func (a *configAPI) methods() map[string]RequestHandler {
	return gated(a.check, map[string]RequestHandler{
		// goose's names before the _goose/unstable rename, kept as aliases.
		"_goose/config/read":       typed(a.read),
		"_goose/config/upsert":     typed(a.upsert),
		"_goose/config/remove":     typed(a.remove),
		"_goose/config/extensions": typed(a.extensions),

		"_goose/unstable/config/read":                   typed(a.read),
		"_goose/unstable/config/read-all":               typed(a.readAll),
		"_goose/unstable/config/upsert":                 typed(a.upsert),
		"_goose/unstable/config/remove":                 typed(a.remove),
		"_goose/unstable/config/extensions/list":        typed(a.extensions),
		"_goose/unstable/config/extensions/add":         typed(a.addExtension),
		"_goose/unstable/config/extensions/remove":      typed(a.removeExtension),
		"_goose/unstable/config/extensions/set-enabled": typed(a.setExtensionEnabled),
	})
}

func (a *configAPI) check() error {
	if a.cfg == nil {
		return errNoSettings
	}
	return nil
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

// read answers one value (environment overrides applied), null when
// unset; a secret comes back masked (goose's mask_secret: the
// first half, at most 8 characters, then one * per hidden character).
func (a *configAPI) read(_ context.Context, req configReadRequest) (configValueResponse, error) {
	if req.Key == "" {
		return configValueResponse{}, invalidParams("key cannot be empty")
	}
	get := a.cfg.Get
	if req.IsSecret {
		get = a.cfg.GetSecret
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

// readAll answers the merged config files (no secrets, no
// environment), as goose's all_values.
func (a *configAPI) readAll(context.Context, struct{}) (map[string]any, error) {
	values, err := a.cfg.GetAll()
	if err != nil {
		return nil, err
	}
	if values == nil {
		values = map[string]any{}
	}
	return map[string]any{"config": values}, nil
}

func (a *configAPI) upsert(_ context.Context, req configUpsertRequest) (emptyResponse, error) {
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
		return emptyResponse{}, a.cfg.Secrets().Set(req.Key, v)
	}
	return emptyResponse{}, a.cfg.Set(req.Key, v)
}

func (a *configAPI) remove(_ context.Context, req configReadRequest) (emptyResponse, error) {
	if req.Key == "" {
		return emptyResponse{}, invalidParams("key cannot be empty")
	}
	if req.IsSecret {
		return emptyResponse{}, a.cfg.Secrets().Delete(req.Key)
	}
	return emptyResponse{}, a.cfg.Delete(req.Key)
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

// extensions answers config.yaml's extensions by key, with a
// warning for each entry that does not parse or has no wire form.
func (a *configAPI) extensions(context.Context, struct{}) (extensionsListResponse, error) {
	out := extensionsListResponse{Extensions: []extensionEntryWire{}, Warnings: []string{}}
	entries, errs := a.cfg.Extensions()
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

// addExtension writes the extension under name_to_key(name),
// replacing one with that key; a stdio server's env values are stored as
// secrets and only their names go to config.yaml.
func (a *configAPI) addExtension(_ context.Context, req extensionAddWire) (emptyResponse, error) {
	if req.Extension == nil {
		return emptyResponse{}, invalidParams("missing field `extension`")
	}
	cfg, env, err := extensionFromWire(*req.Extension)
	if err != nil {
		return emptyResponse{}, err
	}
	return emptyResponse{}, a.cfg.AddExtensionWithEnvSecrets(config.ExtensionEntry{Enabled: req.Enabled, Config: cfg}, env)
}

type extensionKeyWire struct {
	ConfigKey string `json:"configKey"`
	Enabled   *bool  `json:"enabled"`
}

func (a *configAPI) removeExtension(_ context.Context, req extensionKeyWire) (emptyResponse, error) {
	if req.ConfigKey == "" {
		return emptyResponse{}, invalidParams("configKey cannot be empty")
	}
	return emptyResponse{}, a.cfg.RemoveExtension(req.ConfigKey)
}

func (a *configAPI) setExtensionEnabled(_ context.Context, req extensionKeyWire) (emptyResponse, error) {
	if req.Enabled == nil {
		return emptyResponse{}, invalidParams("missing field `enabled`")
	}
	return emptyResponse{}, badName(a.cfg.SetExtensionEnabled(req.ConfigKey, *req.Enabled))
}
