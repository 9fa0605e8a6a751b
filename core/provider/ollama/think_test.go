package ollama

import (
	"strings"
	"testing"

	"github.com/goose-acp/goose-acp/core/conversation"
	"github.com/goose-acp/goose-acp/core/provider/providertest"
)

func TestThinkSplitter(t *testing.T) {
	tests := []struct {
		name           string
		deltas         []string
		thinking, text string
	}{
		{"inline think block", []string{"<think>\nplan it\n</think>\n\nAnswer"}, "plan it\n", "Answer"},
		{"tags split across chunks", []string{"  <th", "ink>a", "b</thi", "nk>", "done"}, "ab", "done"},
		{"no think block", []string{"Hello ", "<think> is just text"}, "", "Hello <think> is just text"},
		{"unterminated block", []string{"<think>still thinking"}, "still thinking", ""},
		{"partial close tag at end", []string{"<think>x</th"}, "x</th", ""},
		{"text that merely starts like the tag", []string{"<t", "able>"}, "", "<table>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sp thinkSplitter
			var th, tx strings.Builder
			for _, d := range tt.deltas {
				a, b := sp.split(d)
				th.WriteString(a)
				tx.WriteString(b)
			}
			a, b := sp.flush()
			th.WriteString(a)
			tx.WriteString(b)
			if th.String() != tt.thinking || tx.String() != tt.text {
				t.Errorf("thinking %q text %q, want %q and %q", th.String(), tx.String(), tt.thinking, tt.text)
			}
		})
	}
}

func TestInlineThinkingFromStream(t *testing.T) {
	srv := start(t, providertest.Turn{Text: []string{"<think>", "hmm", "</think>\n\n", "Hi!"}})
	chunks, err := providertest.Drain(newProvider(t, srv, qwen, nil), providertest.UserRequest("hi"))
	if err != nil {
		t.Fatal(err)
	}
	want := []conversation.Content{conversation.Thinking("hmm", ""), conversation.Text("Hi!")}
	providertest.CheckContent(t, chunks, want)
}
