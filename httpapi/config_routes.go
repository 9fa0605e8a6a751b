package httpapi

import (
	"errors"
	"net/http"
	"sort"

	"github.com/goose-acp/goose-acp/core/config"
)

// needConfig answers 503 when the server runs without config.yaml access.
func (s *Server) needConfig(w http.ResponseWriter, r *http.Request) bool {
	if s.opts.Config == nil {
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "configuration is not available in this goose-acp server"))
		return false
	}
	return true
}

// readAllConfig answers the merged config files without env overrides.
func (s *Server) readAllConfig(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	values, err := s.opts.Config.GetAll()
	if err != nil {
		s.writeError(w, r, errorf(http.StatusUnprocessableEntity, "%w", err))
		return
	}
	if values == nil {
		values = map[string]any{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"config": values})
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
func (s *Server) readConfig(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q configKeyQuery
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	get, answer := s.opts.Config.Get, func(v any) any { return v }
	if *q.IsSecret {
		get = s.opts.Config.GetSecret
		answer = func(v any) any { return config.MaskedValue{MaskedValue: config.MaskSecret(v)} }
	}
	v, err := get(q.Key)
	switch {
	case errors.Is(err, config.ErrNotFound):
		writeJSON(w, http.StatusOK, nil)
	case err != nil:
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
	default:
		writeJSON(w, http.StatusOK, answer(v))
	}
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

func (s *Server) upsertConfig(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q upsertConfigQuery
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	var err error
	if *q.IsSecret {
		err = s.opts.Config.Secrets().Set(q.Key, q.Value)
	} else {
		err = s.opts.Config.Set(q.Key, q.Value)
	}
	if err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	writeJSON(w, http.StatusOK, "Upserted key "+q.Key)
}

func (s *Server) removeConfig(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q configKeyQuery
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
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
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, "Removed key "+q.Key)
}

func (s *Server) validateConfig(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	if _, err := s.opts.Config.GetAll(); err != nil {
		writeJSON(w, http.StatusUnprocessableEntity, "Config file is corrupted: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, "Config is valid")
}

// getExtensions answers config.yaml's extensions with parse warnings.
func (s *Server) getExtensions(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	entries, errs := s.opts.Config.Extensions()
	out := []config.ExtensionEntry{}
	for _, k := range sortedKeys(entries) {
		out = append(out, entries[k])
	}
	warnings := []string{}
	for _, e := range errs {
		warnings = append(warnings, e.Error())
	}
	writeJSON(w, http.StatusOK, map[string]any{"extensions": out, "warnings": warnings})
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

func (s *Server) addExtension(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	var q extensionQuery
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	key := config.NameToKey(q.Name)
	_, getErr := s.opts.Config.Extension(key)
	if err := s.opts.Config.SetExtension(config.ExtensionEntry{Enabled: *q.Enabled, Config: *q.Config}); err != nil {
		s.writeError(w, r, errorf(http.StatusInternalServerError, "%w", err))
		return
	}
	if getErr == nil {
		writeJSON(w, http.StatusOK, "Updated extension "+q.Name)
		return
	}
	writeJSON(w, http.StatusOK, "Added extension "+q.Name)
}

func (s *Server) removeExtension(w http.ResponseWriter, r *http.Request) {
	if !s.needConfig(w, r) {
		return
	}
	name := r.PathValue("name")
	key := config.NameToKey(name)
	if _, err := s.opts.Config.Extension(key); err != nil {
		s.writeError(w, r, notFound("Extension %s not found", name))
		return
	}
	if err := s.opts.Config.RemoveExtension(key); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, "Removed extension "+name)
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
func (s *Server) upsertPermissions(w http.ResponseWriter, r *http.Request) {
	if s.opts.Permissions == nil {
		s.writeError(w, r, errorf(http.StatusServiceUnavailable, "permissions are not available in this goose-acp server"))
		return
	}
	var q upsertPermissionsQuery
	if err := decodeJSON(r, &q); err != nil {
		s.writeError(w, r, err)
		return
	}
	for _, p := range q.ToolPermissions {
		if err := s.opts.Permissions.SetUser(p.ToolName, p.Permission); err != nil {
			s.writeError(w, r, badRequest("%w", err))
			return
		}
	}
	writeJSON(w, http.StatusOK, "Permissions updated successfully")
}

type slashCommand struct {
	Command     string `json:"command"`
	Help        string `json:"help"`
	CommandType string `json:"command_type"`
}

// slashCommands lists goose's built-in commands and the recipe commands
// bound in config.yaml (slash_commands: [{command, recipe_path}]).
func (s *Server) slashCommands(w http.ResponseWriter, r *http.Request) {
	cmds := []slashCommand{
		{Command: "compact", Help: "Compact the conversation history", CommandType: "Builtin"},
		{Command: "clear", Help: "Clear the conversation history", CommandType: "Builtin"},
	}
	for _, b := range s.recipeSlashCommands() {
		cmds = append(cmds, slashCommand{Command: b.Command, Help: b.RecipePath, CommandType: "Recipe"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"commands": cmds})
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
