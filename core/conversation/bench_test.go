package conversation

import (
	"fmt"
	"testing"
)

// benchConversation is a long, valid tool-using conversation.
func benchConversation(turns int) []Message {
	msgs := []Message{user("start")}
	for i := range turns {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			assistant("Running a command.").With(toolReq(id, "developer__shell", map[string]any{"command": "ls"})),
			userEmpty().With(toolResp(id, "a.txt\nb.txt\n")),
		)
	}
	return append(msgs, assistant("Done."), user("thanks"))
}

func BenchmarkFix(b *testing.B) {
	msgs := benchConversation(200)
	b.ReportAllocs()
	for b.Loop() {
		if _, issues := Fix(msgs); len(issues) != 0 {
			b.Fatal(issues)
		}
	}
}

func BenchmarkPushTextChunks(b *testing.B) {
	chunks := make([]Message, 500)
	for i := range chunks {
		chunks[i] = chunk("m1", Text("token "))
	}
	b.ReportAllocs()
	for b.Loop() {
		var c Conversation
		c.Extend(chunks...)
	}
}
