package sessiontest

import (
	"context"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// testNewerFields: the schema v12..v15 fields goose 1.54 reads are set,
// read back (Get and List alike) and cleared.
func testNewerFields(t *testing.T, st session.Store, clock *Clock) {
	parent := create(t, st, session.NewSession{WorkingDir: "/w", Name: "parent"})
	s := create(t, st, session.NewSession{WorkingDir: "/w", Name: "child", SessionType: session.TypeSubAgent})
	clock.Advance(time.Minute)
	archived := time.Date(2025, 3, 5, 6, 7, 8, 900_000_000, time.UTC) // the fraction is dropped
	update(t, st, s.ID, session.Update{
		ArchivedAt: &archived, ProjectID: ptr("proj-1"), ParentSessionID: ptr(parent.ID),
		AccumulatedCost: ptr(1.25),
		Tokens: &session.TokenCounts{CacheRead: ptr(10), CacheWrite: ptr(2),
			AccumulatedCacheRead: ptr(100), AccumulatedCacheWrite: ptr(20)},
	})
	want := `{"id":"20250304_2","working_dir":"/w","name":"child","user_set_name":false,
"session_type":"sub_agent","created_at":"2025-03-04T05:06:07Z","updated_at":"2025-03-04T05:07:07Z",
"extension_data":{},"total_tokens":null,"input_tokens":null,"output_tokens":null,
"accumulated_total_tokens":null,"accumulated_input_tokens":null,"accumulated_output_tokens":null,
"schedule_id":null,"recipe":null,"user_recipe_values":null,"conversation":null,"message_count":0,
"provider_name":null,"model_config":null,"goose_mode":"auto","thread_id":null,
"cache_read_tokens":10,"cache_write_tokens":2,"accumulated_cache_read_tokens":100,
"accumulated_cache_write_tokens":20,"accumulated_cost":1.25,"archived_at":"2025-03-05T06:07:08Z",
"project_id":"proj-1","parent_session_id":"20250304_1"}`
	wantJSON(t, "Get after setting v12..v15 fields", get(t, st, s.ID, false), want)
	page := list(t, st, session.ListOptions{Types: []session.Type{session.TypeSubAgent}})
	if len(page.Sessions) != 1 {
		t.Fatalf("List sub_agent: %v", ids(page.Sessions))
	}
	wantJSON(t, "List after setting v12..v15 fields", page.Sessions[0], want)

	// Fork keeps project, cost and cache counters (goose's copy keeps the
	// project; its import the usage and cost), not archive state or parent.
	fork, err := st.Fork(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fork.ArchivedAt != nil || fork.ParentSessionID != nil || fork.ProjectID == nil || *fork.ProjectID != "proj-1" ||
		fork.AccumulatedCost == nil || *fork.AccumulatedCost != 1.25 || fork.AccumulatedCacheReadTokens == nil ||
		*fork.AccumulatedCacheReadTokens != 100 || *fork.CacheWriteTokens != 2 {
		t.Errorf("fork: archived %v parent %v project %v cost %v cache %v/%v", fork.ArchivedAt, fork.ParentSessionID,
			fork.ProjectID, fork.AccumulatedCost, fork.AccumulatedCacheReadTokens, fork.CacheWriteTokens)
	}

	// Unarchive, leave the project, drop the parent.
	update(t, st, s.ID, session.Update{ArchivedAt: &time.Time{}, ProjectID: ptr(""), ParentSessionID: ptr("")})
	got := get(t, st, s.ID, false)
	if got.ArchivedAt != nil || got.ProjectID != nil || got.ParentSessionID != nil || *got.AccumulatedCost != 1.25 {
		t.Errorf("cleared: archived %v project %v parent %v cost %v", got.ArchivedAt, got.ProjectID,
			got.ParentSessionID, got.AccumulatedCost)
	}
}

// testLastMessageAt: last_message_at is the newest message's time, whatever
// its visibility, with millisecond timestamps read as seconds; it is the
// same with and without the conversation and in List.
func testLastMessageAt(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	if got := get(t, st, s.ID, false); got.LastMessageAt != nil || got.MessageCount != 0 {
		t.Errorf("empty session: last %v count %d", got.LastMessageAt, got.MessageCount)
	}
	hidden := conversation.Metadata{UserVisible: false, AgentVisible: true}
	appendMsg(t, st, s.ID, conversation.UserText(1_741_064_800, "seconds"))
	appendMsg(t, st, s.ID, conversation.AssistantText(1_741_064_830_500, "milliseconds").WithMetadata(hidden))
	appendMsg(t, st, s.ID, conversation.UserText(1_741_064_820, "older, later"))
	want := time.Date(2025, 3, 4, 5, 7, 10, 0, time.UTC) // 1741064830
	for name, got := range map[string]session.Session{
		"Get": get(t, st, s.ID, false), "Get with messages": get(t, st, s.ID, true),
		"List": list(t, st, session.ListOptions{}).Sessions[0],
	} {
		if got.LastMessageAt == nil || !got.LastMessageAt.Equal(want) || got.MessageCount != 2 {
			t.Errorf("%s: last_message_at %v count %d, want %v and 2 user-visible", name, got.LastMessageAt, got.MessageCount, want)
		}
	}
}

// testUsageUpdate: an Update carrying only a usage record changes no
// counter, and an unknown session is still not found.
func testUsageUpdate(t *testing.T, st session.Store, clock *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	clock.Advance(time.Minute)
	update(t, st, s.ID, session.Update{Usage: &session.UsageRecord{Model: "m", Input: ptr(3), Output: ptr(4), Total: ptr(7)}})
	if got := get(t, st, s.ID, false); got.TotalTokens != nil || got.AccumulatedTotalTokens != nil || !got.UpdatedAt.Equal(s.UpdatedAt) {
		t.Errorf("usage-only update changed the session: %+v", got)
	}
	err := st.Update(context.Background(), "20250304_99", session.Update{Usage: &session.UsageRecord{Model: "m"}})
	wantErr(t, "usage update of an unknown session", err, session.ErrNotFound)
}

// testUsageTotals: goose's usage totals sum a session's subagent tree,
// each member counting the larger of its accumulated columns and its
// ledger (so spend from before the ledger counts once).
func testUsageTotals(t *testing.T, st session.Store, _ *Clock) {
	ut, ok := st.(session.UsageTotaler)
	if !ok {
		t.Fatalf("%T keeps no usage ledger", st)
	}
	sub := func(parent string) string {
		s := create(t, st, session.NewSession{WorkingDir: "/w", SessionType: session.TypeSubAgent})
		update(t, st, s.ID, session.Update{ParentSessionID: &parent})
		return s.ID
	}
	root := create(t, st, session.NewSession{WorkingDir: "/w"}).ID
	update(t, st, root, session.Update{AccumulatedCost: ptr(0.5),
		Tokens: &session.TokenCounts{AccumulatedInput: ptr(100), AccumulatedOutput: ptr(10), AccumulatedTotal: ptr(110)}})
	child := sub(root)
	update(t, st, child, session.Update{Usage: &session.UsageRecord{Model: "m", Input: ptr(20), Output: ptr(2),
		Total: ptr(22), CacheRead: ptr(4), Cost: ptr(0.25), CostSource: session.CostProviderReported}})
	grandchild := sub(child)
	update(t, st, grandchild, session.Update{Tokens: &session.TokenCounts{AccumulatedInput: ptr(5)},
		Usage: &session.UsageRecord{Model: "m", Input: ptr(7)}})
	other := create(t, st, session.NewSession{WorkingDir: "/w"}).ID
	update(t, st, other, session.Update{Usage: &session.UsageRecord{Model: "m", Input: ptr(1000), Cost: ptr(9.0)}})

	ctx := context.Background()
	for id, want := range map[string]string{
		root:       `{"Input":127,"Output":12,"Total":132,"CacheRead":4,"CacheWrite":0,"Cost":0.75}`,
		child:      `{"Input":27,"Output":2,"Total":22,"CacheRead":4,"CacheWrite":0,"Cost":0.25}`,
		grandchild: `{"Input":7,"Output":0,"Total":0,"CacheRead":0,"CacheWrite":0,"Cost":null}`,
	} {
		got, err := ut.UsageTotals(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		wantJSON(t, "usage totals of "+id, got, want)
	}
	_, err := ut.UsageTotals(ctx, "20250304_99")
	wantErr(t, "usage totals of an unknown session", err, session.ErrNotFound)
}
