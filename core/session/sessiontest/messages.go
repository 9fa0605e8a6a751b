package sessiontest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

func texts(msgs []conversation.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = m.AsText()
	}
	return out
}

func wantTexts(t *testing.T, what string, msgs []conversation.Message, want ...string) {
	t.Helper()
	if got := texts(msgs); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%s: texts %q, want %q", what, got, want)
	}
}

func testAppendAndLoad(t *testing.T, st session.Store, clock *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	clock.Advance(10 * time.Second)
	hidden := conversation.Metadata{UserVisible: false, AgentVisible: true}
	appendMsg(t, st, s.ID, conversation.UserText(200, "first").WithID("msg-a"))
	appendMsg(t, st, s.ID, conversation.AssistantText(200, "second").
		With(conversation.ToolRequestContent("call_1", "developer__shell", map[string]any{"command": "ls"})))
	appendMsg(t, st, s.ID, conversation.UserText(150, "older").WithMetadata(hidden))

	got := get(t, st, s.ID, true)
	// goose orders by created_timestamp, then insertion.
	wantTexts(t, "conversation", got.Conversation, "older", "first", "second")
	// goose 1.54 counts user-visible messages only.
	if got.MessageCount != 2 {
		t.Errorf("message_count %d, want 2", got.MessageCount)
	}
	if want := time.Unix(200, 0).UTC(); got.LastMessageAt == nil || !got.LastMessageAt.Equal(want) {
		t.Errorf("last_message_at %v, want %v", got.LastMessageAt, want)
	}
	if !got.UpdatedAt.Equal(Start.Add(10 * time.Second).Truncate(time.Second)) {
		t.Errorf("updated_at %v not touched by append", got.UpdatedAt)
	}
	if id := got.Conversation[1].IDOrEmpty(); id != "msg-a" {
		t.Errorf("explicit message id became %q", id)
	}
	if id := got.Conversation[0].IDOrEmpty(); !strings.HasPrefix(id, "msg_"+s.ID+"_") || len(id) != len("msg_"+s.ID+"_")+36 {
		t.Errorf("generated message id %q, want msg_<session>_<uuid>", id)
	}
	if got.Conversation[0].Metadata != hidden {
		t.Errorf("metadata %+v, want %+v", got.Conversation[0].Metadata, hidden)
	}
	wantJSON(t, "tool request message content", got.Conversation[2].Content,
		`[{"type":"text","text":"second"},{"type":"toolRequest","id":"call_1","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"ls"}}}}]`)
	if meta := get(t, st, s.ID, false); meta.MessageCount != 2 || meta.Conversation != nil ||
		meta.LastMessageAt == nil || !meta.LastMessageAt.Equal(*got.LastMessageAt) {
		t.Errorf("Get without messages: count %d last %v conversation %v", meta.MessageCount, meta.LastMessageAt, meta.Conversation)
	}
}

func testAppendRejectsRole(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	m := conversation.UserText(1, "x")
	m.Role = "system"
	wantErr(t, "AppendMessage(role system)", st.AppendMessage(context.Background(), s.ID, m), session.ErrInvalidMessage)
	if got := get(t, st, s.ID, true); got.MessageCount != 0 {
		t.Errorf("rejected message was stored (%d messages)", got.MessageCount)
	}
}

func testReplaceConversation(t *testing.T, st session.Store, clock *Clock) {
	ctx := context.Background()
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	appendMsg(t, st, s.ID, conversation.UserText(1, "gone"))
	before := get(t, st, s.ID, false).UpdatedAt
	clock.Advance(time.Minute)
	repl := []conversation.Message{conversation.UserText(5, "a"), conversation.AssistantText(6, "b").WithID("keep-id")}
	if err := st.ReplaceConversation(ctx, s.ID, repl); err != nil {
		t.Fatal(err)
	}
	got := get(t, st, s.ID, true)
	wantTexts(t, "replaced", got.Conversation, "a", "b")
	if got.Conversation[1].IDOrEmpty() != "keep-id" {
		t.Errorf("replaced message id %q", got.Conversation[1].IDOrEmpty())
	}
	if !got.UpdatedAt.Equal(before) {
		t.Errorf("ReplaceConversation moved updated_at %v → %v (goose leaves it)", before, got.UpdatedAt)
	}
	bad := []conversation.Message{conversation.UserText(7, "c"), {Role: "tool", Created: 8}}
	wantErr(t, "Replace with a bad role", st.ReplaceConversation(ctx, s.ID, bad), session.ErrInvalidMessage)
	wantTexts(t, "after rejected replace", get(t, st, s.ID, true).Conversation, "a", "b")
	if err := st.ReplaceConversation(ctx, s.ID, nil); err != nil {
		t.Fatal(err)
	}
	if got := get(t, st, s.ID, true); len(got.Conversation) != 0 {
		t.Errorf("replace with nothing left %d messages", len(got.Conversation))
	}
}

func testTruncate(t *testing.T, st session.Store, _ *Clock) {
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	for i, text := range []string{"t10", "t20", "t30", "t40"} {
		appendMsg(t, st, s.ID, conversation.UserText(int64(10*(i+1)), text))
	}
	if err := st.Truncate(context.Background(), s.ID, 30); err != nil {
		t.Fatal(err)
	}
	wantTexts(t, "after Truncate(30)", get(t, st, s.ID, true).Conversation, "t10", "t20")
}

// testMessageUsageRoundTrip: a reply's usage (goose's metadata.usage) is
// stored in goose's form and read back.
func testMessageUsageRoundTrip(t *testing.T, st session.Store, _ *Clock) {
	id := create(t, st, session.NewSession{WorkingDir: "/u"}).ID
	in, out, total, ms := 1200, 30, 1230, int64(16)
	m := conversation.AssistantText(1, "hi")
	m.Metadata.Usage = &conversation.MessageUsage{InputTokens: &in, OutputTokens: &out, TotalTokens: &total, ElapsedMs: &ms}
	appendMsg(t, st, id, m)
	got := get(t, st, id, true).Conversation
	if len(got) != 1 || got[0].Metadata.Usage == nil || *got[0].Metadata.Usage.InputTokens != 1200 ||
		*got[0].Metadata.Usage.TotalTokens != 1230 || *got[0].Metadata.Usage.ElapsedMs != 16 || !got[0].Metadata.UserVisible {
		t.Fatalf("read back %+v", got)
	}
	row, err := session.EncodeMessage(id, m)
	if err != nil || *row.MetadataJSON != `{"userVisible":true,"agentVisible":true,"usage":{"inputTokens":1200,"outputTokens":30,"totalTokens":1230,"elapsedMs":16}}`+"\n" && *row.MetadataJSON != `{"userVisible":true,"agentVisible":true,"usage":{"inputTokens":1200,"outputTokens":30,"totalTokens":1230,"elapsedMs":16}}` {
		t.Fatalf("stored metadata %v %v", row.MetadataJSON, err)
	}
}

// testSetMessageMetadata: a store that can change one message's metadata
// in place (session.MetadataSetter) keeps the message where it was and its
// content as it was; goose 1.54's turnContext flag round-trips.
func testSetMessageMetadata(t *testing.T, st session.Store, _ *Clock) {
	ms, ok := st.(session.MetadataSetter)
	if !ok {
		t.Skip("the store cannot set message metadata")
	}
	ctx := context.Background()
	s := create(t, st, session.NewSession{WorkingDir: "/w"})
	turnContext := conversation.Metadata{AgentVisible: true, TurnContext: true}
	appendMsg(t, st, s.ID, conversation.UserText(100, "prompt").WithID("m1"))
	appendMsg(t, st, s.ID, conversation.UserText(100, "<turn-context></turn-context>").WithID("m2").WithMetadata(turnContext))
	appendMsg(t, st, s.ID, conversation.AssistantText(101, "answer").WithID("m3"))
	userOnly := conversation.Metadata{UserVisible: true}
	if err := ms.SetMessageMetadata(ctx, s.ID, "m1", userOnly); err != nil {
		t.Fatal(err)
	}
	got := get(t, st, s.ID, true).Conversation
	wantTexts(t, "conversation", got, "prompt", "<turn-context></turn-context>", "answer")
	if got[0].Metadata != userOnly || got[1].Metadata != turnContext || got[2].Metadata != conversation.VisibleToAll() {
		t.Errorf("metadata %+v %+v %+v", got[0].Metadata, got[1].Metadata, got[2].Metadata)
	}
	if err := ms.SetMessageMetadata(ctx, s.ID, "nope", userOnly); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unknown message: %v", err)
	}
	if err := ms.SetMessageMetadata(ctx, "20250101_99", "m1", userOnly); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("unknown session: %v", err)
	}
}
