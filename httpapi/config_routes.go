package httpapi

import (
	"errors"
	"net/http"
	"sort"

	"github.com/goose-acp/goose-acp/core/config"
)

// readAllConfig answers the merged config files without env overrides.
func (s *Server) readAllConfig(*http.Request) (reply, error) {
	values, err := s.opts.Config.GetAll()
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
func (s *Server) readConfig(_ *http.Request, q configKeyQuery) (reply, error) {
	get, answer := s.opts.Config.Get, func(v any) any { return v }
	if *q.IsSecret {
		get = s.opts.Config.GetSecret
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

func (s *Server) upsertConfig(_ *http.Request, q upsertConfigQuery) (reply, error) {
	var err error
	if *q.IsSecret {
		err = s.opts.Config.Secrets().Set(q.Key, q.Value)
	} else {
		err = s.opts.Config.Set(q.Key, q.Value)
	}
	if err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	return ok("Upserted key " + q.Key), nil
}

func (s *Server) removeConfig(_ *http.Request, q configKeyQuery) (reply, error) {
	var err error
	if *q.IsSecret {
		if _, gerr := s.opts.Config.Secrets().Get(q.Key); gerr != nil {
			err = gerr
		} else {
			err = s.opts.Config.Secrets().Delete(q.Key)
		}
	} else {
		all, gerr := s.opts.Config.GetAll()
		if _, ok := all[q.Key]; gerr == nil && !ok {
			gerr = notFound("Configuration value not found: %s", q.Key)
		}
		if err = gerr; err == nil {
			err = s.opts.Config.Delete(q.Key)
		}
	}
	if err != nil {
		return reply{}, err
	}
	return ok("Removed key " + q.Key), nil
}

func (s *Server) validateConfig(*http.Request) (reply, error) {
	if _, err := s.opts.Config.GetAll(); err != nil {
		return jsonStatus(http.StatusUnprocessableEntity, "Config file is corrupted: "+err.Error()), nil
	}
	return ok("Config is valid"), nil
}

// getExtensions answers config.yaml's extensions with parse warnings.
func (s *Server) getExtensions(*http.Request) (reply, error) {
	entries, errs := s.opts.Config.Extensions()
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

func (s *Server) addExtension(_ *http.Request, q extensionQuery) (reply, error) {
	key := config.NameToKey(q.Name)
	_, getErr := s.opts.Config.Extension(key)
	if err := s.opts.Config.SetExtension(config.ExtensionEntry{Enabled: *q.Enabled, Config: *q.Config}); err != nil {
		return reply{}, errorf(http.StatusInternalServerError, "%w", err)
	}
	if getErr == nil {
		return ok("Updated extension " + q.Name), nil
	}
	return ok("Added extension " + q.Name), nil
}

func (s *Server) removeExtension(r *http.Request) (reply, error) {
	name := r.PathValue("name")
	key := config.NameToKey(name)
	if _, err := s.opts.Config.Extension(key); err != nil {
		return reply{}, notFound("Extension %s not found", name)
	}
	if err := s.opts.Config.RemoveExtension(key); err != nil {
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
func (s *Server) upsertPermissions(_ *http.Request, q upsertPermissionsQuery) (reply, error) {
	for _, p := range q.ToolPermissions {
		if err := s.opts.Permissions.SetUser(p.ToolName, p.Permission); err != nil {
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
func (s *Server) slashCommands(*http.Request) (reply, error) {
	cmds := []slashCommand{
		{Command: "compact", Help: "Compact the conversation history", CommandType: "Builtin"},
		{Command: "clear", Help: "Clear the conversation history", CommandType: "Builtin"},
	}
	for _, b := range s.recipes().SlashCommands() {
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
