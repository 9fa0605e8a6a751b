package acp

import (
	"context"
	"encoding/json"
	"strings"
)

// Boolean config options (stable in ACP v1, sent only to a client that
// advertised clientCapabilities.session.configOptions.boolean): goose's
// booleans per session are its platform extensions' on/off switches (the
// enabled flag config.yaml keeps for each, Desktop's per-session toggles),
// each an option "extension.<name>" of type boolean after the selects.
// Setting one ({type: "boolean", value}) adds or removes the extension
// for the session (agent.Extensions.SetSwitch). Other clients see the
// options as before.

// switchPrefix starts the id of an extension's switch option.
const switchPrefix = "extension."

// takesBooleans reports whether the client advertised boolean options.
func takesBooleans(caps ClientCapabilities) bool {
	s := caps.Session
	return s != nil && s.ConfigOptions != nil && s.ConfigOptions.Boolean != nil && string(*s.ConfigOptions.Boolean) != "null"
}

// switchOptions are the session's extension switches as boolean options,
// for a client that takes them.
func (a *optionsAPI) switchOptions(sessionID string) []ConfigOption {
	if a.caps == nil || !takesBooleans(a.caps()) {
		return nil
	}
	ws, err := a.extensions.Switches(sessionID)
	if err != nil {
		return nil
	}
	out := make([]ConfigOption, 0, len(ws))
	for _, w := range ws {
		on := w.On
		out = append(out, ConfigOption{ID: switchPrefix + w.Name, Name: w.DisplayName, Description: w.Description, Type: "boolean", Bool: &on})
	}
	return out
}

// setSwitch applies a boolean option's value; ok is false when configID
// names no switch this client was offered.
func (a *optionsAPI) setSwitch(ctx context.Context, sessionID, configID string, value json.RawMessage) (ok bool, err error) {
	name, isSwitch := strings.CutPrefix(configID, switchPrefix)
	if !isSwitch || a.caps == nil || !takesBooleans(a.caps()) {
		return false, nil
	}
	var on bool
	if err := json.Unmarshal(value, &on); err != nil {
		return true, invalidParams("Config option %s takes a boolean value", configID)
	}
	return true, badName(a.extensions.SetSwitch(ctx, sessionID, name, on))
}

// UnmarshalJSON reads either kind.
func (o *ConfigOption) UnmarshalJSON(b []byte) error {
	type plain ConfigOption
	var aux struct {
		plain
		CurrentValue json.RawMessage `json:"currentValue"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*o = ConfigOption(aux.plain)
	if aux.Type == "boolean" {
		var v bool
		if err := json.Unmarshal(aux.CurrentValue, &v); err != nil {
			return err
		}
		o.Bool = &v
		return nil
	}
	if len(aux.CurrentValue) > 0 && string(aux.CurrentValue) != "null" {
		return json.Unmarshal(aux.CurrentValue, &o.CurrentValue)
	}
	return nil
}
