package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
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
			{"cache_read_tokens", t.CacheRead}, {"cache_write_tokens", t.CacheWrite},
			{"accumulated_cache_read_tokens", t.AccumulatedCacheRead},
			{"accumulated_cache_write_tokens", t.AccumulatedCacheWrite},
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
	return append(cols, newerColumns(u)...), nil
}

// newerColumns lists the schema v12..v15 columns u sets.
func newerColumns(u Update) []Column {
	var cols []Column
	if u.AccumulatedCost != nil {
		cols = append(cols, Column{"accumulated_cost", *u.AccumulatedCost})
	}
	if u.ArchivedAt != nil {
		var v any
		if !u.ArchivedAt.IsZero() {
			v = FormatChrono(*u.ArchivedAt)
		}
		cols = append(cols, Column{"archived_at", v})
	}
	if u.ProjectID != nil {
		cols = append(cols, Column{"project_id", emptyToNull(*u.ProjectID)})
	}
	if u.ParentSessionID != nil {
		cols = append(cols, Column{"parent_session_id", emptyToNull(*u.ParentSessionID)})
	}
	return cols
}

// FormatChrono renders t as goose binds a chrono DateTime<Utc> through sqlx
// (RFC 3339 with a "+00:00" offset), at the second precision sessions.db
// keeps: how goose 1.54 writes archived_at.
func FormatChrono(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05+00:00") }

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
	case "cache_read_tokens":
		s.CacheReadTokens = intPtr()
	case "cache_write_tokens":
		s.CacheWriteTokens = intPtr()
	case "accumulated_cache_read_tokens":
		s.AccumulatedCacheReadTokens = intPtr()
	case "accumulated_cache_write_tokens":
		s.AccumulatedCacheWriteTokens = intPtr()
	case "accumulated_cost":
		v := c.Value.(float64)
		s.AccumulatedCost = &v
	case "archived_at":
		s.ArchivedAt = nil
		if c.Value != nil {
			t, err := ParseTimestamp(str)
			if err != nil {
				return err
			}
			s.ArchivedAt = &t
		}
	case "project_id":
		s.ProjectID = strPtr()
	case "parent_session_id":
		s.ParentSessionID = strPtr()
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
// timestamps, counts, thread, archive state and parent are the new
// session's own; the project, cost and cache counters carry over, as
// goose's copy_session and import_session keep them).
func CopyUpdate(s Session) Update {
	u := Update{
		UserSetName:   &s.UserSetName,
		ExtensionData: s.ExtensionData,
		Tokens: &TokenCounts{
			Total: s.TotalTokens, Input: s.InputTokens, Output: s.OutputTokens,
			AccumulatedTotal: s.AccumulatedTotalTokens, AccumulatedInput: s.AccumulatedInputTokens,
			AccumulatedOutput: s.AccumulatedOutputTokens,
			CacheRead:         s.CacheReadTokens, CacheWrite: s.CacheWriteTokens,
			AccumulatedCacheRead: s.AccumulatedCacheReadTokens, AccumulatedCacheWrite: s.AccumulatedCacheWriteTokens,
		},
		ScheduleID:       s.ScheduleID,
		Recipe:           s.Recipe,
		UserRecipeValues: s.UserRecipeValues,
		ProviderName:     s.ProviderName,
		ModelConfig:      s.ModelConfig,
		AccumulatedCost:  s.AccumulatedCost,
		ProjectID:        s.ProjectID,
	}
	if s.GooseMode != "" {
		u.GooseMode = &s.GooseMode
	}
	return u
}
