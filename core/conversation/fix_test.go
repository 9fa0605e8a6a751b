package conversation

import (
	"slices"
	"testing"
)

func user(text string) Message      { return UserText(1, text) }
func assistant(text string) Message { return AssistantText(1, text) }
func userEmpty() Message            { return NewMessage(RoleUser, 1) }
func toolReq(id, name string, args map[string]any) Content {
	return ToolRequestContent(id, name, args)
}
func toolResp(id, text string) Content { return ToolResponseContent(id, TextResult(text)) }
func hidden(m Message) Message         { return m.WithMetadata(UserOnly()) }

// runVerify fixes msgs and checks goose's invariant: a fixed conversation
// needs no further fixing.
func runVerify(t *testing.T, msgs []Message) ([]Message, []string) {
	t.Helper()
	fixed, issues := Fix(msgs)
	if _, again := Fix(fixed); len(again) != 0 {
		t.Fatalf("fixed conversation still has issues %q (first pass: %q)", again, issues)
	}
	return fixed, issues
}

func sameIssues(t *testing.T, got []string, want ...string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if !slices.Equal(g, w) {
		t.Fatalf("issues = %q\nwant %q", got, want)
	}
}

func roles(msgs []Message) []Role {
	var out []Role
	for _, m := range msgs {
		out = append(out, m.Role)
	}
	return out
}

func texts(msgs []Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.AsText())
	}
	return out
}

func TestFixValidConversationPrefixes(t *testing.T) {
	all := []Message{
		user("Can you help me search for something?"),
		assistant("I'll help you search.").With(toolReq("search_1", "web_search", map[string]any{"query": "rust programming"})),
		userEmpty().With(toolResp("search_1", "Search results here")),
		assistant("Based on the search results, here's what I found..."),
	}
	for i := 1; i <= len(all); i++ {
		msgs := all[:i]
		if msgs[i-1].Role != RoleUser {
			continue
		}
		fixed, issues := Fix(msgs)
		if len(issues) != 0 {
			t.Fatalf("step %d: issues %q", i, issues)
		}
		if !jsonEqual(t, fixed, msgs) {
			t.Fatalf("step %d: messages changed", i)
		}
	}
}

func TestFixScenarios(t *testing.T) {
	tests := []struct {
		name       string
		in         []Message
		wantIssues []string
		wantRoles  []Role
		wantTexts  []string // AsText of each fixed message, when checked
	}{
		{
			name: "role alternation and content placement",
			in: []Message{
				user("Hello"),
				user("Another user message"),
				assistant("Response").With(toolResp("orphan_1", "result")),
				NewMessage(RoleAssistant, 1).With(Thinking("Let me think", "sig")),
				userEmpty().With(toolReq("bad_req", "search", map[string]any{})).WithText("User with bad tool request"),
			},
			wantIssues: []string{
				"Merged consecutive assistant messages",
				"Merged consecutive user messages",
				"Removed tool response 'orphan_1' from assistant message",
				"Removed tool request 'bad_req' from user message",
			},
			wantRoles: []Role{RoleUser, RoleAssistant, RoleUser},
			wantTexts: []string{"Hello\nAnother user message", "Response", "User with bad tool request"},
		},
		{
			name: "orphaned tools and empty messages collapse to placeholder",
			in: []Message{
				assistant("I'll search for you").With(toolReq("search_1", "search", map[string]any{})),
				userEmpty(),
				userEmpty().With(toolResp("wrong_id", "result")),
				NewMessage(RoleAssistant, 1).With(toolReq("search_2", "search", map[string]any{})),
			},
			wantIssues: []string{
				"Removed empty message",
				"Removed orphaned tool response 'wrong_id'",
				"Removed orphaned tool request 'search_1'",
				"Removed orphaned tool request 'search_2'",
				"Removed empty message",
				"Removed empty message",
				"Removed leading assistant message",
				"Added placeholder user message to empty conversation",
			},
			wantRoles: []Role{RoleUser},
			wantTexts: []string{"Hello"},
		},
		{
			name: "tool response effective role keeps following user text separate",
			in: []Message{
				user("Search for something"),
				assistant("I'll search for you").With(toolReq("search_1", "search", map[string]any{})),
				userEmpty().With(toolResp("search_1", "search results")),
				user("Thanks!"),
			},
			wantRoles: []Role{RoleUser, RoleAssistant, RoleUser, RoleUser},
		},
		{
			name: "merge text content items",
			in: []Message{
				user("hello"),
				assistant("Hello").WithText(" world").WithText("!"),
				user("thanks"),
			},
			wantIssues: []string{"Merged text content"},
			wantTexts:  []string{"hello", "Hello world!", "thanks"},
		},
		{
			name: "trim trailing whitespace of assistant text only",
			in: []Message{
				user("hi  "),
				assistant("there \n\t"),
				user("ok"),
			},
			wantIssues: []string{"Trimmed trailing whitespace from assistant message"},
			wantTexts:  []string{"hi  ", "there", "ok"},
		},
		{
			name: "empty tool result gets placeholder",
			in: []Message{
				user("Search for something"),
				assistant("I'll search for you").With(toolReq("search_1", "search", map[string]any{})),
				userEmpty().With(ToolResponseContent("search_1", Ok(CallToolResult{}))),
				user("Thanks!"),
			},
			wantIssues: []string{"Added placeholder to empty tool result 'search_1'"},
		},
		{
			name: "thinking and confirmation requests leave user messages",
			in: []Message{
				user("a").With(Thinking("t", "s"), RedactedThinking("r"), Content{
					Type: TypeToolConfirmationRequest, ToolConfirmationRequest: &ToolConfirmationRequest{ID: "c1", ToolName: "x"},
				}),
			},
			wantIssues: []string{
				"Removed thinking content from user message",
				"Removed thinking content from user message",
				"Removed tool confirmation request 'c1' from user message",
			},
			wantTexts: []string{"a"},
		},
		{
			name: "frontend tool request leaves assistant message",
			in: []Message{
				user("a"),
				assistant("b").With(Content{Type: TypeFrontendToolRequest, FrontendToolRequest: &FrontendToolRequest{ID: "f1", ToolCall: Ok(ToolCall{Name: "x"})}}),
				user("c"),
			},
			wantIssues: []string{"Removed frontend tool request 'f1' from assistant message"},
			wantTexts:  []string{"a", "b", "c"},
		},
		{
			name:       "empty conversation gets placeholder",
			in:         nil,
			wantIssues: []string{"Added placeholder user message to empty conversation"},
			wantTexts:  []string{"Hello"},
		},
		{
			name: "leading and trailing assistant removed",
			in: []Message{
				assistant("lead"),
				user("u"),
				assistant("trail"),
			},
			wantIssues: []string{"Removed leading assistant message", "Removed trailing assistant message"},
			wantTexts:  []string{"u"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fixed, issues := runVerify(t, tt.in)
			sameIssues(t, issues, tt.wantIssues...)
			if tt.wantRoles != nil && !slices.Equal(roles(fixed), tt.wantRoles) {
				t.Fatalf("roles = %v, want %v", roles(fixed), tt.wantRoles)
			}
			if tt.wantTexts != nil && !slices.Equal(texts(fixed), tt.wantTexts) {
				t.Fatalf("texts = %q, want %q", texts(fixed), tt.wantTexts)
			}
		})
	}
}

func TestFixRealWorldConsecutiveAssistantMessages(t *testing.T) {
	in := []Message{
		user("run ls in the current directory and then run a word count on the smallest file"),
		assistant("I'll help you run `ls` in the current directory and then perform a word count on the smallest file. Let me start by listing the directory contents.").
			With(toolReq("toolu_bdrk_018adWbP4X26CfoJU5hkhu3i", "developer__shell", map[string]any{"command": "ls -la"})),
		assistant("Now I'll identify the smallest file by size. Looking at the output, I can see that both `slack.yaml` and `subrecipes.yaml` have a size of 0 bytes, making them the smallest files. I'll run a word count on one of them:").
			With(toolReq("toolu_bdrk_01KgDYHs4fAodi22NqxRzmwx", "developer__shell", map[string]any{"command": "wc slack.yaml"})),
		userEmpty().With(toolResp("toolu_bdrk_01KgDYHs4fAodi22NqxRzmwx", "0 0 0 slack.yaml")),
		assistant("I ran `ls -la` in the current directory and found several files. Looking at the file sizes, I can see that both `slack.yaml` and `subrecipes.yaml` are 0 bytes (the smallest files). I ran a word count on `slack.yaml` which shows: **0 lines**, **0 words**, **0 characters**"),
		user("thanks!"),
	}
	fixed, issues := Fix(in)
	if len(fixed) != 5 {
		t.Fatalf("len = %d, want 5", len(fixed))
	}
	sameIssues(t, issues,
		"Removed orphaned tool request 'toolu_bdrk_018adWbP4X26CfoJU5hkhu3i'",
		"Merged consecutive assistant messages")
	// The merged assistant keeps both texts and the answered request only.
	if got := fixed[1].ToolRequests(); len(got) != 1 || got[0].ID != "toolu_bdrk_01KgDYHs4fAodi22NqxRzmwx" {
		t.Fatalf("requests = %+v", got)
	}
}

func TestFixMergeTextKeepsImages(t *testing.T) {
	in := []Message{
		user("hello"),
		assistant("Look at").WithText(" this image:").With(Image("", "")),
		user("thanks"),
	}
	fixed, issues := runVerify(t, in)
	sameIssues(t, issues, "Merged text content")
	c := fixed[1].Content
	if len(c) != 2 || c[0].Text == nil || c[0].Text.Text != "Look at this image:" || c[1].Image == nil {
		t.Fatalf("content = %+v", c)
	}
}

func TestFixDoesNotModifyInput(t *testing.T) {
	in := []Message{
		user("a"),
		assistant("x ").WithText("y").With(toolReq("r1", "t", nil)),
		userEmpty().With(ToolResponseContent("r1", Ok(CallToolResult{}))),
		user("b"),
		user("c"),
	}
	before := mustJSON(t, in)
	if _, issues := Fix(in); len(issues) == 0 {
		t.Fatal("expected fixes")
	}
	if after := mustJSON(t, in); after != before {
		t.Fatalf("input changed:\n%s\n%s", before, after)
	}
}

func TestFixInvisibleMessagesKeepTheirPlaces(t *testing.T) {
	t.Run("ordering with fixes", func(t *testing.T) {
		in := []Message{
			user("First user message"),
			hidden(user("Non-visible note 1")),
			user("Second user message"),
			user("Third user message"),
			hidden(user("Non-visible note 2")),
			assistant("Assistant response"),
			hidden(user("Non-visible note 3")),
			user("Final user message"),
		}
		fixed, issues := Fix(in)
		sameIssues(t, issues, "Merged consecutive user messages", "Merged consecutive user messages")
		want := []string{
			"First user message\nSecond user message\nThird user message",
			"Non-visible note 1", "Non-visible note 2", "Assistant response",
			"Non-visible note 3", "Final user message",
		}
		if !slices.Equal(texts(fixed), want) {
			t.Fatalf("texts = %q", texts(fixed))
		}
	})
	t.Run("multiple consecutive merges", func(t *testing.T) {
		in := []Message{
			user("User 1"), hidden(user("Non-visible A")), user("User 2"), user("User 3"), user("User 4"), hidden(user("Non-visible B")),
		}
		fixed, _ := Fix(in)
		want := []string{"User 1\nUser 2\nUser 3\nUser 4", "Non-visible A", "Non-visible B"}
		if !slices.Equal(texts(fixed), want) {
			t.Fatalf("texts = %q", texts(fixed))
		}
	})
	t.Run("leading and trailing removal", func(t *testing.T) {
		in := []Message{
			assistant("Leading assistant"), hidden(user("Non-visible note")), user("User message"),
			assistant("Assistant response"), assistant("Trailing assistant"),
		}
		fixed, issues := Fix(in)
		sameIssues(t, issues, "Merged consecutive assistant messages", "Removed leading assistant message", "Removed trailing assistant message")
		if want := []string{"Non-visible note", "User message"}; !slices.Equal(texts(fixed), want) {
			t.Fatalf("texts = %q", texts(fixed))
		}
	})
	t.Run("all visible removed", func(t *testing.T) {
		in := []Message{assistant("Only assistant"), hidden(user("Non-visible note 1")), hidden(user("Non-visible note 2"))}
		fixed, issues := Fix(in)
		sameIssues(t, issues, "Removed leading assistant message", "Added placeholder user message to empty conversation")
		if want := []string{"Hello", "Non-visible note 1", "Non-visible note 2"}; !slices.Equal(texts(fixed), want) {
			t.Fatalf("texts = %q", texts(fixed))
		}
		if !fixed[0].Metadata.AgentVisible || !fixed[0].Metadata.UserVisible || fixed[0].Role != RoleUser {
			t.Fatalf("placeholder = %+v", fixed[0])
		}
	})
	t.Run("only invisible messages still get a placeholder", func(t *testing.T) {
		in := []Message{hidden(user("note"))}
		fixed, issues := Fix(in)
		sameIssues(t, issues, "Added placeholder user message to empty conversation")
		if want := []string{"note", "Hello"}; !slices.Equal(texts(fixed), want) {
			t.Fatalf("texts = %q", texts(fixed))
		}
	})
	t.Run("interleaving preserved", func(t *testing.T) {
		in := []Message{
			user("User 1"), hidden(user("Non-vis A")), assistant("Assistant 1"),
			hidden(user("Non-vis B")), user("User 2"), hidden(user("Non-vis C")),
		}
		fixed, issues := Fix(in)
		if len(issues) != 0 || !jsonEqual(t, fixed, in) {
			t.Fatalf("issues %q, fixed %q", issues, texts(fixed))
		}
	})
}
