package acp

import (
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/config"
	"github.com/goose-acp/goose-acp/core/session"
)

// What Goose Desktop reads beyond the ACP schema in session/new and
// session/load: the results' _meta (sessions.ts, chatSessionController.ts)
// and session/new's _meta.enabledExtensions.

// sessionResultMeta is goose's session/new and session/load _meta: the
// recipe the session runs and the values it was given, each extension's
// load outcome, and the working dir.
func sessionResultMeta(sess *session.Session, results []extensionResult) Meta {
	if results == nil {
		results = []extensionResult{}
	}
	m := Meta{"extensionResults": results, "workingDir": sess.WorkingDir}
	if len(sess.Recipe) > 0 && string(sess.Recipe) != "null" {
		m["recipe"] = json.RawMessage(sess.Recipe)
	}
	if sess.UserRecipeValues != nil {
		m["userRecipeValues"] = sess.UserRecipeValues
	}
	return m
}

// enabledExtensions reads session/new's _meta.enabledExtensions (Desktop's
// new-chat extension choice, GooseExtension objects): ok when the key is
// present and not null, an empty list meaning no extensions at all.
func enabledExtensions(meta Meta) ([]config.ExtensionConfig, bool, error) {
	raw, present := meta["enabledExtensions"]
	if !present || raw == nil {
		return nil, false, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, false, invalidParams("enabledExtensions: %v", err)
	}
	var wire []GooseExtension
	if err := json.Unmarshal(b, &wire); err != nil {
		return nil, false, invalidParams("enabledExtensions: %v", err)
	}
	out := make([]config.ExtensionConfig, 0, len(wire))
	for _, g := range wire {
		cfg, env, err := extensionFromWire(g)
		if err != nil {
			return nil, false, err
		}
		if len(env) > 0 {
			cfg.Envs = envValues(env)
		}
		out = append(out, cfg)
	}
	return out, true, nil
}

// listOptions reads session/list's _meta as goose and Desktop use it:
// query (words matched in names and message text), types (user,
// scheduled, acp; default every listed type), goose.archiveState
// ("active", the default, hides archived sessions; "archived" lists only
// them; "all" both) and goose.includeLastMessageSnippet.
func listOptions(meta Meta) (session.ListOptions, error) {
	opts := session.ListOptions{Types: listedTypes, Archived: session.ArchivedHidden}
	if q, ok := meta["query"]; ok && q != nil {
		s, ok := q.(string)
		if !ok {
			return opts, invalidParams("query must be a string")
		}
		opts.Query = strings.TrimSpace(s)
	}
	if raw, ok := meta["types"]; ok && raw != nil {
		list, ok := raw.([]any)
		if !ok {
			return opts, invalidParams("types must be an array of session type strings")
		}
		var types []session.Type
		for _, v := range list {
			t, _ := v.(string)
			switch session.Type(t) {
			case session.TypeUser, session.TypeScheduled, session.TypeACP:
				types = append(types, session.Type(t))
			default:
				return opts, invalidParams("types may only include user, scheduled, or acp")
			}
		}
		if len(types) > 0 {
			opts.Types = types
		}
	}
	g, ok := meta["goose"].(map[string]any)
	if !ok {
		if meta["goose"] != nil {
			return opts, invalidParams("goose must be an object")
		}
		return opts, nil
	}
	switch v := g["archiveState"]; v {
	case nil, "active":
	case "archived":
		opts.Archived = session.ArchivedOnly
	case "all":
		opts.Archived = session.ArchivedIncluded
	default:
		return opts, invalidParams("goose.archiveState must be active, archived or all")
	}
	if v, ok := g["includeLastMessageSnippet"]; ok && v != nil {
		b, ok := v.(bool)
		if !ok {
			return opts, invalidParams("goose.includeLastMessageSnippet must be a boolean")
		}
		opts.Snippets = b
	}
	return opts, nil
}
