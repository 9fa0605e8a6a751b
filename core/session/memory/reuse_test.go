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
// with new metadata only and replays the last user text; both rows share
// the stored content string (a huge prompt is not held three times), the
// bytes are EncodeMessage's, and changed content is stored anew.
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
	replay := conversation.UserText(3, big.AsText()).WithID("m3").WithMetadata(conversation.AgentOnly())
	if err := s.ReplaceConversation(ctx, sess.ID, []conversation.Message{hidden, changed, replay}); err != nil {
		t.Fatal(err)
	}
	rows := s.sessions[sess.ID].messages
	for _, i := range []int{0, 2} {
		if unsafe.StringData(rows[i].ContentJSON) != unsafe.StringData(before) {
			t.Errorf("row %d: the big content was stored a second time", i)
		}
		want, _ := session.EncodeMessage(sess.ID, []conversation.Message{hidden, changed, replay}[i])
		if rows[i].ContentJSON != want.ContentJSON || rows[i].MessageID != want.MessageID {
			t.Errorf("row %d differs from EncodeMessage's", i)
		}
	}
	if *rows[0].MetadataJSON != `{"userVisible":true,"agentVisible":false}` {
		t.Errorf("metadata %s", *rows[0].MetadataJSON)
	}
	if rows[1].ContentJSON != `[{"type":"text","text":"changed"}]` {
		t.Errorf("changed content stored as %s", rows[1].ContentJSON)
	}
}
