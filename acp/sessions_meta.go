package acp

import (
	"encoding/json"

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
			cfg.Envs, cfg.EnvKeys = env, g.EnvKeys
		}
		out = append(out, cfg)
	}
	return out, true, nil
}
