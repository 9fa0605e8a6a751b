package sessiontest

import (
	"context"
	_ "embed"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

//go:embed testdata/export.golden.json
var exportGolden string

// exportFixture builds the session testdata/export.golden.json shows.
func exportFixture(t *testing.T, st session.Store, clock *Clock) session.Session {
	s := create(t, st, session.NewSession{WorkingDir: "/work/project", Name: "Fix the <build>"})
	update(t, st, s.ID, session.Update{
		UserSetName: ptr(true), ProviderName: ptr("anthropic"),
		Tokens: &session.TokenCounts{Total: ptr(1200), Input: ptr(1000), Output: ptr(200), AccumulatedTotal: ptr(5000),
			CacheRead: ptr(300), CacheWrite: ptr(40), AccumulatedCacheRead: ptr(900), AccumulatedCacheWrite: ptr(120)},
		ExtensionData:   session.ExtensionData{"enabled_extensions.v0": []byte(`{"extensions":[]}`)},
		AccumulatedCost: ptr(0.0425), ProjectID: ptr("proj-7"),
	})
	clock.Advance(time.Minute)
	appendMsg(t, st, s.ID, conversation.UserText(1741064827, "why does `go build` fail?").WithID("m1"))
	appendMsg(t, st, s.ID, conversation.AssistantText(1741064830, "Let me look.").WithID("m2").
		With(conversation.ToolRequestContent("toolu_1", "developer__shell", map[string]any{"command": "go build ./..."})))
	return get(t, st, s.ID, true)
}

func testExportJSON(t *testing.T, st session.Store, clock *Clock) {
	s := exportFixture(t, st, clock)
	got, err := st.Export(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != exportGolden {
		t.Errorf("Export:\n%s\nwant (testdata/export.golden.json):\n%s", got, exportGolden)
	}
}

func testImport(t *testing.T, st session.Store, clock *Clock) {
	clock.Advance(48 * time.Hour)
	imported, err := st.Import(context.Background(), []byte(exportGolden))
	if err != nil {
		t.Fatal(err)
	}
	if imported.ID != "20250306_1" {
		t.Errorf("imported id %s, want a new id of today (20250306_1)", imported.ID)
	}
	var want session.Session
	if err := json.Unmarshal([]byte(exportGolden), &want); err != nil {
		t.Fatal(err)
	}
	want.ID = imported.ID
	want.CreatedAt, want.UpdatedAt = session.Second(clock.Now()), session.Second(clock.Now())
	wantJSON(t, "imported session", imported, jsonOf(t, want))
	wantJSON(t, "imported session (Get)", get(t, st, imported.ID, true), jsonOf(t, want))

	// goose's older exports name the session "description".
	legacy := `{"id":"x","working_dir":"/old","description":"Legacy name","created_at":"2024-01-01T00:00:00Z",
"updated_at":"2024-01-01T00:00:00Z","extension_data":{},"message_count":0,
"conversation":[{"role":"user","created":5,"content":[{"type":"text","text":"hi"}]}]}`
	old, err := st.Import(context.Background(), []byte(legacy))
	if err != nil {
		t.Fatal(err)
	}
	if old.Name != "Legacy name" || old.SessionType != session.TypeUser || len(old.Conversation) != 1 ||
		!old.Conversation[0].Metadata.UserVisible {
		t.Errorf("legacy import: %+v", old)
	}
}

func testImportRejects(t *testing.T, st session.Store, _ *Clock) {
	ctx := context.Background()
	for name, data := range map[string]string{
		"not JSON":      `{"id":`,
		"bad role":      `{"working_dir":"/w","name":"n","conversation":[{"role":"system","created":1,"content":[]}]}`,
		"bad timestamp": `{"working_dir":"/w","created_at":"yesterday"}`,
	} {
		_, err := st.Import(ctx, []byte(data))
		wantErr(t, "Import("+name+")", err, session.ErrInvalidImport)
	}
	if p := list(t, st, session.ListOptions{}); len(p.Sessions) != 0 {
		t.Errorf("rejected imports left sessions: %v", ids(p.Sessions))
	}
}

func testFork(t *testing.T, st session.Store, clock *Clock) {
	src := exportFixture(t, st, clock)
	clock.Advance(time.Hour)
	fork, err := st.Fork(context.Background(), src.ID)
	if err != nil {
		t.Fatal(err)
	}
	if fork.ID == src.ID || fork.ID != "20250304_2" {
		t.Errorf("fork id %s", fork.ID)
	}
	want := src
	want.ID = fork.ID
	want.CreatedAt, want.UpdatedAt = session.Second(clock.Now()), session.Second(clock.Now())
	wantJSON(t, "fork", fork, jsonOf(t, want))
	appendMsg(t, st, fork.ID, conversation.UserText(1741064900, "only in the fork"))
	if got := get(t, st, src.ID, true); len(got.Conversation) != 2 {
		t.Errorf("appending to the fork changed the source: %d messages", len(got.Conversation))
	}
}

func testSearch(t *testing.T, st session.Store, clock *Clock) {
	ctx := context.Background()
	hidden := conversation.Metadata{UserVisible: false, AgentVisible: true}
	a := create(t, st, session.NewSession{WorkingDir: "/w", Name: "a"})
	appendMsg(t, st, a.ID, conversation.UserText(1, "Meet at the ÉCOLE tomorrow"))
	appendMsg(t, st, a.ID, conversation.AssistantText(2, "école it is"))
	clock.Advance(time.Second)
	b := create(t, st, session.NewSession{WorkingDir: "/w", Name: "b"})
	long := repeat("word ", 30) + "needle École " + repeat("tail ", 30)
	appendMsg(t, st, b.ID, conversation.UserText(1, long))
	c := create(t, st, session.NewSession{WorkingDir: "/w", Name: "hidden only"})
	appendMsg(t, st, c.ID, conversation.UserText(1, "école").WithMetadata(hidden))
	sub := create(t, st, session.NewSession{WorkingDir: "/w", SessionType: session.TypeSubAgent})
	appendMsg(t, st, sub.ID, conversation.UserText(1, "école"))

	hits, err := st.Search(ctx, "éCOLE", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hits {
		got = append(got, h.Session.ID)
	}
	if !slices.Equal(got, []string{b.ID, a.ID}) {
		t.Fatalf("Search hits %v, want [%s %s]", got, b.ID, a.ID)
	}
	if s := hits[1].Snippets; !slices.Equal(s, []string{"école it is", "Meet at the ÉCOLE tomorrow"}) {
		t.Errorf("snippets of a: %q", s)
	}
	if s := hits[0].Snippets; len(s) != 1 || !startsEnds(s[0], "…", "…") || len([]rune(s[0])) != 2+60+5+60 {
		t.Errorf("snippet of a long text: %q", s)
	}
	if hits[0].Session.MessageCount != 1 || hits[0].Session.Name != "b" {
		t.Errorf("hit session %+v", hits[0].Session)
	}
	limited, err := st.Search(ctx, "ecole", 1)
	if err != nil || len(limited) != 0 {
		t.Errorf("Search without the accent: %v %v", limited, err)
	}
	limited, err = st.Search(ctx, "ÉCOLE", 1)
	if err != nil || len(limited) != 1 || limited[0].Session.ID != b.ID {
		t.Errorf("Search limit 1: %v %v", limited, err)
	}
}

func repeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

func startsEnds(s, prefix, suffix string) bool {
	return len(s) >= len(prefix)+len(suffix) && s[:len(prefix)] == prefix && s[len(s)-len(suffix):] == suffix
}
