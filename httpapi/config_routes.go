package httpapi

import (
	"errors"
	"net/http"
	"sort"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/errkind"
	"github.com/goose-acp/goose-acp/core/permission"
	"github.com/goose-acp/goose-acp/core/recipe"
)

// configAPI answers /config/*: config.yaml, secrets and extensions
// through core/config, tool permissions, and the slash commands.
type configAPI struct {
	cfg *config.Config
	// extensions write tool permissions (core's, as the ACP face's).
	extensions agent.Extensions
	library    *recipe.Library
}

func (a *configAPI) routes() []route {
	cfg := func(e endpoint) endpoint { return needs(a.cfg != nil, errNoConfig, e) }
	return []route{
		{"GET", "/config", 0, cfg(noInput(a.readAllConfig)), nil},
		{"POST", "/config/read", 0, cfg(withBody(a.readConfig)), nil},
		{"POST", "/config/upsert", 0, cfg(withBody(a.upsertConfig)), nil},
		{"POST", "/config/remove", 0, cfg(withBody(a.removeConfig)), nil},
		{"GET", "/config/validate", 0, cfg(noInput(a.validateConfig)), nil},
		{"GET", "/config/extensions", 0, cfg(noInput(a.getExtensions)), nil},
		{"POST", "/config/extensions", 0, cfg(withBody(a.addExtension)), nil},
		{"DELETE", "/config/extensions/{name}", 0, cfg(noInput(a.removeExtension)), nil},
		{"POST", "/config/permissions", 0, withBody(a.upsertPermissions), nil},
		{"GET", "/config/slash_commands", 0, noInput(a.slashCommands), nil},
	}
}

// readAllConfig answers the merged config files without env overrides.
func (a *configAPI) readAllConfig(*http.Request) (reply, error) {
	values, err := a.cfg.GetAll()
	if err != nil {
		return reply{}, errorf(http.StatusUnprocessableEntity, "%w", err)
	}
	if values == nil {
		values = map[string]any{}
	}
	return ok(map[string]any{"config": values}), nil
}

type configKeyQuery struct {
	Key      string `json:"key"`
	IsSecret *bool  `json:"is_secret"`
}

func (q configKeyQuery) check() error {
	if q.IsSecret == nil {
		return errors.New("missing field `is_secret`")
	}
	return required("key", q.Key)
}

// readConfig answers one value with env overrides applied (null when
// unset); a secret answers {"maskedValue": …}.
func (a *configAPI) readConfig(_ *http.Request, q configKeyQuery) (reply, error) {
	get, answer := a.cfg.Get, func(v any) any { return v }
	if *q.IsSecret {
		get = a.cfg.GetSecret
		answer = func(v any) any { return config.MaskedValue{MaskedValue: config.MaskSecret(v)} }
	}
	v, err := get(q.Key)
	switch {
	case errors.Is(err, config.ErrNotFound):
		return ok(nil), nil
	case err != nil:
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	return ok(answer(v)), nil
}

type upsertConfigQuery struct {
	Key      string `json:"key"`
	Value    any    `json:"value"`
	IsSecret *bool  `json:"is_secret"`
}

func (q upsertConfigQuery) check() error {
	if q.IsSecret == nil {
		return errors.New("missing field `is_secret`")
	}
	return required("key", q.Key)
}

func (a *configAPI) upsertConfig(_ *http.Request, q upsertConfigQuery) (reply, error) {
	var err error
	if *q.IsSecret {
		err = a.cfg.Secrets().Set(q.Key, q.Value)
	} else {
		err = a.cfg.Set(q.Key, q.Value)
	}
	if err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	return ok("Upserted key " + q.Key), nil
}

func (a *configAPI) removeConfig(_ *http.Request, q configKeyQuery) (reply, error) {
	var err error
	if *q.IsSecret {
		if _, gerr := a.cfg.Secrets().Get(q.Key); gerr != nil {
			err = gerr
		} else {
			err = a.cfg.Secrets().Delete(q.Key)
		}
	} else {
		all, gerr := a.cfg.GetAll()
		if _, ok := all[q.Key]; gerr == nil && !ok {
			gerr = notFound("Configuration value not found: %s", q.Key)
		}
		if err = gerr; err == nil {
			err = a.cfg.Delete(q.Key)
		}
	}
	if err != nil {
		return reply{}, err
	}
	return ok("Removed key " + q.Key), nil
}

func (a *configAPI) validateConfig(*http.Request) (reply, error) {
	if _, err := a.cfg.GetAll(); err != nil {
		return jsonStatus(http.StatusUnprocessableEntity, "Config file is corrupted: "+err.Error()), nil
	}
	return ok("Config is valid"), nil
}

// getExtensions answers config.yaml's extensions with parse warnings.
func (a *configAPI) getExtensions(*http.Request) (reply, error) {
	entries, errs := a.cfg.Extensions()
	out := []config.ExtensionEntry{}
	for _, k := range sortedKeys(entries) {
		out = append(out, entries[k])
	}
	warnings := []string{}
	for _, e := range errs {
		warnings = append(warnings, e.Error())
	}
	return ok(map[string]any{"extensions": out, "warnings": warnings}), nil
}

type extensionQuery struct {
	Name    string                  `json:"name"`
	Config  *config.ExtensionConfig `json:"config"`
	Enabled *bool                   `json:"enabled"`
}

func (q extensionQuery) check() error {
	if q.Config == nil {
		return errors.New("missing field `config`")
	}
	if q.Enabled == nil {
		return errors.New("missing field `enabled`")
	}
	return required("name", q.Name)
}

func (a *configAPI) addExtension(_ *http.Request, q extensionQuery) (reply, error) {
	key := config.NameToKey(q.Name)
	_, getErr := a.cfg.Extension(key)
	if err := a.cfg.SetExtension(config.ExtensionEntry{Enabled: *q.Enabled, Config: *q.Config}); err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	if getErr == nil {
		return ok("Updated extension " + q.Name), nil
	}
	return ok("Added extension " + q.Name), nil
}

func (a *configAPI) removeExtension(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	key := config.NameToKey(name)
	if _, err := a.cfg.Extension(key); err != nil {
		return reply{}, notFound("Extension %s not found", name)
	}
	if err := a.cfg.RemoveExtension(key); err != nil {
		return reply{}, err
	}
	return ok("Removed extension " + name), nil
}

type toolPermission struct {
	ToolName   string                 `json:"tool_name"`
	Permission config.PermissionLevel `json:"permission"`
}

type upsertPermissionsQuery struct {
	ToolPermissions []toolPermission `json:"tool_permissions"`
}

func (q upsertPermissionsQuery) check() error {
	if q.ToolPermissions == nil {
		return errors.New("missing field `tool_permissions`")
	}
	for _, p := range q.ToolPermissions {
		if !p.Permission.Valid() {
			return errors.New("tool_permissions: unknown permission level " + string(p.Permission))
		}
	}
	return nil
}

// upsertPermissions writes per-tool levels to permission.yaml.
func (a *configAPI) upsertPermissions(_ *http.Request, q upsertPermissionsQuery) (reply, error) {
	for _, p := range q.ToolPermissions {
		if err := a.extensions.SetToolPermission(p.ToolName, permission.Level(p.Permission)); err != nil {
			if errkind.Is(err, errkind.Unavailable) { // no permission store: 503
				return reply{}, err
			}
			return reply{}, badRequest("%w", err)
		}
	}
	return ok("Permissions updated successfully"), nil
}

type slashCommand struct {
	Command     string `json:"command"`
	Help        string `json:"help"`
	CommandType string `json:"command_type"`
}

// slashCommands lists goose's built-in commands and the recipe commands
// bound in config.yaml (slash_commands: [{command, recipe_path}]).
func (a *configAPI) slashCommands(*http.Request) (reply, error) {
	cmds := []slashCommand{
		{Command: "compact", Help: "Compact the conversation history", CommandType: "Builtin"},
		{Command: "clear", Help: "Clear the conversation history", CommandType: "Builtin"},
	}
	for _, b := range a.library.SlashCommands() {
		cmds = append(cmds, slashCommand{Command: b.Command, Help: b.RecipePath, CommandType: "Recipe"})
	}
	return ok(map[string]any{"commands": cmds}), nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
