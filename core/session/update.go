package session

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Column is one sessions.db column an Update sets; Value is what is bound
// (nil for NULL).
type Column struct {
	Name  string
	Value any
}

// UpdateColumns validates u and lists the sessions columns it sets, in a
// fixed order. Empty strings in ScheduleID and ProviderName and a JSON null
// Recipe clear those columns (NULL).
func UpdateColumns(u Update) ([]Column, error) {
	var cols []Column
	add := func(name string, v any) { cols = append(cols, Column{name, v}) }
	if u.Name != nil {
		add("name", *u.Name)
	}
	if u.UserSetName != nil {
		add("user_set_name", *u.UserSetName)
	}
	if u.SessionType != nil {
		add("session_type", string(*u.SessionType))
	}
	if u.WorkingDir != nil {
		add("working_dir", *u.WorkingDir)
	}
	if u.ExtensionData != nil {
		b, err := marshalNoEscape(u.ExtensionData)
		if err != nil {
			return nil, fmt.Errorf("%w: extension data: %v", ErrInvalidUpdate, err)
		}
		add("extension_data", string(b))
	}
	if t := u.Tokens; t != nil {
		for _, c := range []struct {
			name string
			v    *int
		}{
			{"total_tokens", t.Total}, {"input_tokens", t.Input}, {"output_tokens", t.Output},
			{"accumulated_total_tokens", t.AccumulatedTotal},
			{"accumulated_input_tokens", t.AccumulatedInput},
			{"accumulated_output_tokens", t.AccumulatedOutput},
		} {
			if c.v != nil {
				add(c.name, int64(*c.v))
			}
		}
	}
	if u.ScheduleID != nil {
		add("schedule_id", emptyToNull(*u.ScheduleID))
	}
	if u.Recipe != nil {
		recipe, err := compactRecipe(u.Recipe)
		if err != nil {
			return nil, err
		}
		add("recipe_json", recipe)
	}
	if u.UserRecipeValues != nil {
		b, err := marshalNoEscape(u.UserRecipeValues)
		if err != nil {
			return nil, fmt.Errorf("%w: user recipe values: %v", ErrInvalidUpdate, err)
		}
		add("user_recipe_values_json", string(b))
	}
	if u.ProviderName != nil {
		add("provider_name", emptyToNull(*u.ProviderName))
	}
	if u.ModelConfig != nil {
		b, err := marshalNoEscape(u.ModelConfig)
		if err != nil {
			return nil, fmt.Errorf("%w: model config: %v", ErrInvalidUpdate, err)
		}
		add("model_config_json", string(b))
	}
	if u.GooseMode != nil {
		add("goose_mode", *u.GooseMode)
	}
	return cols, nil
}

// compactRecipe returns the recipe text to store, or nil (NULL) for a JSON
// null.
func compactRecipe(raw json.RawMessage) (any, error) {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return nil, fmt.Errorf("%w: recipe is not JSON: %v", ErrInvalidUpdate, err)
	}
	if buf.String() == "null" {
		return nil, nil
	}
	return buf.String(), nil
}

func emptyToNull(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// ApplyColumns sets the columns UpdateColumns listed on an in-memory
// session, reading each value back the way a sessions.db row is read.
func ApplyColumns(s *Session, cols []Column) error {
	for _, c := range cols {
		if err := applyColumn(s, c); err != nil {
			return err
		}
	}
	return nil
}

func applyColumn(s *Session, c Column) error {
	str, _ := c.Value.(string)
	strPtr := func() *string {
		if c.Value == nil {
			return nil
		}
		return &str
	}
	intPtr := func() *int { v := int(c.Value.(int64)); return &v }
	switch c.Name {
	case "name":
		s.Name = str
	case "user_set_name":
		s.UserSetName = c.Value.(bool)
	case "session_type":
		s.SessionType = Type(str)
	case "working_dir":
		s.WorkingDir = str
	case "goose_mode":
		s.GooseMode = str
	case "schedule_id":
		s.ScheduleID = strPtr()
	case "provider_name":
		s.ProviderName = strPtr()
	case "total_tokens":
		s.TotalTokens = intPtr()
	case "input_tokens":
		s.InputTokens = intPtr()
	case "output_tokens":
		s.OutputTokens = intPtr()
	case "accumulated_total_tokens":
		s.AccumulatedTotalTokens = intPtr()
	case "accumulated_input_tokens":
		s.AccumulatedInputTokens = intPtr()
	case "accumulated_output_tokens":
		s.AccumulatedOutputTokens = intPtr()
	case "recipe_json":
		s.Recipe = nil
		if c.Value != nil {
			s.Recipe = json.RawMessage(str)
		}
	case "extension_data":
		s.ExtensionData = ExtensionData{}
		return json.Unmarshal([]byte(str), &s.ExtensionData)
	case "user_recipe_values_json":
		s.UserRecipeValues = nil
		return json.Unmarshal([]byte(str), &s.UserRecipeValues)
	case "model_config_json":
		s.ModelConfig = nil
		return json.Unmarshal([]byte(str), &s.ModelConfig)
	default:
		return fmt.Errorf("session: unknown column %q", c.Name)
	}
	return nil
}

// CopyUpdate is the Update that gives a fresh session s's metadata: what
// Fork and Import carry over besides name, working dir and type (ids,
// timestamps, counts and thread are the new session's own).
func CopyUpdate(s Session) Update {
	u := Update{
		UserSetName:   &s.UserSetName,
		ExtensionData: s.ExtensionData,
		Tokens: &TokenCounts{
			Total: s.TotalTokens, Input: s.InputTokens, Output: s.OutputTokens,
			AccumulatedTotal: s.AccumulatedTotalTokens, AccumulatedInput: s.AccumulatedInputTokens,
			AccumulatedOutput: s.AccumulatedOutputTokens,
		},
		ScheduleID:       s.ScheduleID,
		Recipe:           s.Recipe,
		UserRecipeValues: s.UserRecipeValues,
		ProviderName:     s.ProviderName,
		ModelConfig:      s.ModelConfig,
	}
	if s.GooseMode != "" {
		u.GooseMode = &s.GooseMode
	}
	return u
}
