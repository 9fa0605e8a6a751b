package sessiontest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/model"
	"github.com/goose-acp/goose-acp/core/session"
)

const freshJSON = `{"id":"20250304_1","working_dir":"/work/project","name":"First","user_set_name":false,
"session_type":"user","created_at":"2025-03-04T05:06:07Z","updated_at":"2025-03-04T05:06:07Z",
"extension_data":{},"total_tokens":null,"input_tokens":null,"output_tokens":null,
"accumulated_total_tokens":null,"accumulated_input_tokens":null,"accumulated_output_tokens":null,
"schedule_id":null,"recipe":null,"user_recipe_values":null,"conversation":null,"message_count":0,
"provider_name":null,"model_config":null,"goose_mode":"auto","thread_id":null}`

func testCreateJSON(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/work/project", Name: "First"})
	wantJSON(t, "Create", s, freshJSON)
	wantJSON(t, "Get", get(t, st, s.ID, false), freshJSON)
	withMsgs := get(t, st, s.ID, true)
	if withMsgs.Conversation == nil || len(withMsgs.Conversation) != 0 {
		t.Errorf("Get with messages of an empty session: conversation %#v, want []", withMsgs.Conversation)
	}
}

// testCreateWithModeAndProvider: a new session's mode, provider and model
// are stored with its row, and Create returns the row as stored.
func testCreateWithModeAndProvider(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/work/project", Name: "First", GooseMode: "approve",
		ProviderName: ptr("openai"), ModelConfig: &model.Config{ModelName: "gpt-4o", ContextLimit: ptr(128000)}})
	want := strings.Replace(strings.Replace(freshJSON, `"provider_name":null,"model_config":null,"goose_mode":"auto"`,
		`"provider_name":"openai",`+
			`"model_config":{"model_name":"gpt-4o","context_limit":128000,"temperature":null,"max_tokens":null,"toolshim":false,"toolshim_model":null},`+
			`"goose_mode":"approve"`, 1), "\n", "", -1)
	wantJSON(t, "Create", s, want)
	wantJSON(t, "Get", get(t, st, s.ID, false), want)
	// An empty provider is none, as Update's.
	s = create(t, st, session.NewSession{WorkingDir: "/work/project", Name: "First", ProviderName: ptr("")})
	if got := get(t, st, s.ID, false); got.ProviderName != nil || got.GooseMode != "auto" || s.ProviderName != nil {
		t.Errorf("empty provider: stored %v, returned %v, mode %q", got.ProviderName, s.ProviderName, got.GooseMode)
	}
}

func testIDsPerDay(t *testing.T, st session.Store, clock *Clock) {
	var got []string
	for range 11 {
		got = append(got, create(t, st, session.NewSession{WorkingDir: "/w"}).ID)
	}
	clock.Advance(24 * time.Hour)
	got = append(got, create(t, st, session.NewSession{WorkingDir: "/w", SessionType: session.TypeSubAgent}).ID)
	want := []string{"20250304_1", "20250304_2", "20250304_3", "20250304_4", "20250304_5", "20250304_6",
		"20250304_7", "20250304_8", "20250304_9", "20250304_10", "20250304_11", "20250305_1"}
	if !slices.Equal(got, want) {
		t.Errorf("ids %v, want %v", got, want)
	}
	// N follows the highest number of the day, not the count.
	if err := st.Delete(context.Background(), "20250305_1"); err != nil {
		t.Fatal(err)
	}
	clock.Advance(-24 * time.Hour)
	if err := st.Delete(context.Background(), "20250304_2"); err != nil {
		t.Fatal(err)
	}
	if id := create(t, st, session.NewSession{WorkingDir: "/w"}).ID; id != "20250304_12" {
		t.Errorf("after deleting _2, next id %s, want 20250304_12", id)
	}
}

// testDeletedIDsNotReused: deleting the newest session of a day does not
// hand its number out again (goose's MAX+1 does: goose#11654), so a
// client that keys anything by session id never meets an old id on a new
// conversation. Deleting the next one after that keeps counting up too.
func testDeletedIDsNotReused(t *testing.T, st session.Store, clock *Clock) {
	ctx := context.Background()
	for range 3 {
		create(t, st, session.NewSession{WorkingDir: "/w"})
	}
	if err := st.Delete(ctx, "20250304_3"); err != nil {
		t.Fatal(err)
	}
	if id := create(t, st, session.NewSession{WorkingDir: "/w"}).ID; id != "20250304_4" {
		t.Errorf("after deleting the newest (_3), next id %s, want 20250304_4", id)
	}
	for _, id := range []string{"20250304_4", "20250304_2", "20250304_1"} {
		if err := st.Delete(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	// Every session of the day is gone; its numbers stay used.
	if id := create(t, st, session.NewSession{WorkingDir: "/w"}).ID; id != "20250304_5" {
		t.Errorf("after deleting all of the day, next id %s, want 20250304_5", id)
	}
	// Another day counts on its own.
	clock.Advance(24 * time.Hour)
	if id := create(t, st, session.NewSession{WorkingDir: "/w"}).ID; id != "20250305_1" {
		t.Errorf("next day's first id %s, want 20250305_1", id)
	}
}

func testNotFound(t *testing.T, st session.Store, _ *Clock) {
	ctx := context.Background()
	const id = "20250304_99"
	_, err := st.Get(ctx, id, false)
	wantErr(t, "Get", err, session.ErrNotFound)
	wantErr(t, "AppendMessage", st.AppendMessage(ctx, id, conversation.UserText(1, "x")), session.ErrNotFound)
	wantErr(t, "ReplaceConversation", st.ReplaceConversation(ctx, id, nil), session.ErrNotFound)
	wantErr(t, "Update", st.Update(ctx, id, session.Update{Name: ptr("n")}), session.ErrNotFound)
	wantErr(t, "empty Update", st.Update(ctx, id, session.Update{}), session.ErrNotFound)
	wantErr(t, "Delete", st.Delete(ctx, id), session.ErrNotFound)
	wantErr(t, "Truncate", st.Truncate(ctx, id, 0), session.ErrNotFound)
	_, err = st.Fork(ctx, id)
	wantErr(t, "Fork", err, session.ErrNotFound)
	_, err = st.Export(ctx, id)
	wantErr(t, "Export", err, session.ErrNotFound)
	if err != nil && !strings.Contains(err.Error(), id) {
		t.Errorf("error %q does not name the session", err)
	}
}

func testUpdate(t *testing.T, st session.Store, clock *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w", Name: "old"})
	clock.Advance(90 * time.Second)
	update(t, st, s.ID, session.Update{
		Name: ptr("Renamed"), UserSetName: ptr(true), WorkingDir: ptr("/elsewhere"),
		SessionType: ptr(session.TypeScheduled), ProviderName: ptr("openai"),
		ModelConfig:      &model.Config{ModelName: "gpt-4o", ContextLimit: ptr(128000)},
		GooseMode:        ptr("approve"),
		Tokens:           &session.TokenCounts{Total: ptr(30), Input: ptr(20), Output: ptr(10), AccumulatedTotal: ptr(300)},
		ScheduleID:       ptr("nightly"),
		Recipe:           []byte(` {"title": "R", "instructions": "do"} `),
		UserRecipeValues: map[string]string{"k": "v"},
		ExtensionData:    session.ExtensionData{"todo.v0": []byte(`{"content":"- a"}`)},
	})
	want := `{"id":"20250304_1","working_dir":"/elsewhere","name":"Renamed","user_set_name":true,
"session_type":"scheduled","created_at":"2025-03-04T05:06:07Z","updated_at":"2025-03-04T05:07:37Z",
"extension_data":{"todo.v0":{"content":"- a"}},"total_tokens":30,"input_tokens":20,"output_tokens":10,
"accumulated_total_tokens":300,"accumulated_input_tokens":null,"accumulated_output_tokens":null,
"schedule_id":"nightly","recipe":{"title":"R","instructions":"do"},"user_recipe_values":{"k":"v"},
"conversation":null,"message_count":0,"provider_name":"openai",
"model_config":{"model_name":"gpt-4o","context_limit":128000,"temperature":null,"max_tokens":null,"toolshim":false,"toolshim_model":null},
"goose_mode":"approve","thread_id":null}`
	wantJSON(t, "after Update", get(t, st, s.ID, false), want)

	// nil fields stay; a partial token update leaves the other counters.
	clock.Advance(time.Minute)
	update(t, st, s.ID, session.Update{Tokens: &session.TokenCounts{Output: ptr(11)}})
	got := get(t, st, s.ID, false)
	if *got.OutputTokens != 11 || *got.InputTokens != 20 || got.Name != "Renamed" {
		t.Errorf("partial update: output %d input %d name %q", *got.OutputTokens, *got.InputTokens, got.Name)
	}
	if !got.UpdatedAt.Equal(time.Date(2025, 3, 4, 5, 8, 37, 0, time.UTC)) {
		t.Errorf("updated_at %v not touched", got.UpdatedAt)
	}
	// Clearing: a JSON null recipe and empty schedule id / provider.
	update(t, st, s.ID, session.Update{Recipe: []byte("null"), ScheduleID: ptr(""), ProviderName: ptr("")})
	got = get(t, st, s.ID, false)
	if got.Recipe != nil || got.ScheduleID != nil || got.ProviderName != nil {
		t.Errorf("cleared fields: recipe %s schedule %v provider %v", got.Recipe, got.ScheduleID, got.ProviderName)
	}
	// An empty update changes nothing, not even updated_at.
	clock.Advance(time.Hour)
	update(t, st, s.ID, session.Update{})
	if again := get(t, st, s.ID, false); !again.UpdatedAt.Equal(got.UpdatedAt) {
		t.Errorf("empty update moved updated_at to %v", again.UpdatedAt)
	}
}

func testUpdateRejectsBadRecipe(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w", Name: "keep"})
	err := st.Update(context.Background(), s.ID, session.Update{Name: ptr("lost"), Recipe: []byte("{not json")})
	wantErr(t, "Update with bad recipe", err, session.ErrInvalidUpdate)
	if got := get(t, st, s.ID, false); got.Name != "keep" {
		t.Errorf("rejected update still renamed the session to %q", got.Name)
	}
}

func testDelete(t *testing.T, st session.Store, _ *Clock) {
	ctx := context.Background()
	a := create(t, st, session.NewSession{WorkingDir: "/w", Name: "a"})
	b := create(t, st, session.NewSession{WorkingDir: "/w", Name: "b"})
	appendMsg(t, st, a.ID, conversation.UserText(1, "hi"))
	if err := st.Delete(ctx, a.ID); err != nil {
		t.Fatal(err)
	}
	_, err := st.Get(ctx, a.ID, true)
	wantErr(t, "Get after Delete", err, session.ErrNotFound)
	page, err := st.List(ctx, session.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(page.Sessions); !slices.Equal(got, []string{b.ID}) {
		t.Errorf("List after Delete: %v", got)
	}
}

func testInsights(t *testing.T, st session.Store, _ *Clock) {
	a := create(t, st, session.NewSession{WorkingDir: "/w"})
	b := create(t, st, session.NewSession{WorkingDir: "/w", SessionType: session.TypeSubAgent})
	create(t, st, session.NewSession{WorkingDir: "/w"})
	update(t, st, a.ID, session.Update{Tokens: &session.TokenCounts{Total: ptr(5), AccumulatedTotal: ptr(100)}})
	update(t, st, b.ID, session.Update{Tokens: &session.TokenCounts{Total: ptr(7)}})
	in, err := st.Insights(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantJSON(t, "Insights", in, `{"totalSessions":3,"totalTokens":107}`)
}

func testConcurrent(t *testing.T, st session.Store, _ *Clock) {
	ctx := context.Background()
	target := create(t, st, session.NewSession{WorkingDir: "/w"})
	const workers, each = 6, 15
	errs := make(chan error, workers)
	created := make(chan string, workers)
	for w := range workers {
		go func() {
			for i := range each {
				m := conversation.UserText(int64(w*each+i), fmt.Sprintf("w%d-%d", w, i))
				if err := st.AppendMessage(ctx, target.ID, m); err != nil {
					errs <- err
					return
				}
			}
			s, err := st.Create(ctx, session.NewSession{WorkingDir: "/w"})
			if err == nil {
				created <- s.ID
			}
			errs <- err
		}()
	}
	for range workers {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent writer: %v", err)
		}
	}
	close(created)
	seen := map[string]bool{target.ID: true}
	for id := range created {
		if seen[id] {
			t.Errorf("id %s handed out twice", id)
		}
		seen[id] = true
	}
	got := get(t, st, target.ID, true)
	if got.MessageCount != workers*each || len(got.Conversation) != workers*each {
		t.Errorf("message count %d (%d loaded), want %d", got.MessageCount, len(got.Conversation), workers*each)
	}
}
