package acp

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/goose-acp/goose-acp/core/extension"
)

// The answers that set a session up (session/new, load, resume, fork) and
// their config options are encoded here by hand, byte for byte as
// encoding/json writes them (TestSetupAnswersEncodeAsEncodingJSON): on a
// fresh process's first session/new, encoding/json built its encoders
// for these types first (its type fields, ~120 µs of the answer's CPU).

// MarshalJSON writes the answer as encoding/json would.
func (r NewSessionResponse) MarshalJSON() ([]byte, error) {
	b := append(make([]byte, 0, 4096), '{')
	b = appendString(appendKey(b, "sessionId"), r.SessionID)
	return appendSetup(b, r.Modes, r.Models, r.ConfigOptions, r.Meta)
}

// MarshalJSON writes the answer as encoding/json would.
func (r SessionSetupResponse) MarshalJSON() ([]byte, error) {
	return appendSetup(append(make([]byte, 0, 4096), '{'), r.Modes, r.Models, r.ConfigOptions, r.Meta)
}

// MarshalJSON writes a boolean option (Bool set) with its boolean current
// value and no options; a select as it is.
func (o ConfigOption) MarshalJSON() ([]byte, error) {
	return appendConfigOption(make([]byte, 0, 512), o), nil
}

// appendSetup appends the setup fields (each omitted when empty) and
// closes the object.
func appendSetup(b []byte, modes *ModeState, models *ModelState, options []ConfigOption, meta Meta) ([]byte, error) {
	if modes != nil {
		b = appendKey(b, "modes")
		b = appendString(appendKey(append(b, '{'), "currentModeId"), modes.CurrentModeID)
		b = appendKey(b, "availableModes")
		b = appendList(b, modes.AvailableModes, func(b []byte, m SessionMode) []byte {
			return appendNamed(b, "id", m.ID, m.Name, m.Description)
		})
		b = append(b, '}')
	}
	if models != nil {
		b = appendKey(b, "models")
		b = appendString(appendKey(append(b, '{'), "currentModelId"), models.CurrentModelID)
		b = appendKey(b, "availableModels")
		b = appendList(b, models.AvailableModels, func(b []byte, m ModelInfo) []byte {
			return appendNamed(b, "modelId", m.ModelID, m.Name, m.Description)
		})
		b = append(b, '}')
	}
	if len(options) > 0 {
		b = appendList(appendKey(b, "configOptions"), options, appendConfigOption)
	}
	if len(meta) > 0 {
		var err error
		if b, err = appendMeta(appendKey(b, "_meta"), meta); err != nil {
			return nil, err
		}
	}
	return append(b, '}'), nil
}

// appendNamed appends {idKey: id, "name": name, "description": desc}
// with the description omitted when empty (SessionMode, ModelInfo,
// ConfigOptionValue).
func appendNamed(b []byte, idKey, id, name, desc string) []byte {
	b = appendString(appendKey(append(b, '{'), idKey), id)
	b = appendString(appendKey(b, "name"), name)
	if desc != "" {
		b = appendString(appendKey(b, "description"), desc)
	}
	return append(b, '}')
}

func appendConfigOption(b []byte, o ConfigOption) []byte {
	b = appendString(appendKey(append(b, '{'), "id"), o.ID)
	b = appendString(appendKey(b, "name"), o.Name)
	if o.Description != "" {
		b = appendString(appendKey(b, "description"), o.Description)
	}
	if o.Category != "" {
		b = appendString(appendKey(b, "category"), o.Category)
	}
	if o.Bool != nil {
		b = appendString(appendKey(b, "type"), "boolean")
		return append(strconv.AppendBool(appendKey(b, "currentValue"), *o.Bool), '}')
	}
	b = appendString(appendKey(b, "type"), o.Type)
	b = appendString(appendKey(b, "currentValue"), o.CurrentValue)
	b = appendList(appendKey(b, "options"), o.Options, func(b []byte, v ConfigOptionValue) []byte {
		return appendNamed(b, "value", v.Value, v.Name, v.Description)
	})
	return append(b, '}')
}

// appendMeta writes _meta with its keys sorted; the extension results
// by hand, any other value through encoding/json.
func appendMeta(b []byte, m Meta) ([]byte, error) {
	b = append(b, '{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		b = appendKey(b, k)
		switch v := m[k].(type) {
		case string:
			b = appendString(b, v)
		case []extension.Result:
			b = appendList(b, v, func(b []byte, r extension.Result) []byte {
				b = appendString(appendKey(append(b, '{'), "name"), r.Name)
				b = strconv.AppendBool(appendKey(b, "success"), r.Success)
				if r.Error != "" {
					b = appendString(appendKey(b, "error"), r.Error)
				}
				return append(b, '}')
			})
		default:
			enc, err := json.Marshal(v)
			if err != nil {
				return nil, err
			}
			b = append(b, enc...)
		}
	}
	return append(b, '}'), nil
}

// appendList writes a JSON array of xs (null for a nil slice, as
// encoding/json).
func appendList[T any](b []byte, xs []T, each func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = each(b, x)
	}
	return append(b, ']')
}

// appendKey writes an object key, after a comma unless it is the first.
func appendKey(b []byte, k string) []byte {
	if b[len(b)-1] != '{' {
		b = append(b, ',')
	}
	return append(appendString(b, k), ':')
}

// appendString writes s as encoding/json does: printable ASCII as it is,
// anything it escapes (quotes, backslashes, control characters, <, >, &,
// non-ASCII) through encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			enc, _ := json.Marshal(s)
			return append(b, enc...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
