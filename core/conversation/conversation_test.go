package conversation

import (
	"slices"
	"testing"
)

func chunk(id string, c ...Content) Message {
	return NewMessage(RoleAssistant, 1).WithID(id).With(c...)
}

func TestPushMergesStreamedChunks(t *testing.T) {
	tests := []struct {
		name   string
		chunks []Message
		want   string // JSON of the resulting content lists, one per message
	}{
		{
			name:   "text chunks with the same id extend the last text",
			chunks: []Message{chunk("m1", Text("Hel")), chunk("m1", Text("lo")), chunk("m1", Text("!"))},
			want:   `[[{"type":"text","text":"Hello!"}]]`,
		},
		{
			name:   "different ids start new messages",
			chunks: []Message{chunk("m1", Text("a")), chunk("m2", Text("b"))},
			want:   `[[{"type":"text","text":"a"}],[{"type":"text","text":"b"}]]`,
		},
		{
			name:   "nil ids never merge",
			chunks: []Message{NewMessage(RoleAssistant, 1).WithText("a"), NewMessage(RoleAssistant, 1).WithText("b")},
			want:   `[[{"type":"text","text":"a"}],[{"type":"text","text":"b"}]]`,
		},
		{
			name:   "a tool request is appended after the text",
			chunks: []Message{chunk("m1", Text("a")), chunk("m1", ToolRequestContent("t1", "x__y", map[string]any{}))},
			want:   `[[{"type":"text","text":"a"},{"type":"toolRequest","id":"t1","toolCall":{"status":"success","value":{"name":"x__y","arguments":{}}}}]]`,
		},
		{
			name:   "text after a tool request is a new item",
			chunks: []Message{chunk("m1", ToolRequestContent("t1", "x__y", map[string]any{})), chunk("m1", Text("b")), chunk("m1", Text("c"))},
			want:   `[[{"type":"toolRequest","id":"t1","toolCall":{"status":"success","value":{"name":"x__y","arguments":{}}}},{"type":"text","text":"bc"}]]`,
		},
		{
			name:   "multi-item chunk is appended whole",
			chunks: []Message{chunk("m1", Text("a")), chunk("m1", Text("b"), Text("c"))},
			want:   `[[{"type":"text","text":"a"},{"type":"text","text":"b"},{"type":"text","text":"c"}]]`,
		},
		{
			name:   "unsigned thinking deltas merge and adopt the closing signature",
			chunks: []Message{chunk("m1", Thinking("a", "")), chunk("m1", Thinking("b", "")), chunk("m1", Thinking("", "sig1"))},
			want:   `[[{"type":"thinking","thinking":"ab","signature":"sig1"}]]`,
		},
		{
			name:   "an unsigned delta after a signed block starts the next block",
			chunks: []Message{chunk("m1", Thinking("a", "sig1")), chunk("m1", Thinking("b", ""))},
			want:   `[[{"type":"thinking","thinking":"a","signature":"sig1"},{"type":"thinking","thinking":"b","signature":""}]]`,
		},
		{
			name:   "same signature continues the block",
			chunks: []Message{chunk("m1", Thinking("a", "s")), chunk("m1", Thinking("b", "s"))},
			want:   `[[{"type":"thinking","thinking":"ab","signature":"s"}]]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c Conversation
			c.Extend(tt.chunks...)
			var contents [][]Content
			for _, m := range c {
				contents = append(contents, m.Content)
			}
			if got := mustJSON(t, contents); got != tt.want {
				t.Fatalf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestPushDoesNotMutateEarlierChunks(t *testing.T) {
	first := chunk("m1", Text("a"))
	firstJSON := mustJSON(t, first)
	var c Conversation
	c.Push(first)
	c.Push(chunk("m1", Text("b")))
	c.Push(chunk("m1", Image("x", "image/png")))
	if got := mustJSON(t, first); got != firstJSON {
		t.Fatalf("first chunk changed: %s", got)
	}
}

func TestVisibilityFilters(t *testing.T) {
	c := Conversation{
		UserText(1, "all"),
		UserText(1, "agent").WithMetadata(AgentOnly()),
		UserText(1, "user").WithMetadata(UserOnly()),
		UserText(1, "none").WithMetadata(Invisible()),
	}
	if got := texts(c.AgentVisible()); !slices.Equal(got, []string{"all", "agent"}) {
		t.Fatalf("agent visible = %q", got)
	}
	if got := texts(c.UserVisible()); !slices.Equal(got, []string{"all", "user"}) {
		t.Fatalf("user visible = %q", got)
	}
	if last, ok := c.Last(); !ok || last.AsText() != "none" {
		t.Fatalf("last = %+v", last)
	}
}

func TestConversationValid(t *testing.T) {
	ok, issues := Conversation{UserText(1, "hi")}.Valid()
	if !ok || len(issues) != 0 {
		t.Fatalf("valid = %v %q", ok, issues)
	}
	ok, issues = Conversation{AssistantText(1, "hi")}.Valid()
	if ok || len(issues) == 0 {
		t.Fatalf("valid = %v %q", ok, issues)
	}
}
