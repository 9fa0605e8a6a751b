package acp

import (
	"context"
	"encoding/json"
	"sort"
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

func (s *Server) setupResponse(sess *session.Session) SessionSetupResponse {
	as, err := s.lookup(sess.ID)
	if err != nil {
		as = &acpSession{id: sess.ID}
	}
	return SessionSetupResponse{
		Modes:         &ModeState{CurrentModeID: s.currentMode(as), AvailableModes: modes},
		Models:        s.modelState(as),
		ConfigOptions: s.configOptions(as),
	}
}

// currentMode is the agent's mode for the session, else GOOSE_MODE, else
// auto.
func (s *Server) currentMode(as *acpSession) string {
	if m, err := s.opts.Agent.Mode(as.id); err == nil && m != "" {
		return string(m)
	}
	if s.opts.DefaultMode != "" {
		return s.opts.DefaultMode
	}
	return "auto"
}

// currentProviderModel is the agent's provider and model for the
// session, else GOOSE_PROVIDER / GOOSE_MODEL.
func (s *Server) currentProviderModel(as *acpSession) (string, string) {
	p, cfg, _ := s.opts.Agent.Model(as.id)
	m := cfg.ModelName
	if p == "" {
		p = s.opts.DefaultProvider
	}
	if m == "" {
		m = s.opts.DefaultModel
	}
	return p, m
}

// configOptions are provider, mode and model selects, in that order.
func (s *Server) configOptions(as *acpSession) []ConfigOption { return s.configOptionsFor(as, "") }

// configOptionsFor is configOptions with the model shown as activeModel
// when set (the model a lead/worker switch reported).
func (s *Server) configOptionsFor(as *acpSession, activeModel string) []ConfigOption {
	prov, mdl := s.currentProviderModel(as)
	if activeModel != "" {
		mdl = activeModel
	}
	provOpt := ConfigOption{ID: "provider", Name: "Provider", Type: "select", CurrentValue: prov}
	modelOpt := ConfigOption{ID: "model", Name: "Model", Category: "model", Type: "select", CurrentValue: mdl}
	if s.opts.Providers != nil {
		for _, md := range s.opts.Providers() {
			provOpt.Options = append(provOpt.Options, ConfigOptionValue{Value: md.Name, Name: md.DisplayName, Description: md.Description})
			if md.Name != prov {
				continue
			}
			for _, km := range md.KnownModels {
				modelOpt.Options = append(modelOpt.Options, ConfigOptionValue{Value: km.Name, Name: km.Name})
			}
		}
	}
	provOpt.Options = ensureValue(provOpt.Options, prov)
	modelOpt.Options = ensureValue(modelOpt.Options, mdl)
	modeOpt := ConfigOption{ID: "mode", Name: "Mode", Category: "mode", Type: "select", CurrentValue: s.currentMode(as)}
	for _, m := range modes {
		modeOpt.Options = append(modeOpt.Options, ConfigOptionValue{Value: m.ID, Name: m.Name, Description: m.Description})
	}
	out := []ConfigOption{provOpt, modeOpt, modelOpt}
	if effort, thinks, _ := s.opts.Agent.ThinkingEffort(as.id); thinks {
		out = append(out, thinkingOption(effort))
	}
	return out
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

func (s *Server) modelState(as *acpSession) *ModelState {
	_, mdl := s.currentProviderModel(as)
	opt := s.configOptions(as)[2]
	st := &ModelState{CurrentModelID: mdl, AvailableModels: []ModelInfo{}}
	for _, o := range opt.Options {
		st.AvailableModels = append(st.AvailableModels, ModelInfo{ModelID: o.Value, Name: o.Name})
	}
	return st
}

func (s *Server) setMode(ctx context.Context, req SetModeRequest) (struct{}, error) {
	as, err := s.lookup(req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	if err := s.applyMode(ctx, as, req.ModeID); err != nil {
		return struct{}{}, err
	}
	s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateCurrentMode, CurrentModeID: req.ModeID})
	return struct{}{}, nil
}

func (s *Server) applyMode(ctx context.Context, as *acpSession, mode string) error {
	if !validMode(mode) {
		return invalidParams("Invalid mode: %s", mode)
	}
	return s.opts.Agent.SetMode(ctx, as.id, mode)
}

func (s *Server) setModel(ctx context.Context, req SetModelRequest) (struct{}, error) {
	as, err := s.lookup(req.SessionID)
	if err != nil {
		return struct{}{}, err
	}
	prov, _ := s.currentProviderModel(as)
	if err := s.opts.Agent.SetModel(ctx, as.id, prov, req.ModelID); err != nil {
		return struct{}{}, err
	}
	s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: s.configOptions(as)})
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

func (s *Server) setConfigOption(ctx context.Context, req SetConfigOptionRequest) (SetConfigOptionResponse, error) {
	as, err := s.lookup(req.SessionID)
	if err != nil {
		return SetConfigOptionResponse{}, err
	}
	var value string
	if err := json.Unmarshal(req.Value, &value); err != nil {
		return SetConfigOptionResponse{}, invalidParams("Expected a value ID")
	}
	prov, _ := s.currentProviderModel(as)
	switch req.ConfigID {
	case "mode":
		err = s.applyMode(ctx, as, value)
	case "model":
		err = s.opts.Agent.SetModel(ctx, as.id, prov, value)
	case "provider":
		// Choosing the provider already in use keeps its model.
		if value != prov {
			err = s.opts.Agent.SetModel(ctx, as.id, value, s.defaultModelFor(value))
		}
	case ThinkingEffortOption:
		err = s.opts.Agent.SetThinkingEffort(ctx, as.id, value)
	default:
		return SetConfigOptionResponse{}, invalidParams("Unsupported config option: %s", req.ConfigID)
	}
	if err != nil {
		return SetConfigOptionResponse{}, err
	}
	opts := s.configOptions(as)
	s.notify(ctx, as.id, SessionUpdate{SessionUpdate: UpdateConfigOption, ConfigOptions: opts})
	return SetConfigOptionResponse{ConfigOptions: opts}, nil
}

func (s *Server) defaultModelFor(provider string) string {
	if s.opts.Providers != nil {
		for _, md := range s.opts.Providers() {
			if md.Name == provider {
				return md.DefaultModel
			}
		}
	}
	return ""
}

// availableCommands are the slash commands the editor can offer.
func availableCommands(ag *agent.Agent, sessionID string) []AvailableCommand {
	out := []AvailableCommand{
		{Name: "compact", Description: "Compact the conversation to free context"},
		{Name: "clear", Description: "Clear the conversation history"},
	}
	// A session the agent does not know has only the built-in commands.
	cmds, _ := ag.SlashCommands(sessionID)
	for _, c := range cmds {
		if c.Name == "compact" || c.Name == "clear" {
			continue
		}
		ac := AvailableCommand{Name: c.Name, Description: oneLine(c.Description)}
		if c.Hint != "" {
			ac.Input = &CommandInput{Hint: c.Hint}
		}
		out = append(out, ac)
	}
	sort.SliceStable(out[2:], func(i, j int) bool { return out[2+i].Name < out[2+j].Name })
	return out
}

// commandDescriptionLen bounds a slash command's description in the menu.
const commandDescriptionLen = 100

// oneLine is a command description for a menu row: the first non-blank
// line, cut to commandDescriptionLen characters. An MCP prompt's
// description is often its whole multi-line template (goose's developer
// prompts are), which editors would print in full.
func oneLine(desc string) string {
	for _, line := range strings.Split(desc, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if r := []rune(line); len(r) > commandDescriptionLen {
			line = string(r[:commandDescriptionLen-1]) + "…"
		}
		return line
	}
	return ""
}
