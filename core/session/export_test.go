package session

import (
	"testing"
	"time"
)

// goose154Export is the head of a goose 1.54 export: token counters nested
// under usage/accumulated_usage, the v12..v15 fields at the top level.
const goose154Export = `{"id":"20260101_1","working_dir":"/p","name":"n","user_set_name":false,
"session_type":"user","created_at":"2026-01-01T00:00:00Z","updated_at":"2026-01-01T00:00:00Z",
"extension_data":{},"usage":{"input_tokens":10,"output_tokens":2,"total_tokens":12,
"cache_read_input_tokens":3,"cache_write_input_tokens":1},
"accumulated_usage":{"input_tokens":100,"output_tokens":20,"total_tokens":120,
"cache_read_input_tokens":30,"cache_write_input_tokens":null},
"accumulated_cost":0.5,"schedule_id":null,"recipe":null,"user_recipe_values":null,
"conversation":[],"message_count":0,"last_message_at":"2026-01-01T00:00:05Z","provider_name":null,
"model_config":null,"goose_mode":"chat","archived_at":"2026-01-02T00:00:00Z","project_id":"p1",
"parent_session_id":null,"last_message_snippet":null}`

func TestUnmarshalGoose154Export(t *testing.T) {
	s, err := UnmarshalExport([]byte(goose154Export))
	if err != nil {
		t.Fatal(err)
	}
	ints := map[string]*int{"total": s.TotalTokens, "input": s.InputTokens, "output": s.OutputTokens,
		"cache read": s.CacheReadTokens, "cache write": s.CacheWriteTokens,
		"accumulated total": s.AccumulatedTotalTokens, "accumulated input": s.AccumulatedInputTokens,
		"accumulated output": s.AccumulatedOutputTokens, "accumulated cache read": s.AccumulatedCacheReadTokens}
	want := map[string]int{"total": 12, "input": 10, "output": 2, "cache read": 3, "cache write": 1,
		"accumulated total": 120, "accumulated input": 100, "accumulated output": 20, "accumulated cache read": 30}
	for k, p := range ints {
		if p == nil || *p != want[k] {
			t.Errorf("%s tokens = %v, want %d", k, p, want[k])
		}
	}
	if s.AccumulatedCacheWriteTokens != nil || *s.AccumulatedCost != 0.5 || *s.ProjectID != "p1" || s.GooseMode != "chat" ||
		!s.ArchivedAt.Equal(time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("imported %+v", s)
	}
	// goosed 1.33's flat counters win over a nested object that disagrees.
	s, err = UnmarshalExport([]byte(`{"working_dir":"/p","total_tokens":5,"usage":{"total_tokens":9}}`))
	if err != nil || *s.TotalTokens != 5 {
		t.Errorf("flat total %v (%v), want 5", s.TotalTokens, err)
	}
}
