package memory

import (
	"context"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/session"
)

// TestReplaceKeepsUnchangedContent: compaction re-stores an old message
// with new metadata only; its stored content is the same string (a huge
// prompt is not held twice), while changed content is stored anew.
func TestReplaceKeepsUnchangedContent(t *testing.T) {
	ctx := context.Background()
	s := New(time.Now)
	sess, err := s.Create(ctx, session.NewSession{WorkingDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	big := conversation.UserText(1, strings.Repeat("x", 1<<20)).WithID("m1")
	other := conversation.AssistantText(2, "ok").WithID("m2")
	for _, m := range []conversation.Message{big, other} {
		if err := s.AppendMessage(ctx, sess.ID, m); err != nil {
			t.Fatal(err)
		}
	}
	before := s.sessions[sess.ID].messages[0].ContentJSON
	hidden := big.WithMetadata(conversation.UserOnly())
	changed := conversation.AssistantText(2, "changed").WithID("m2")
	if err := s.ReplaceConversation(ctx, sess.ID, []conversation.Message{hidden, changed}); err != nil {
		t.Fatal(err)
	}
	rows := s.sessions[sess.ID].messages
	if unsafe.StringData(rows[0].ContentJSON) != unsafe.StringData(before) {
		t.Error("the unchanged message's content was stored a second time")
	}
	if *rows[0].MetadataJSON != `{"userVisible":true,"agentVisible":false}` {
		t.Errorf("metadata %s", *rows[0].MetadataJSON)
	}
	if rows[1].ContentJSON != `[{"type":"text","text":"changed"}]` {
		t.Errorf("changed content stored as %s", rows[1].ContentJSON)
	}
}
