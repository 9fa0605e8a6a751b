package acp

import (
	"context"
	"encoding/json"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/goose-acp/goose-acp/core/unavailable"
)

// CodeUnavailable answers every _goose/unstable method whose feature
// goose-acp does not ship (dictation, local inference, live voice, …): a
// server-error code of its own, so a client can tell "by design" from a
// failure. The message names the feature and says why; data carries
// {"feature", "method"}.
const CodeUnavailable int64 = -32050

// UnavailableMethod is a _goose/unstable method of a feature goose-acp
// does not ship.
type UnavailableMethod struct {
	Method  string
	Feature unavailable.Feature
	// None, when set, is the method's truthful answer in its schema's
	// shape ("no dictation providers", "no local models") instead of the
	// error: Desktop and goose's publish check read these on a fresh
	// install and must get a valid answer.
	None func() any
}

// UnstableUnavailable is the one table of them (docs/desktop.md lists it).
var UnstableUnavailable = []UnavailableMethod{
	{Method: "_goose/unstable/dictation/config", Feature: unavailable.Dictation,
		None: func() any { return map[string]any{"providers": map[string]any{}} }},
	{Method: "_goose/unstable/dictation/models/list", Feature: unavailable.Dictation,
		None: func() any { return map[string]any{"models": []any{}} }},
	{Method: "_goose/unstable/dictation/transcribe", Feature: unavailable.Dictation},
	{Method: "_goose/unstable/dictation/models/download", Feature: unavailable.Dictation},
	{Method: "_goose/unstable/dictation/models/download/progress", Feature: unavailable.Dictation},
	{Method: "_goose/unstable/dictation/models/cancel", Feature: unavailable.Dictation},
	{Method: "_goose/unstable/dictation/models/delete", Feature: unavailable.Dictation},
	{Method: "_goose/unstable/local-inference/models/list", Feature: unavailable.LocalInference,
		None: func() any { return map[string]any{"models": []any{}} }},
	{Method: "_goose/unstable/local-inference/models/download", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/download/progress", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/download/cancel", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/delete", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/evict", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/settings/read", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/models/settings/update", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/huggingface/search", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/huggingface/repo/variants", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/local-inference/chat-templates/builtin/list", Feature: unavailable.LocalInference},
	{Method: "_goose/unstable/session/live-voice/availability", Feature: unavailable.LiveVoice,
		None: func() any {
			return map[string]any{"status": "unavailable", "message": unavailable.LiveVoice.Message()}
		}},
	{Method: "_goose/unstable/session/live-voice/start", Feature: unavailable.LiveVoice},
	{Method: "_goose/unstable/session/live-voice/stop", Feature: unavailable.LiveVoice},
	{Method: "_goose/unstable/session/share/nostr", Feature: nostrFeature},
	{Method: "_goose/unstable/apps/export", Feature: appsFeature},
	{Method: "_goose/unstable/apps/import", Feature: appsFeature},
	{Method: "_goose/unstable/apps/delete", Feature: appsFeature},
}

// unstableUnavailableMethods answers the table's methods.
func unstableUnavailableMethods() map[string]RequestHandler {
	table := make(map[string]RequestHandler, len(UnstableUnavailable))
	for _, m := range UnstableUnavailable {
		if m.None != nil {
			none := m.None
			table[m.Method] = func(context.Context, json.RawMessage) (any, error) { return none(), nil }
			continue
		}
		// The error (its data JSON-encoded) is made when the method is
		// called, not for every method as a connection starts.
		table[m.Method] = func(context.Context, json.RawMessage) (any, error) { return nil, unavailableError(m.Feature, m.Method) }
	}
	return table
}

// unavailableError is the JSON-RPC error of f (method may be empty).
func unavailableError(f unavailable.Feature, method string) *jsonrpc2.Error {
	e := &jsonrpc2.Error{Code: CodeUnavailable, Message: f.Message()}
	data := map[string]string{"feature": f.Name}
	if method != "" {
		data["method"] = method
	}
	e.SetError(data)
	return e
}
