package acp

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/goose-acp/goose-acp/core/agent"
	"github.com/goose-acp/goose-acp/core/extension"
	"github.com/goose-acp/goose-acp/core/provider"
	"github.com/goose-acp/goose-acp/core/session"
)

type extensionResult = extension.Result

// modes are goose's four modes with the descriptions goose's ACP agent shows.
var modes = []SessionMode{
	{ID: "auto", Name: "Auto", Description: "Automatically approve tool calls"},
	{ID: "approve", Name: "Approve", Description: "Ask before every tool call"},
	{ID: "smart_approve", Name: "Smart Approve", Description: "Ask only for sensitive tool calls"},
	{ID: "chat", Name: "Chat", Description: "Chat only, no tool calls"},
}

func validMode(id string) bool {
	for _, m := range modes {
		if m.ID == id {
			return true
		}
	}
	return false
}

func contextSize(sess *session.Session) int {
	if sess.ModelConfig != nil {
		return sess.ModelConfig.Limit()
	}
	return 128_000
}

// optionsAPI answers a session's modes, models and config options through
// the agent, and announces each change to the editor (notify). Before the
// agent has a mode or model for a session, core's defaults (GOOSE_MODE,
// GOOSE_PROVIDER and GOOSE_MODEL as configured now) are shown.
type optionsAPI struct {
	sessions   agent.Sessions
	extensions agent.Extensions
	// caps are the client's capabilities (boolean options).
	caps      func() ClientCapabilities
	loaded    *loadedSessions
	providers func() []provider.Metadata
	notify    func(ctx context.Context, sessionID string, u SessionUpdate)
}

func (a *optionsAPI) methods() map[string]RequestHandler {
	return map[string]RequestHandler{
		"session/set_mode":          typed(a.setMode),
		"session/set_config_option": typed(a.setConfigOption),
		"session/set_model":         typed(a.setModel),
	}
}

// setup is the modes, models and config options of a session's
// new/load/resume/fork answer.
func (a *optionsAPI) setup(sessionID string) SessionSetupResponse {
	return a.setupFrom(a.providerList(), sessionID)
}

// setupFrom is setup with the provider list already read (session/new
// reads it while a fresh process's store is still opening).
func (a *optionsAPI) setupFrom(providers []provider.Metadata, sessionID string) SessionSetupResponse {
	// The model list is the model option's: the options are computed
	// once (each computation lists every provider).
	options := a.optionsFrom(providers, sessionID, "")
	return SessionSetupResponse{
		Modes:         &ModeState{CurrentModeID: a.currentMode(sessionID), AvailableModes: modes},
		Models:        modelState(options[2]),
		ConfigOptions: options,
	}
}

// currentMode is the agent's mode for the session, else core's default.
func (a *optionsAPI) currentMode(sessionID string) string {
	if m, err := a.sessions.Mode(sessionID); err == nil && m != "" {
		return string(m)
	}
	_, _, mode := a.sessions.Defaults()
	return string(mode)
}

// currentProviderModel is the agent's provider and model for the
// session, else core's defaults.
func (a *optionsAPI) currentProviderModel(sessionID string) (string, string) {
	p, cfg, _ := a.sessions.Model(sessionID)
	m := cfg.ModelName
	if p == "" || m == "" {
		dp, dm, _ := a.sessions.Defaults()
		p, m = cmp.Or(p, dp), cmp.Or(m, dm)
	}
	return p, m
}

// options are provider, mode and model selects, in that order, and the
// thinking effort for models that think.
func (a *optionsAPI) options(sessionID string) []ConfigOption { return a.optionsFor(sessionID, "") }

// optionsFor is options with the model shown as activeModel when set
// (the model a lead/worker switch reported).
func (a *optionsAPI) optionsFor(sessionID string, activeModel string) []ConfigOption {
	return a.optionsFrom(a.providerList(), sessionID, activeModel)
}

// optionsFrom is optionsFor with the provider list given.
func (a *optionsAPI) optionsFrom(providers []provider.Metadata, sessionID string, activeModel string) []ConfigOption {
	prov, mdl := a.currentProviderModel(sessionID)
	if activeModel != "" {
		mdl = activeModel
	}
	provOpt := ConfigOption{ID: "provider", Name: "Provider", Type: "select", CurrentValue: prov}
	modelOpt := ConfigOption{ID: "model", Name: "Model", Category: "model", Type: "select", CurrentValue: mdl}
	for _, md := range providers {
		provOpt.Options = append(provOpt.Options, ConfigOptionValue{Value: md.Name, Name: md.DisplayName, Description: md.Description})
		if md.Name != prov {
			continue
		}
		for _, km := range md.KnownModels {
			modelOpt.Options = append(modelOpt.Options, ConfigOptionValue{Value: km.Name, Name: km.Name})
		}
	}
	provOpt.Options = ensureValue(provOpt.Options, prov)
	modelOpt.Options = ensureValue(modelOpt.Options, mdl)
	modeOpt := ConfigOption{ID: "mode", Name: "Mode", Category: "mode", Type: "select", CurrentValue: a.currentMode(sessionID)}
	for _, m := range modes {
		modeOpt.Options = append(modeOpt.Options, ConfigOptionValue{Value: m.ID, Name: m.Name, Description: m.Description})
	}
	out := []ConfigOption{provOpt, modeOpt, modelOpt}
	if effort, thinks, _ := a.sessions.ThinkingEffort(sessionID); thinks {
		out = append(out, thinkingOption(effort))
	}
	return append(out, a.switchOptions(sessionID)...)
}

func (a *optionsAPI) providerList() []provider.Metadata {
	if a.providers == nil {
		return nil
	}
	return a.providers()
}

// thinkingOption is the model's thinking effort (goose's thinking_effort
// option, category thought_level), for models that think.
func thinkingOption(current string) ConfigOption {
	opt := ConfigOption{ID: ThinkingEffortOption, Name: "Thinking effort", Category: "thought_level", Type: "select", CurrentValue: current}
	for _, e := range provider.ThinkingEfforts {
		opt.Options = append(opt.Options, ConfigOptionValue{Value: e, Name: strings.ToUpper(e[:1]) + e[1:]})
	}
	return opt
}

// ThinkingEffortOption is the config option id of the thinking effort.
const ThinkingEffortOption = "thinking_effort"

// ensureValue keeps the current value selectable even when no list has it.
func ensureValue(opts []ConfigOptionValue, v string) []ConfigOptionValue {
	if v == "" {
		return append([]ConfigOptionValue{}, opts...)
	}
	for _, o := range opts {
		if o.Value == v {
			return opts
		}
	}
	return append([]ConfigOptionValue{{Value: v, Name: v}}, opts...)
}

// modelState is the legacy model list of the model option (options'
// third): its current value and its choices.
func modelState(opt ConfigOption) *ModelState {
	st := &ModelState{CurrentModelID: opt.CurrentValue, AvailableModels: []ModelInfo{}}
	for _, o := range opt.Options {
		st.AvailableModels = append(st.AvailableModels, ModelInfo{ModelID: o.Value, Name: o.Name})
	}
	return st
}

func (a *optionsAPI) setMode(ctx context.Context, req SetModeRequest) (struct{}, error) {
	as, err := a.loaded.lookup(req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	if err := a.applyMode(ctx, as.id, req.ModeID); err != nil {
		return struct{}{}, err
	}
	// Clients that show the mode as a config option (Zed's selector)
	// learn of the change too.
	a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateCurrentMode, CurrentModeID: req.ModeID})
	a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: a.options(as.id)})
	return struct{}{}, nil
}

func (a *optionsAPI) applyMode(ctx context.Context, sessionID, mode string) error {
	if !validMode(mode) {
		return invalidParams("Invalid mode: %s", mode)
	}
	return a.sessions.SetMode(ctx, sessionID, mode)
}

func (a *optionsAPI) setModel(ctx context.Context, req SetModelRequest) (struct{}, error) {
	as, err := a.loaded.lookup(req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	prov, _ := a.currentProviderModel(as.id)
	if err := a.sessions.SetModel(ctx, as.id, prov, req.ModelID); err != nil {
		return struct{}{}, err
	}
	a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: a.options(as.id)})
	return struct{}{}, nil
}

// orderedMethods change a session's configuration: they are applied one
// at a time in arrival order. Zed sends each saved default as its own
// set_config_option at once; run concurrently, a provider change could
// land after the model chosen for it and reset it.
var orderedMethods = map[string]bool{
	"session/set_config_option": true,
	"session/set_mode":          true,
	"session/set_model":         true,
}

func (a *optionsAPI) setConfigOption(ctx context.Context, req SetConfigOptionRequest) (SetConfigOptionResponse, error) {
	as, err := a.loaded.lookup(req.SessionID)
	if err != nil {
		return SetConfigOptionResponse{}, err
	}
	if ok, err := a.setSwitch(ctx, as.id, req.ConfigID, req.Value); ok {
		if err != nil {
			return SetConfigOptionResponse{}, err
		}
		opts := a.options(as.id)
		a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: opts})
		return SetConfigOptionResponse{ConfigOptions: opts}, nil
	}
	var value string
	if err := json.Unmarshal(req.Value, &value); err != nil {
		return SetConfigOptionResponse{}, invalidParams("Expected a value ID")
	}
	prov, _ := a.currentProviderModel(as.id)
	switch req.ConfigID {
	case "mode":
		err = a.applyMode(ctx, as.id, value)
	case "model":
		err = a.sessions.SetModel(ctx, as.id, prov, value)
	case "provider":
		// Choosing the provider already in use keeps its model.
		if value != prov {
			err = a.sessions.SetModel(ctx, as.id, value, a.defaultModelFor(value))
		}
	case ThinkingEffortOption:
		err = a.sessions.SetThinkingEffort(ctx, as.id, value)
	default:
		return SetConfigOptionResponse{}, invalidParams("Unsupported config option: %s", req.ConfigID)
	}
	if err != nil {
		return SetConfigOptionResponse{}, err
	}
	if req.ConfigID == "mode" {
		// Clients that show modes (session/new's modes) learn of it too.
		a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateCurrentMode, CurrentModeID: value})
	}
	opts := a.options(as.id)
	a.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: opts})
	return SetConfigOptionResponse{ConfigOptions: opts}, nil
}

func (a *optionsAPI) defaultModelFor(provider string) string {
	for _, md := range a.providerList() {
		if md.Name == provider {
			return md.DefaultModel
		}
	}
	return ""
}
